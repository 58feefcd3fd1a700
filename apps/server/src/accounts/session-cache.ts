import { LRUCache } from 'lru-cache';
import type { Kysely } from 'kysely';
import type { Database, UserTable } from '../db/schema';
import type { RedisLink } from '../redis/connect-redis';
import type { Logger } from '../logging/logger';

/** A session as the cache keeps it: its user, and when it ends and was last written as seen. */
export interface CachedSession {
  user: UserTable;
  expiresAt: number;
  seenAt: number;
}

/**
 * The longest a cached session is kept without being read again from the database: a bound on
 * what a lost message could leave behind, not the way changes arrive (they are forgotten at
 * once, see {@link forgetUserSessions}).
 */
const CACHED_FOR_MS = 60_000;

/** Most sessions kept per database (a few hundred bytes each). */
const MOST_SESSIONS = 20_000;

/** What a forget names: one session (a logout), or every session of a user (a password changed). */
export type ForgottenSessions = { tokenHash: string } | { userId: string };

/** How a forget travels between servers: `u:<user id>` or `t:<token hash>`. */
type ForgetMessage = `u:${string}` | `t:${string}`;

/** The other servers, when several share the database. */
interface Shared {
  publish: (message: ForgetMessage) => Promise<void>;
  /** Whether this server hears their forgets now. */
  hears: () => boolean;
}

/**
 * Every API call reads its session; most are the same few thousand sessions again and again.
 * The cache keeps them (lru-cache, by token hash) for one database, and each change that could
 * make one wrong (a logout, a password changed or reset, an account changed) forgets it here
 * and, through Redis pub/sub, on every server sharing the database. While several servers share
 * it and this one cannot hear the others (Redis away), the cache is not used, and it is emptied
 * when they can be heard again: nothing is believed that a forget may have missed.
 */
class SessionCache {
  readonly #sessions = new LRUCache<string, CachedSession>({
    max: MOST_SESSIONS,
    ttl: CACHED_FOR_MS,
  });
  #shared: Shared | null = null;
  #epoch = 0;
  readonly #listeners = new Set<(forgotten: ForgottenSessions) => void>();

  /**
   * Changes at each forget: a session read from the database while it changed may be what
   * was forgotten meanwhile, and is not kept.
   */
  get epoch(): number {
    return this.#epoch;
  }

  get(tokenHash: string): CachedSession | undefined {
    if (this.#shared && !this.#shared.hears()) return undefined;
    return this.#sessions.get(tokenHash);
  }

  set(tokenHash: string, session: CachedSession): void {
    if (this.#shared && !this.#shared.hears()) return;
    this.#sessions.set(tokenHash, session);
  }

  /** Forgets here what `message` names (another server's forget arrives this way too). */
  forgetHere(message: ForgetMessage): void {
    this.#epoch += 1;
    const key = message.slice(2);
    const forgotten: ForgottenSessions = message.startsWith('t:')
      ? { tokenHash: key }
      : { userId: key };
    for (const listener of this.#listeners) listener(forgotten);
    if (message.startsWith('t:')) {
      this.#sessions.delete(key);
      return;
    }
    // A user's forget is rare (a setting or password changed): walking the cache then costs
    // less than an index beside it, which would have to follow every entry the cache drops.
    const theirs = [...this.#sessions.entries()].filter(([, session]) => session.user.id === key);
    for (const [tokenHash] of theirs) this.#sessions.delete(tokenHash);
  }

  async forget(message: ForgetMessage): Promise<void> {
    this.forgetHere(message);
    await this.#shared?.publish(message);
  }

  /** Calls `listener` at each forget, this server's or another's; answers how to stop. */
  listen(listener: (forgotten: ForgottenSessions) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  clear(): void {
    this.#epoch += 1;
    this.#sessions.clear();
  }

  share(shared: Shared): void {
    this.#shared = shared;
  }

  get shared(): Shared | null {
    return this.#shared;
  }
}

const caches = new WeakMap<Kysely<Database>, SessionCache>();

/** The session cache of `db` (one per database in this process). */
export function sessionCache(db: Kysely<Database>): SessionCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new SessionCache()));
  return cache;
}

/**
 * Forgets every cached session of `userId`, on this server and every other one: call it once a
 * change to the user or to their sessions is committed (a logout of all devices, a password
 * changed or reset, their settings changed).
 */
export function forgetUserSessions(db: Kysely<Database>, userId: string): Promise<void> {
  return sessionCache(db).forget(`u:${userId}`);
}

/** Forgets one cached session (a logout), on this server and every other one. */
export function forgetSession(db: Kysely<Database>, tokenHash: string): Promise<void> {
  return sessionCache(db).forget(`t:${tokenHash}`);
}

/**
 * Makes the session cache of `db` hear the other servers' forgets, and they this one's, over
 * Redis pub/sub. A forget sent while Redis is away is lost (and logged): the cache is not used
 * until the subscription is back, and then it starts empty.
 */
export function shareSessionCache(db: Kysely<Database>, redis: RedisLink, log: Logger): void {
  const cache = sessionCache(db);
  if (cache.shared) return;
  const channel = `${redis.prefix}sessions:forget`;
  let hearing = false;
  cache.share({
    hears: () => hearing && redis.subscriber.status === 'ready',
    publish: async (message) => {
      try {
        await redis.client.publish(channel, message);
      } catch (error) {
        log.warn(
          `could not tell the other servers to forget ${message.slice(0, 2)}…: ${(error as Error).message}`,
        );
      }
    },
  });
  redis.subscriber.on('message', (from: string, message: string) => {
    if (from === channel && /^[ut]:/.test(message)) cache.forgetHere(message as ForgetMessage);
  });
  const subscribe = () => {
    redis.subscriber
      .subscribe(channel)
      .then(() => {
        // What was said while this server could not hear it is unknown: start again empty.
        cache.clear();
        hearing = true;
      })
      .catch((error: unknown) => {
        log.warn(`could not listen for forgotten sessions: ${(error as Error).message}`);
      });
  };
  redis.subscriber.on('close', () => (hearing = false));
  redis.subscriber.on('ready', subscribe);
  if (redis.subscriber.status === 'ready') subscribe();
}
