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
 * Logs the words of a search for the hot words, and prunes what has aged out of the window.
 * Callers log only signed-in searches that found something: anonymous scripts and empty
 * results would otherwise decide what everyone is shown. Besides the raw log, the search
 * counts in its word's row for today, which is all that hot words read: their cost does not
 * grow with the number of searches.
 */
export async function logSearch(db: Kysely<Database>, words: string[]): Promise<void> {
  const since = new Date(Date.now() - HOT_WORDS_WINDOW_MS).toISOString();
  const word = words.join(' ').slice(0, 60);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('search_log').where('created_at', '<', since).execute();
    await trx.insertInto('search_log').values({ word, created_at: now() }).execute();
    await trx
      .deleteFrom('search_word_days')
      .where('day', '<', firstDayOf(HOT_WORDS_WINDOW_MS))
      .execute();
    await trx
      .insertInto('search_word_days')
      .values({ word, day: dayOf(Date.now()), searches: 1 })
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
