import { randomUUID } from 'node:crypto';
import { SEED_MATES } from '../src/seed/seed';
import { newMateRow, type NewMate } from '../src/catalog/new-mate';
import type { freshDatabase } from '../test/harness';

/** How many mates the benchmark runs at. */
export const MATES = 10_000;

/** Adds generated mates (variations of the seed mates, with tags) until there are {@link MATES}. */
export async function fill(db: Awaited<ReturnType<typeof freshDatabase>>['db']): Promise<string[]> {
  const creators = await db.selectFrom('users').select('id').execute();
  const ids: string[] = [];
  const at = new Date().toISOString();
  for (
    let start = (await db.selectFrom('mates').select('id').execute()).length;
    start < MATES;
    start += 500
  ) {
    const batch: NewMate[] = [];
    for (let index = start; index < Math.min(start + 500, MATES); index += 1) {
      const { creator: _creator, nsfw, ...seed } = SEED_MATES[index % SEED_MATES.length]!;
      const id = randomUUID();
      ids.push(id);
      batch.push({
        ...seed,
        id,
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
  return ids;
}
