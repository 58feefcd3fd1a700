import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  clean: true,
  // Native and driver packages load from node_modules at run time.
  external: ['better-sqlite3', 'pg', '@node-rs/argon2'],
});
