import { randomUUID } from 'node:crypto';
import { SEED_MATES } from '../src/seed/seed';
import { toJson } from '../src/db/dialect';
import type { MateTable } from '../src/db/schema';
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
    const batch: MateTable[] = [];
    for (let index = start; index < Math.min(start + 500, MATES); index += 1) {
      const seed = SEED_MATES[index % SEED_MATES.length]!;
      const id = randomUUID();
      ids.push(id);
      batch.push({
        id,
        creator_id: creators[index % creators.length]!.id,
        name: `${seed.name} ${index}`,
        tagline: seed.tagline,
        description: seed.description,
        personality: seed.personality,
        scenario: seed.scenario,
        first_mes: seed.first_mes,
        mes_example: seed.mes_example,
        creator_notes: seed.creator_notes,
        system_prompt: '',
        alternate_greetings: toJson(seed.alternate_greetings),
        tags: toJson(seed.tags),
        extensions: toJson({}),
        card_extra: toJson({}),
        avatar: '/media/avatars/bench.svg',
        gender: seed.gender,
        nsfw: seed.nsfw ?? false,
        visibility: 'public',
        chats_count: (index * 7919) % 5000,
        messages_count: 0,
        favorites_count: 0,
        reviews_count: 0,
        rating_sum: 0,
        created_at: at,
        updated_at: at,
      });
    }
    await db.insertInto('mates').values(batch).execute();
    await db
      .insertInto('mate_tags')
      .values(
        batch.flatMap((mate) =>
          (JSON.parse(mate.tags as string) as string[]).map((tag_key) => ({
            mate_id: mate.id,
            tag_key,
          })),
        ),
      )
      .execute();
  }
  return ids;
}
