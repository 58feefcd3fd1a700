import { defineConfig } from 'tsup';
import { esbuildPluginFilePathExtensions } from 'esbuild-plugin-file-path-extensions';

export default defineConfig({
  // One built module per source module, so that an app's bundler keeps only the components it
  // imports (`sideEffects: false`), each module keeps its own `'use client'` directive, and the
  // Stitches instance (theme/stitches.config) exists once, imported by every component.
  entry: [
    'src/**/*.ts',
    'src/**/*.tsx',
    '!src/**/*.test.ts',
    '!src/**/*.test.tsx',
    '!src/**/*.stories.tsx',
  ],
  // Relative imports stay imports (with the extension Node needs) instead of being inlined.
  esbuildPlugins: [esbuildPluginFilePathExtensions({ esmExtension: 'js' })],
  format: ['esm'],
  // TS 6 deprecates options that tsup's d.ts step still sets.
  dts: {
    entry: 'src/index.ts',
    compilerOptions: { ignoreDeprecations: '6.0', customConditions: [] },
  },
  sourcemap: true,
  clean: true,
  target: 'es2022',
  external: ['react', 'react-dom', 'react/jsx-runtime', '@mates/api-client'],
});
