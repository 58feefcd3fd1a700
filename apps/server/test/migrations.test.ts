import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateToLatest } from '../src/db/migrate';
import { DIALECTS, freshDatabase, postgresAvailable } from './harness';

const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('migrations on %s', (dialect) => {
  it.skipIf(dialect === 'postgres' && !withPostgres)(
    'run up from empty, then do nothing the second time',
    async () => {
      const database = await freshDatabase(dialect);
      try {
        expect(await migrateToLatest(database.db as never, database.dialect)).toEqual([]);
        const tables = await database.db.introspection.getTables();
        expect(tables.map((t) => t.name)).toEqual(
          expect.arrayContaining([
            'users',
            'sessions',
            'mates',
            'mate_tags',
            'favorites',
            'follows',
            'personas',
            'reviews',
            'search_log',
            'mate_chat_log',
          ]),
        );
        const applied = await sql<{
          name: string;
        }>`select name from kysely_migration order by name`.execute(database.db);
        expect(applied.rows.map((r) => r.name)).toEqual([
          '2026-11-22-0001-initial',
          '2026-11-22-0002-search',
          '2026-11-22-0003-card-extra',
          '2026-11-22-0004-listing-indexes',
          '2026-11-22-0005-packages',
          '2026-11-22-0006-rooms',
        ]);
      } finally {
        await database.drop();
      }
    },
  );
});
