import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { describeDatabase } from '../db/describe-database';
import { openDatabase } from '../db/open-database';
import { migrateToLatest, migrationNames, pendingMigrations } from '../db/migrate';
import { takeOverSqlite } from '../db/sqlite-backup';
import { runCommand, say } from './run-command';

const USAGE = `Usage: pnpm migrate [--check]

Runs the database migrations this server has and the database has not run yet, and lists
them. On PostgreSQL they run in one transaction under a lock (all or none; servers may keep
running); on SQLite the server must be stopped first. With --check it runs none: it lists
those pending and exits with 1 when there are some, 0 when the database is up to date.
It uses the same DATA_DIR / DATABASE_URL as the server.`;

const list = (names: string[]) => names.map((name) => `\n  ${name}`).join('');

/** `migrate`: brings the database up to date, separately from start (`--check`: only tells). */
async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { check: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const config = loadConfig();
  const where = describeDatabase(config);
  const open = () => openDatabase(config);
  let { db, dialect, close } = open();
  try {
    const pending = await pendingMigrations(db as never);
    if (values.check) {
      if (pending.length === 0) {
        say(`${where} is up to date (${migrationNames().length} migrations)`);
        return 0;
      }
      say(`${where} has ${pending.length} migration(s) to run:${list(pending)}`);
      return 1;
    }
    if (pending.length && dialect === 'sqlite') {
      // SQLite has one server per file, and its migrations take no lock: the server is stopped
      // for them (an old server would go on writing through the new schema).
      await close();
      takeOverSqlite(path.join(config.dataDir, 'mates.db'));
      ({ db, dialect, close } = open());
    }
    const ran = await migrateToLatest(db as never, dialect);
    say(
      ran.length === 0
        ? `${where} was already up to date (${migrationNames().length} migrations); nothing ran`
        : `${where}: ran ${ran.length} migration(s):${list(ran)}`,
    );
    return 0;
  } finally {
    await close();
  }
}

runCommand(main);
