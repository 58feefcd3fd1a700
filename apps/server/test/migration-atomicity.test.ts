import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateTo, migrateToLatest } from '../src/db/migrate';
import { DIALECTS, emptyDatabase, postgresAvailable } from './harness';

// Issue #36, item 1: the pending migrations apply whole or not at all. One that fails part-way
// through an upgrade leaves the database exactly as it was, on SQLite as on PostgreSQL (Kysely's
// SQLite adapter used to commit each statement on its own).
const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('an upgrade that fails on %s', (dialect) => {
  it.skipIf(dialect === 'postgres' && !withPostgres)(
    'leaves none of its migrations applied, and runs whole once the cause is gone',
    async () => {
      const database = await emptyDatabase(dialect);
      const db = database.db;
      try {
        await migrateTo(db as never, dialect, '2026-11-25-0020-jobs-state-index');
        // A table in the way of a later migration (0026) of the upgrade.
        await sql`create table search_word_people (word text)`.execute(db);
        await expect(migrateToLatest(db as never, dialect)).rejects.toThrow(
          /Database migration failed \(2026-11-26-0026-search-word-people\)/,
        );
        const tables = (await db.introspection.getTables()).map((table) => table.name);
        // 0021 created these, 0022 dropped mate_chat_log: all undone.
        expect(tables).not.toContain('catalog_versions');
        expect(tables).not.toContain('search_word_days');
        expect(tables).toContain('mate_chat_log');
        const ran = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
        expect(ran.rows.map((row) => row.name).at(-1)).toBe('2026-11-25-0020-jobs-state-index');

        await sql`drop table search_word_people`.execute(db);
        const applied = await migrateToLatest(db as never, dialect);
        expect(applied[0]).toBe('2026-11-25-0021-catalog-counts');
        expect((await db.introspection.getTables()).map((table) => table.name)).toContain(
          'catalog_versions',
        );
      } finally {
        await database.drop();
      }
    },
  );
});
