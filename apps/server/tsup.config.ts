import { defineConfig } from 'tsup';

export default defineConfig({
  // The embedded speech engine's worker thread is its own file, found next to main.js.
  entry: {
    main: 'src/main.ts',
    grant: 'src/cli/grant.ts',
    'speech-worker': 'src/voice/speech-worker.mjs',
  },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  clean: true,
  // Native and driver packages load from node_modules at run time.
  external: ['better-sqlite3', 'pg', '@node-rs/argon2'],
});
