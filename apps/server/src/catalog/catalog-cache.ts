import { LRUCache } from 'lru-cache';
import type { Kysely } from 'kysely';
import type { Database, UserTable } from '../db/schema';
import { toBool } from '../db/dialect';
import { registerHotStatement } from '../db/named-statements';

/** The kinds of catalog answers, each with its version in `catalog_versions`. */
export type CatalogKind = 'mates' | 'hot_words' | 'trending';

/** Answers shared by many callers, kept while the catalog they were computed from is unchanged. */
export interface CatalogCache {
  /**
   * The answer under `key`, computed by `compute` unless one was computed since the last
   * change to the `kinds` it depends on; concurrent misses of one key compute it once.
   */
  get<T extends object>(kinds: CatalogKind[], key: string, compute: () => Promise<T>): Promise<T>;
}

/**
 * Who sees the same listings: mates for adults are listed only to those who opted in; every
 * other listing filter is the same for everyone (own, private and hidden mates are never listed).
 */
export const visibilityClass = (viewer: UserTable | null): string =>
  viewer && toBool(viewer.nfsw) ? 'adult' : 'all';

/**
 * A per-process cache (lru-cache: bounded, and it folds concurrent fetches of one key into
 * one) keyed by the versions of the catalog stored in the database. Triggers raise a version
 * in the transaction of every write that changes its answers, so a write is seen by the next
 * request in every process sharing the database (several behind Redis included): the key it
 * builds names the new version. Each request waits for one read of three small rows for that
 * (shared with the requests of the same turn of the event loop, see sharedReads).
 * Messages sent do not raise a version (see the migration 2026-11-25-0021-catalog-counts); `ttlMs` bounds how
 * old a cached message counter gets: past it, the answer is computed again while requests go on
 * getting the one before (it differs in counters only), so no request waits for that.
 */
export function createCatalogCache(
  db: Kysely<Database>,
  options: { max?: number; ttlMs?: number } = {},
): CatalogCache {
  const versionsQuery = db.selectFrom('catalog_versions').select(['name', 'version']).compile();
  // Read for every few catalog requests: named on PostgreSQL, parsed and planned once.
  registerHotStatement(versionsQuery.sql);
  const entries = new LRUCache<string, object, () => Promise<object>>({
    max: options.max ?? 2000,
    ttl: options.ttlMs ?? 5000,
    // An answer past its TTL comes from unchanged versions: only its counters may be old.
    allowStale: true,
    fetchMethod: (_key, _stale, { context }) => context(),
  });
  const versions = sharedReads(async () => {
    const { rows } = await db.executeQuery(versionsQuery);
    return new Map(rows.map((row) => [row.name, row.version]));
  });
  return {
    async get<T extends object>(kinds: CatalogKind[], key: string, compute: () => Promise<T>) {
      // Read before computing: an answer can only be newer than the versions in its key.
      const known = await versions();
      const versioned = `${kinds.map((kind) => `${kind}${known.get(kind)}`).join('.')}|${key}`;
      return (await entries.fetch(versioned, { context: compute })) as T;
    },
  };
}

const ignore = () => {};

/** Resolves once the event loop has gone round: after the callbacks of this turn's I/O. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * `read`, shared by the callers of one turn of the event loop: a caller gets the result of a
 * read that started after it called (so it sees every write committed before its request).
 * The read starts once the requests that arrived together have all asked (after their I/O
 * callbacks, `setImmediate`) and the read before it has ended, so under load there is one
 * versions read at a time instead of one per request. On SQLite a read is over before the
 * next request is even parsed, so without the wait each request made its own; on PostgreSQL
 * requests arriving during a read's round trip share the next one.
 */
function sharedReads<T>(read: () => Promise<T>): () => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  let next: Promise<T> | undefined;
  return () =>
    (next ??= last
      .then(ignore, ignore)
      .then(nextTurn)
      .then(() => {
        next = undefined;
        const started = read();
        last = started;
        return started;
      }));
}
