import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { SEED_MATES } from '../src/seed/seed';
import { newMateRow, type NewMate } from '../src/catalog/mate-repository';
import { recordChatForTrending } from '../src/catalog/trending-repository';
import type { freshDatabase } from '../test/harness';

type Db = Awaited<ReturnType<typeof freshDatabase>>;

/** Adds generated mates (variations of the seed mates, with tags) until there are `total`. */
export async function fill(db: Db['db'], total: number): Promise<void> {
  const creators = await db.selectFrom('users').select('id').execute();
  const at = new Date().toISOString();
  for (
    let start = (await db.selectFrom('mates').select('id').execute()).length;
    start < total;
    start += 500
  ) {
    const batch: NewMate[] = [];
    for (let index = start; index < Math.min(start + 500, total); index += 1) {
      const { creator: _creator, nsfw, ...seed } = SEED_MATES[index % SEED_MATES.length]!;
      batch.push({
        ...seed,
        id: randomUUID(),
        creator_id: creators[index % creators.length]!.id,
        name: `${seed.name} ${index}`,
        system_prompt: '',
        avatar: '/media/avatars/bench.svg',
        nsfw: nsfw ?? false,
        visibility: 'public',
        created_at: at,
      });
    }
    // Spread popularity over the mates, so that ordering by chats has work to do.
    const rows = batch.map((mate, offset) => ({
      ...newMateRow(mate),
      chats_count: ((start + offset) * 7919) % 5000,
    }));
    await db.insertInto('mates').values(rows).execute();
    await db
      .insertInto('mate_tags')
      .values(batch.flatMap((mate) => mate.tags.map((tag_key) => ({ mate_id: mate.id, tag_key }))))
      .execute();
  }
}

/** Public mate ids, for calls that name one mate. */
export async function someMateIds(db: Db['db'], count: number): Promise<string[]> {
  const rows = await db
    .selectFrom('mates')
    .select('id')
    .where('visibility', '=', 'public')
    .where('nsfw', '=', false)
    .limit(count)
    .execute();
  return rows.map((row) => row.id);
}

/** `users` people chatting with the first mates of `mateIds`, through the send route's own recording. */
export async function chatWith(db: Db['db'], mateIds: string[], users: number): Promise<void> {
  // A chat is counted only for a person whose account is there.
  const at = new Date().toISOString();
  const people = Array.from({ length: users }, (_, user) => ({
    id: `bench-user-${user}`,
    email: `bench-user-${user}@bench.test`,
    password_hash: null,
    nickname: `bench-user-${user}`,
    bio: '',
    language: 'en',
    nfsw: false,
    created_at: at,
    updated_at: at,
  }));
  for (let from = 0; from < people.length; from += 500)
    await db
      .insertInto('users')
      .values(people.slice(from, from + 500))
      .onConflict((oc) => oc.doNothing())
      .execute();
  await db.transaction().execute(async (trx) => {
    for (let user = 0; user < users; user += 1)
      for (const mateId of mateIds.slice(0, 1 + (user % 50)))
        await recordChatForTrending(trx, { mateId, userId: `bench-user-${user}` });
  });
}

/**
 * `count` logged searches over the last week, in one bulk insert (1,000 different words), and
 * the per-day counts that logging them one by one would have kept, where the schema has them.
 */
export async function fillSearchLog({ db, dialect }: Db, count: number): Promise<void> {
  if (dialect === 'sqlite')
    await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
      INSERT INTO search_log (word, created_at)
      SELECT 'word' || (i % 1000), strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (i % 600000) || ' seconds') FROM n`.execute(
      db,
    );
  else
    await sql`INSERT INTO search_log (word, created_at)
      SELECT 'word' || (i % 1000), now() - (i % 600000) * interval '1 second'
      FROM generate_series(1, ${count}) AS i`.execute(db);
  const hasDays = await sql`SELECT 1 FROM search_word_days LIMIT 1`
    .execute(db)
    .then(() => true)
    .catch(() => false);
  if (!hasDays) return;
  const day =
    dialect === 'sqlite'
      ? sql`substr(created_at, 1, 10)`
      : sql`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`;
  await sql`DELETE FROM search_word_days`.execute(db);
  await sql`INSERT INTO search_word_days (word, day, searches)
    SELECT word, ${day}, count(*) FROM search_log GROUP BY 1, 2`.execute(db);
}
