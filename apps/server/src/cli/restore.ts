import path from 'node:path';
import { migrationNames } from '../db/migrate';
import { restoreSqlite } from '../db/sqlite-backup';
import { MIGRATE_COMMAND } from '../db/migrate-on-start';
import { megabytes, runCommand, say, sqliteFileArgument } from './run-command';

const USAGE = `Usage: pnpm restore <file>

Puts a backup written by \`pnpm backup\` in place of the SQLite database ($DATA_DIR/mates.db).
Stop the server first: restore refuses while anything has the database open. The database it
replaces is kept beside it as mates.db.before-restore-<time>. A backup from an older version
is restored as it is; its migrations run at the next start (MIGRATE) or with pnpm migrate.
On PostgreSQL (DATABASE_URL) use pg_restore instead, as docs/deploy.md shows.`;

/** `restore <file>`: a backup back in place of the SQLite database, with the server stopped. */
async function main(argv: string[]): Promise<number> {
  const args = sqliteFileArgument(argv, USAGE, {
    missing: 'name one backup file',
    onPostgres:
      'restore replaces the SQLite database, and this server uses PostgreSQL (DATABASE_URL): restore it with pg_restore as docs/deploy.md shows',
  });
  if (!args) return 0;
  const { config, file: backup } = args;
  const target = path.join(config.dataDir, 'mates.db');
  const restored = await restoreSqlite(backup, target, migrationNames());
  say(`restored ${backup} into ${target} (${megabytes(restored.bytes)}, ${restored.pages} pages)`);
  if (restored.keptAs) say(`the database it replaced is kept as ${restored.keptAs}`);
  if (restored.pending.length)
    say(
      `the backup is from an older version: ${restored.pending.length} migration(s) to run; ${config.migrate === 'auto' ? 'the next start runs them' : `run ${MIGRATE_COMMAND}`}`,
    );
  return 0;
}

runCommand(main);
