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

/** The longest word (phrase) the hot words keep. */
const WORD_LENGTH = 60;

/**
 * Logs the words of a search by `userId` for the hot words, and prunes what has aged out of the
 * window. Callers log only signed-in searches that found something: anonymous scripts and empty
 * results would otherwise decide what everyone is shown. Besides the raw log, the search counts
 * in its word's row for today, which is all that hot words read (their cost does not grow with
 * the number of searches), once per person a day: one account searching a phrase again and
 * again cannot put it before everyone. `spelling` is the phrase as typed (lowercase, accents
 * kept), which folds to `words`; it counts the same way, so hot words show the usual spelling.
 */
export async function logSearch(
  db: Kysely<Database>,
  userId: string,
  words: string[],
  spelling: string,
): Promise<void> {
  const since = new Date(Date.now() - HOT_WORDS_WINDOW_MS).toISOString();
  const firstDay = firstDayOf(HOT_WORDS_WINDOW_MS);
  const day = dayOf(Date.now());
  const word = words.join(' ').slice(0, WORD_LENGTH);
  const typed = spelling.slice(0, WORD_LENGTH);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('search_log').where('created_at', '<', since).execute();
    await trx.insertInto('search_log').values({ word, created_at: now() }).execute();
    await trx.deleteFrom('search_word_days').where('day', '<', firstDay).execute();
    await trx.deleteFrom('search_word_people').where('day', '<', firstDay).execute();
    await trx.deleteFrom('search_word_spellings').where('day', '<', firstDay).execute();
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
    await trx
      .insertInto('search_word_spellings')
      .values({ word, day, spelling: typed, searches: 1 })
      .onConflict((oc) =>
        oc
          .columns(['word', 'day', 'spelling'])
          .doUpdateSet((eb) => ({ searches: eb('search_word_spellings.searches', '+', 1) })),
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
  const spellings = await usualSpellings(
    db,
    rows.map((row) => row.word),
  );
  return rows.map((row) => ({
    word: spellings.get(row.word) ?? row.word,
    count: Number(row.count),
  }));
}

/**
 * How each of `words` was typed most often in the window. On a tie, a spelling other than the
 * folded word wins ("séance" over "seance"): the folded one is often only a keyboard's shortcut.
 */
async function usualSpellings(db: Kysely<Database>, words: string[]): Promise<Map<string, string>> {
  if (!words.length) return new Map();
  const rows = await db
    .selectFrom('search_word_spellings')
    .select(['word', 'spelling', (eb) => eb.fn.sum<number>('searches').as('count')])
    .where('day', '>=', firstDayOf(HOT_WORDS_WINDOW_MS))
    .where('word', 'in', words)
    .groupBy(['word', 'spelling'])
    .execute();
  const folded = (row: (typeof rows)[number]) => (row.spelling === row.word ? 1 : 0);
  rows.sort(
    (a, b) =>
      Number(b.count) - Number(a.count) ||
      folded(a) - folded(b) ||
      a.spelling.localeCompare(b.spelling),
  );
  const best = new Map<string, string>();
  for (const row of rows) if (!best.has(row.word)) best.set(row.word, row.spelling);
  return best;
}
