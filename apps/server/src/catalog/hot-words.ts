import type { Kysely } from 'kysely';
import type { HotWord } from '@mates/api-client';
import type { Database } from '../db/schema';
import { now } from '../db/dialect';

/** How long a search counts towards the hot words; older ones are deleted. */
export const HOT_WORDS_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/** The UTC day (`YYYY-MM-DD`) of `at`: the bucket hot words and trending count in. */
export const dayOf = (at: number): string => new Date(at).toISOString().slice(0, 10);

/** The first day of a window of `windowMs` ending now, in whole UTC days (today included). */
export const firstDayOf = (windowMs: number): string =>
  dayOf(Date.now() - windowMs + 24 * 60 * 60 * 1000);

/**
 * Logs the words of a search by `userId` for the hot words, and prunes what has aged out of the
 * window. Callers log only signed-in searches that found something: anonymous scripts and empty
 * results would otherwise decide what everyone is shown. Besides the raw log, the search counts
 * in its word's row for today, which is all that hot words read (their cost does not grow with
 * the number of searches), once per person a day: one account searching a phrase again and
 * again cannot put it before everyone.
 */
export async function logSearch(
  db: Kysely<Database>,
  userId: string,
  words: string[],
): Promise<void> {
  const since = new Date(Date.now() - HOT_WORDS_WINDOW_MS).toISOString();
  const firstDay = firstDayOf(HOT_WORDS_WINDOW_MS);
  const day = dayOf(Date.now());
  const word = words.join(' ').slice(0, 60);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('search_log').where('created_at', '<', since).execute();
    await trx.insertInto('search_log').values({ word, created_at: now() }).execute();
    await trx.deleteFrom('search_word_days').where('day', '<', firstDay).execute();
    await trx.deleteFrom('search_word_people').where('day', '<', firstDay).execute();
    const first = await trx
      .insertInto('search_word_people')
      .values({ word, day, user_id: userId })
      .onConflict((oc) => oc.columns(['word', 'day', 'user_id']).doNothing())
      .returning('user_id')
      .executeTakeFirst();
    if (!first) return;
    await trx
      .insertInto('search_word_days')
      .values({ word, day, searches: 1 })
      .onConflict((oc) =>
        oc
          .columns(['word', 'day'])
          .doUpdateSet((eb) => ({ searches: eb('search_word_days.searches', '+', 1) })),
      )
      .execute();
  });
}

/** The ten words searched most in the window (whole UTC days, today included). */
export async function hotWords(db: Kysely<Database>): Promise<HotWord[]> {
  const rows = await db
    .selectFrom('search_word_days')
    .select(['word', (eb) => eb.fn.sum<number>('searches').as('count')])
    .where('day', '>=', firstDayOf(HOT_WORDS_WINDOW_MS))
    .groupBy('word')
    .orderBy('count', 'desc')
    .orderBy('word')
    .limit(10)
    .execute();
  return rows.map((row) => ({ word: row.word, count: Number(row.count) }));
}
