import type { Kysely } from 'kysely';
import type { DialectName } from '../db/dialect';
import type { Database } from '../db/schema';
import type { Logger } from '../logging/logger';
import { INDEX_BATCH, indexPendingMessages } from './message-search-repository';

/** How often a server on SQLite indexes the messages written meanwhile (see migration 0040). */
export const INDEX_EVERY_MS = 1000;

/**
 * Indexes, every `everyMs`, the messages whose writes were noted for SQLite's search index, a
 * batch at a time with the event loop's other work between batches; a search indexes what is
 * left before it reads (see `findMessages`). A step that fails (a full disk) is logged and
 * tried again at the next: the notes stay until they are indexed. Nothing on PostgreSQL.
 */
export function messageIndexer(
  deps: { db: Kysely<Database>; dialect: DialectName; log: Logger },
  everyMs = INDEX_EVERY_MS,
) {
  const { db, dialect, log } = deps;
  const step = async () => {
    try {
      while ((await indexPendingMessages(db, dialect)) === INDEX_BATCH)
        await new Promise((resolve) => setImmediate(resolve));
    } catch (error) {
      log.warn(
        { err: error },
        `could not index new messages for search: ${(error as Error).message}`,
      );
    }
  };
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  return {
    start: () => {
      if (dialect !== 'sqlite') return;
      timer = setInterval(() => {
        running ??= step().finally(() => (running = null));
      }, everyMs);
      timer.unref();
    },
    /** Stops, after indexing what is noted (a later start would find it noted all the same). */
    stop: async () => {
      clearInterval(timer);
      await running;
      if (dialect === 'sqlite') await step();
    },
  };
}
