import type { Kysely } from 'kysely';
import { ConfigError, type MigrateMode } from '../config';
import type { DialectName } from './dialect';
import { migrateToLatest, migrationNames, pendingMigrations } from './migrate';

/** How an operator brings the database up to date, named in every refusal. */
export const MIGRATE_COMMAND =
  'pnpm migrate (from the repository root; node dist/migrate.js in a deployed server folder)';

/** Start, or a command, found migrations it may not run: the message says what to do. */
export class UnmigratedDatabase extends ConfigError {
  constructor(readonly pending: string[]) {
    super(
      `The database is not up to date: ${pending.length} migration(s) to run, the first ${pending[0]}. Run ${MIGRATE_COMMAND}, then start again; or set MIGRATE=auto to migrate at start.`,
    );
  }
}

/**
 * Brings the database up to date as `MIGRATE` allows (`auto`: always; `new`: only a database
 * that has run no migration yet), or throws {@link UnmigratedDatabase} when migrations are
 * left pending. Answers the names of the migrations it ran.
 *
 * Kysely's migrator runs all the pending migrations in one transaction, on SQLite too (see
 * `PreparedSqliteDialect`): a server killed while it migrates leaves none of them applied, and
 * the next start runs them again. Several servers starting at once on PostgreSQL are safe: the
 * transaction holds an advisory lock, so a second server sees either none of them run or all
 * of them. A SQLite file has one server.
 */
export async function migrateOnStart(
  db: Kysely<unknown>,
  dialect: DialectName,
  mode: MigrateMode,
): Promise<string[]> {
  if (mode === 'auto') return migrateToLatest(db, dialect);
  const pending = await pendingMigrations(db);
  if (pending.length === 0) return [];
  if (mode === 'new' && pending.length === migrationNames().length)
    return migrateToLatest(db, dialect);
  throw new UnmigratedDatabase(pending);
}
