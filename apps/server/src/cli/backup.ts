import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { backupSqlite } from '../db/sqlite-backup';
import { megabytes, runCommand, say } from './run-command';

const USAGE = `Usage: pnpm backup <file>

Copies the SQLite database ($DATA_DIR/mates.db) into <file>, safely while the server runs
(SQLite's online backup API): one self-contained file, checked before it replaces <file>.
Media and the other files of DATA_DIR are not in it (docs/deploy.md says what to copy).
On PostgreSQL (DATABASE_URL) use pg_dump instead, as docs/deploy.md shows.`;

/** `backup <file>`: an online copy of the SQLite database. */
async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1) throw new ConfigError(`name one file to write\n\n${USAGE}`);
  const config = loadConfig();
  if (config.databaseUrl)
    throw new ConfigError(
      'backup copies the SQLite database, and this server uses PostgreSQL (DATABASE_URL): back it up with pg_dump as docs/deploy.md shows',
    );
  const source = path.join(config.dataDir, 'mates.db');
  const target = path.resolve(positionals[0]!);
  const copied = await backupSqlite(source, target);
  say(`backed up ${source} to ${target} (${megabytes(copied.bytes)}, ${copied.pages} pages)`);
  return 0;
}

runCommand(main);
