import type { Kysely } from 'kysely';
import type { DialectName } from '../db/dialect';
import type { Database } from '../db/schema';
import type { Logger } from '../logging/logger';
import {
  FORGET_BATCH,
  INDEX_BATCH,
  PARTIAL_WAIT_S,
  forgetRemovedMessages,
  indexPendingMessages,
} from './message-search-repository';

/**
 * How often a server on SQLite indexes the messages written meanwhile, and forgets those removed
 * (see migrations 0040 and 0043).
 */
export const INDEX_EVERY_MS = 1000;

/**
 * Every `everyMs`, takes the messages removed since out of SQLite's search index (migration
 * 0043), then indexes the messages whose writes were noted for it (a reply being written once it
 * ends: `PARTIAL_WAIT_S`), a batch at a time with the event loop's other work between batches; a
 * search indexes what is written before it reads, and leaves out what waits to be forgotten (see
 * `findMessages`). A step that fails (a full disk) is logged and tried again at the next: the
 * notes stay until they are done. Nothing on PostgreSQL.
 */
export function messageIndexer(
  deps: { db: Kysely<Database>; dialect: DialectName; log: Logger },
  everyMs = INDEX_EVERY_MS,
) {
  const { db, dialect, log } = deps;
  /** Runs `batch` until it takes less than `full`, other work between; a failure is logged. */
  const drain = async (batch: () => Promise<number>, full: number, failure: string) => {
    try {
      while ((await batch()) === full) await new Promise((resolve) => setImmediate(resolve));
    } catch (error) {
      log.warn({ err: error }, `${failure}: ${(error as Error).message}`);
    }
  };
  // Apart: words that could not be taken out of the index do not stop new ones coming in.
  const step = async (partialAfterS: number) => {
    await drain(
      () => forgetRemovedMessages(db, dialect),
      FORGET_BATCH,
      'could not take removed messages out of the search index',
    );
    await drain(
      () => indexPendingMessages(db, dialect, INDEX_BATCH, partialAfterS),
      INDEX_BATCH,
      'could not index new messages for search',
    );
  };
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  return {
    start: () => {
      if (dialect !== 'sqlite') return;
      timer = setInterval(() => {
        running ??= step(PARTIAL_WAIT_S).finally(() => (running = null));
      }, everyMs);
      timer.unref();
    },
    /**
     * Stops, after indexing what is noted, replies cut off by the stop among it (a later start
     * would find it noted all the same).
     */
    stop: async () => {
      clearInterval(timer);
      await running;
      if (dialect === 'sqlite') await step(0);
    },
  };
}
