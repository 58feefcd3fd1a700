import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect } from '../src/db/connect';
import { migrateToLatest } from '../src/db/migrate';
import { SEED_MATES, seedIfEmpty } from '../src/seed/seed';
import { emptyDatabase, postgresAvailable } from './harness';

// Two server processes starting at once on an empty PostgreSQL database both migrate and seed
// it: one seeds, the other finds it seeded, and neither crashes on a duplicate key.
const withPostgres = await postgresAvailable();

describe('seeding an empty database from two servers at once', () => {
  it.skipIf(!withPostgres)(
    'on postgres: one seeds, the other waits and seeds nothing',
    async () => {
      const database = await emptyDatabase('postgres');
      const other = connect({ databaseUrl: database.url!, sqliteFile: '' });
      const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-seed-race-'));
      try {
        const start = async (db: typeof database.db) => {
          await migrateToLatest(db as never, 'postgres');
          return seedIfEmpty(db, { mediaDir });
        };
        const results = await Promise.all([start(database.db), start(other.db)]);
        expect(results.filter((result) => result !== null)).toHaveLength(1);
        const mates = await database.db
          .selectFrom('mates')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        expect(Number(mates.n)).toBe(SEED_MATES.length);
      } finally {
        await other.close();
        await database.drop();
        fs.rmSync(mediaDir, { recursive: true, force: true });
      }
    },
  );
});
