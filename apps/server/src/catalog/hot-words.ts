import type { Kysely } from 'kysely';
import type { HotWord } from '@mates/api-client';
import type { Database } from '../db/schema';
import { now } from '../db/dialect';

/** How long a search counts towards the hot words; older ones are deleted. */
export const HOT_WORDS_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Logs the words of a search for the hot words, and prunes what has aged out of the window.
 * Callers log only signed-in searches that found something: anonymous scripts and empty
 * results would otherwise decide what everyone is shown.
 */
export async function logSearch(db: Kysely<Database>, words: string[]): Promise<void> {
  const since = new Date(Date.now() - HOT_WORDS_WINDOW_MS).toISOString();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('search_log').where('created_at', '<', since).execute();
    await trx
      .insertInto('search_log')
      .values({ word: words.join(' ').slice(0, 60), created_at: now() })
      .execute();
  });
}

/** The ten words searched most in the window. */
export async function hotWords(db: Kysely<Database>): Promise<HotWord[]> {
  const since = new Date(Date.now() - HOT_WORDS_WINDOW_MS).toISOString();
  const rows = await db
    .selectFrom('search_log')
    .select(['word', (eb) => eb.fn.countAll<number>().as('count')])
    .where('created_at', '>=', since)
    .groupBy('word')
    .orderBy('count', 'desc')
    .orderBy('word')
    .limit(10)
    .execute();
  return rows.map((row) => ({ word: row.word, count: Number(row.count) }));
}
