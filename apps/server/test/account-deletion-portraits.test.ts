import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema';
import { portraitStays } from '../src/privacy/account-deletion-repository';
import { DIALECTS, freshDatabase, insertUser, mateRow, postgresAvailable } from './harness';

// Deleting an account removes the portraits of its mates, unless another mate, user or persona
// shows the same picture. A creator of more than 500 mates (the size of one `in (…)` list) had
// every portrait kept: the check stopped leaving their own mates out, and found each portrait's
// own mate.
const withPostgres = await postgresAvailable();
const PORTRAIT = '/media/avatars/0b0e7a4e-portrait.webp';

describe.each(DIALECTS)('a deleted creator’s portraits, on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let db: Kysely<Database>;
  beforeAll(async () => {
    if (skip) return;
    database = await freshDatabase(dialect);
    db = database.db;
    await insertUser(db, { id: 'creator', email: 'creator@example.com' });
    await insertUser(db, { id: 'other', email: 'other@example.com' });
    await db
      .insertInto('mates')
      .values(mateRow('creator', { id: 'going-0', name: 'Ada', avatar: PORTRAIT }))
      .execute();
  });
  afterAll(async () => {
    if (!skip) await database.drop();
  });

  // The creator's mates going with the account: the one with the portrait among 600.
  const going = ['going-0', ...Array.from({ length: 599 }, (_, index) => `going-${index + 1}`)];

  it.skipIf(skip)('go when only the creator’s own mates show them, however many', async () => {
    expect(await portraitStays(db, PORTRAIT, 'creator', going.slice(0, 3))).toBe(false);
    expect(await portraitStays(db, PORTRAIT, 'creator', going)).toBe(false);
  });

  it.skipIf(skip)('stay when another person’s mate shows them', async () => {
    await db
      .insertInto('mates')
      .values(mateRow('other', { id: 'kept', name: 'Bo', avatar: PORTRAIT }))
      .execute();
    expect(await portraitStays(db, PORTRAIT, 'creator', going.slice(0, 3))).toBe(true);
    expect(await portraitStays(db, PORTRAIT, 'creator', going)).toBe(true);
  });
});
