import path from 'node:path';
import { backupSqlite } from '../db/sqlite-backup';
import { megabytes, runCommand, say, sqliteFileArgument } from './run-command';

const USAGE = `Usage: pnpm backup <file>

Copies the SQLite database ($DATA_DIR/mates.db) into <file>, safely while the server runs
(SQLite's online backup API): one self-contained file, checked before it replaces <file>.
Media and the other files of DATA_DIR are not in it (docs/deploy.md says what to copy).
On PostgreSQL (DATABASE_URL) use pg_dump instead, as docs/deploy.md shows.`;

/** `backup <file>`: an online copy of the SQLite database. */
async function main(argv: string[]): Promise<number> {
  const args = sqliteFileArgument(argv, USAGE, {
    missing: 'name one file to write',
    onPostgres:
      'backup copies the SQLite database, and this server uses PostgreSQL (DATABASE_URL): back it up with pg_dump as docs/deploy.md shows',
  });
  if (!args) return 0;
  const source = path.join(args.config.dataDir, 'mates.db');
  const target = args.file;
  const copied = await backupSqlite(source, target);
  say(`backed up ${source} to ${target} (${megabytes(copied.bytes)}, ${copied.pages} pages)`);
  return 0;
}

runCommand(main);
