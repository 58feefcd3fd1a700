import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  // TS 6 deprecates options that tsup's d.ts step still sets; the d.ts step
  // must read the api-client's built types, not its sources.
  dts: { compilerOptions: { ignoreDeprecations: '6.0', customConditions: [] } },
  sourcemap: true,
  clean: true,
  target: 'es2022',
  external: ['xstate', '@xstate/store', '@mates/api-client'],
});
