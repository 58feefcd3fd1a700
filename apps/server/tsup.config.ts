import { defineConfig } from 'tsup';

export default defineConfig({
  // The operator's commands (src/cli) are files of their own next to main.js, as is the
  // embedded speech engine's worker thread (found there by main.js).
  entry: {
    main: 'src/main.ts',
    grant: 'src/cli/grant.ts',
    migrate: 'src/cli/migrate.ts',
    seed: 'src/cli/seed.ts',
    backup: 'src/cli/backup.ts',
    restore: 'src/cli/restore.ts',
    'export-account': 'src/cli/export-account.ts',
    'delete-account': 'src/cli/delete-account.ts',
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
