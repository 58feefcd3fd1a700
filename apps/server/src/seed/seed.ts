import { randomUUID } from 'node:crypto';
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { renderPortrait } from './portraits';
import type { Database } from '../db/schema';
import type { MediaStore } from '../media/media-store';
import { insertMates, type NewMate } from '../catalog/mate-repository';
import { now, toJson } from '../db/dialect';
import { TAG_GROUPS } from './tags';
import { PACKAGES } from './packages';
import { CREATORS } from './creators';
import { MATES_1 } from './mates-1';
import { MATES_2 } from './mates-2';
import type { SeedMate } from './seed-mate';

/** Every seed mate. */
export const SEED_MATES: SeedMate[] = [...MATES_1, ...MATES_2];

/** What a seeding did. */
export interface SeedResult {
  mates: number;
  creators: number;
  tags: number;
}

/** The PostgreSQL advisory lock key that servers seeding one database at once take in turn. */
const SEED_LOCK = 0x6d617465; // "mate"

/**
 * Fills an empty catalog: tag map, creators and the 40 seed mates, their portraits stored in
 * `media`. Does nothing otherwise. Safe for several servers starting at once on one PostgreSQL
 * database (and one bucket): each holds an advisory lock for its seeding transaction, so the
 * second finds the catalog filled and stores nothing (Kysely's migrator takes its own lock for
 * the migrations before this). The whole catalog is written in that one transaction: a server
 * killed while it seeds leaves none of it, and the next start seeds again. Portraits have fresh
 * random names, so a seeding that fails part-way leaves no row pointing at another's file.
 */
export function seedIfEmpty(
  db: Kysely<Database>,
  options: { media: MediaStore },
): Promise<SeedResult | null> {
  return db.transaction().execute(async (trx) => {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`select pg_advisory_xact_lock(${SEED_LOCK})`.execute(trx);
    }
    const existing = await trx.selectFrom('tag_groups').select('key').limit(1).executeTakeFirst();
    return existing ? null : seed(trx, options);
  });
}

async function seed(trx: Kysely<Database>, options: { media: MediaStore }): Promise<SeedResult> {
  const at = now();
  const creatorIds = new Map<string, string>();
  const creatorRows = await Promise.all(
    CREATORS.map(async (creator) => {
      const id = randomUUID();
      creatorIds.set(creator.key, id);
      return {
        id,
        email: `${creator.key}@creators.mates.local`,
        password_hash: null,
        nickname: creator.nickname,
        avatar: await renderPortrait(options.media, id, creator.style, creator.nickname),
        bio: creator.bio,
        language: 'en',
        nfsw: false,
        tags: toJson([]),
        gender: null,
        email_verified_at: at,
        google_sub: null,
        discord_id: null,
        created_at: at,
        updated_at: at,
      };
    }),
  );
  const mates: NewMate[] = await Promise.all(
    SEED_MATES.map(async ({ creator, ...mate }, index) => {
      const id = randomUUID();
      return {
        ...mate,
        id,
        creator_id: creatorIds.get(creator)!,
        system_prompt: '',
        nsfw: mate.nsfw ?? false,
        visibility: 'public' as const,
        // Lorelei for every seeded mate: its faces follow the mate's gender (hair, beard).
        avatar: await renderPortrait(options.media, id, 'lorelei', mate.name, mate.gender),
        // Later seed mates are a little newer, so "newest" has a stable order.
        created_at: new Date(Date.parse(at) - (SEED_MATES.length - index) * 60_000).toISOString(),
      };
    }),
  );
  await trx
    .insertInto('tag_groups')
    .values(TAG_GROUPS.map((group, sort) => ({ key: group.key, label: group.label, sort })))
    .execute();
  await trx
    .insertInto('tags')
    .values(
      TAG_GROUPS.flatMap((group) =>
        group.tags.map(([key, label], sort) => ({ key, label, group_key: group.key, sort })),
      ),
    )
    .execute();
  await trx.insertInto('packages').values(PACKAGES).execute();
  await trx.insertInto('users').values(creatorRows).execute();
  await insertMates(trx, mates);
  return {
    mates: mates.length,
    creators: creatorRows.length,
    tags: TAG_GROUPS.reduce((sum, group) => sum + group.tags.length, 0),
  };
}
