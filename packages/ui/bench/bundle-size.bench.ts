// What a consumer pays for one import from @mates/ui: a one-line app importing one component
// from the built dist, bundled by esbuild for production (minified, tree-shaken; React is
// the app's own and stays out). Prints figures; asserts nothing. Run after
// `pnpm --filter @mates/ui build`: `pnpm --filter @mates/ui bench`.
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const PACKAGE_DIR = path.resolve(import.meta.dirname, '..');
const COMPONENTS = ['Button', 'Dialog', 'MateCard'] as const;

/** Bundles `import { name } from '@mates/ui'` as an app's production build would. */
async function bundleSize(name: string) {
  const result = await build({
    stdin: {
      // Using the import keeps it from being shaken away with everything else.
      contents: `import { ${name} } from '@mates/ui';\nconsole.log(${name});\n`,
      resolveDir: PACKAGE_DIR,
      loader: 'js',
    },
    // No alias: the package resolves itself by name through its own `exports` (the `default`
    // condition, its built dist), as a consumer's bundler would.
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    define: { 'process.env.NODE_ENV': '"production"' },
    external: ['react', 'react-dom', 'react/jsx-runtime'],
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
for (const name of COMPONENTS) {
  const { minified, gzipped } = await bundleSize(name);
  console.log(
    `import { ${name} } from '@mates/ui': ${kb(minified)} minified, ${kb(gzipped)} gzipped`,
  );
}
