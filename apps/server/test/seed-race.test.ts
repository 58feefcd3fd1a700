import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect } from '../src/db/connect';
import { loadConfig } from '../src/config';
import { migrateToLatest } from '../src/db/migrate';
import { createFolderStore } from '../src/media/folder-store';
import { createS3Store } from '../src/media/s3-store';
import type { MediaStore } from '../src/media/media-store';
import { SEED_MATES, seedIfEmpty } from '../src/seed/seed';
import { CREATORS } from '../src/seed/creators';
import { emptyDatabase, postgresAvailable } from './harness';
import { startS3Double } from './s3-double';

// Two server processes starting at once on an empty PostgreSQL database both migrate and seed
// it: one seeds, the other finds it seeded, and neither crashes on a duplicate key.
const withPostgres = await postgresAvailable();

/** Seeds one fresh database from two connections at once, each with its own store. */
async function seedTwice(stores: [MediaStore, MediaStore]) {
  const database = await emptyDatabase('postgres');
  const other = connect({ databaseUrl: database.url!, sqliteFile: '' });
  try {
    const start = async (db: typeof database.db, media: MediaStore) => {
      await migrateToLatest(db as never, 'postgres');
      return seedIfEmpty(db, { media });
    };
    const results = await Promise.all([start(database.db, stores[0]), start(other.db, stores[1])]);
    expect(results.filter((result) => result !== null)).toHaveLength(1);
    const mates = await database.db.selectFrom('mates').select('avatar').execute();
    expect(mates).toHaveLength(SEED_MATES.length);
    const creators = await database.db
      .selectFrom('users')
      .select('avatar')
      .where('email', 'like', '%@creators.mates.local')
      .execute();
    return [...mates, ...creators].map((row) => row.avatar!);
  } finally {
    await other.close();
    await database.drop();
  }
}

describe('seeding an empty database from two servers at once', () => {
  it.skipIf(!withPostgres)(
    'on postgres: one seeds, the other waits and seeds nothing',
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-seed-race-'));
      try {
        const media = createFolderStore(dataDir);
        const avatars = await seedTwice([media, media]);
        expect(fs.readdirSync(path.join(dataDir, 'media', 'avatars'))).toHaveLength(avatars.length);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(!withPostgres)(
    'on postgres and one bucket: the portraits of one seeding, each row pointing at its own',
    async () => {
      const s3 = await startS3Double();
      try {
        const config = () => loadConfig({ DATA_DIR: os.tmpdir(), ...s3.env() }).s3!;
        const avatars = await seedTwice([createS3Store(config()), createS3Store(config())]);
        expect(avatars).toHaveLength(SEED_MATES.length + CREATORS.length);
        // The bucket holds exactly the portraits the rows show: the second server wrote none.
        expect(await s3.keys('media/')).toEqual(
          avatars.map((url) => url.replace(/^\/media\//, 'media/')).sort(),
        );
      } finally {
        await s3.close();
      }
    },
  );
});
