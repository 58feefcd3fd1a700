import { ExecutionError, Redlock, ResourceLockedError, type Lock } from '@sesamecare-oss/redlock';
import { refused } from '../domain/errors';
import { en } from '../i18n/en';
import type { RedisLink } from '../redis/connect-redis';
import type { Logger } from '../logging/logger';

/** One room held for the reply being written in it. */
export interface RoomClaim {
  /** Aborted when the room could not be kept (its lock expired before it could be extended). */
  lost: AbortSignal;
  /** Frees the room. Never throws: a lock that cannot be released expires on its own. */
  release: () => Promise<void>;
}

/** Which rooms have a reply being written: one at a time per room. */
export interface RoomLocks {
  /** Holds the room for a reply; `null` when another reply holds it already. */
  claim: (roomId: string) => Promise<RoomClaim | null>;
  /** Whether a reply holds the room (on this server or another). */
  isHeld: (roomId: string) => Promise<boolean>;
}

/** Why a reply stopped when its room's lock was lost: it ends saved as far as it got. */
export class RoomLockLost extends Error {
  override name = 'RoomLockLost';
  constructor() {
    super("The room's lock expired while its reply was written.");
  }
}

/** What a chat call answers while Redis, which holds the rooms' locks, does not answer. */
export const LOCKS_UNAVAILABLE = en.notices.chat.locksUnavailable;

/** Rooms held in this process: for one server on its own. */
export function memoryRoomLocks(): RoomLocks {
  const held = new Set<string>();
  return {
    claim: async (roomId) => {
      if (held.has(roomId)) return null;
      held.add(roomId);
      return {
        lost: new AbortController().signal,
        release: async () => void held.delete(roomId),
      };
    },
    isHeld: async (roomId) => held.has(roomId),
  };
}

/**
 * Rooms held in Redis with a lock that expires (Redlock, `@sesamecare-oss/redlock`), so that a
 * server that dies mid-reply holds its room for at most `ttlMs`. The lock is extended every
 * third of `ttlMs` while the reply is written. While Redis does not answer, nothing can be
 * known about a room: a claim or a check refuses with {@link LOCKS_UNAVAILABLE} (fails closed)
 * rather than let two servers write in one room.
 */
export function redisRoomLocks(
  redis: RedisLink,
  options: { ttlMs: number; log: Logger },
): RoomLocks {
  const { ttlMs, log } = options;
  // One try: a held room is refused at once, not waited for. The scripts run in the URL's database.
  const redlock = new Redlock([redis.client], { retryCount: 0, db: redis.db });
  const keyOf = (roomId: string) => `${redis.prefix}room-reply:${roomId}`;

  return {
    claim: async (roomId) => {
      let lock: Lock;
      try {
        lock = await redlock.acquire([keyOf(roomId)], ttlMs);
      } catch (error) {
        const failure = await readFailure(error);
        if (failure.held) return null;
        log.warn(`room lock: could not claim room ${roomId}: ${failure.reason}`);
        throw refused('notices.chat.locksUnavailable');
      }
      const lost = new AbortController();
      const extending = setInterval(
        () => {
          lock.extend(ttlMs).then(
            (extended) => (lock = extended),
            async (error: unknown) => {
              // Tried again at the next turn while the lock still lasts; then the room is gone.
              if (lock.expiration > Date.now() || lost.signal.aborted) return;
              clearInterval(extending);
              lost.abort(new RoomLockLost());
              log.warn(`room lock: lost room ${roomId}: ${(await readFailure(error)).reason}`);
            },
          );
        },
        Math.max(100, Math.floor(ttlMs / 3)),
      );
      return {
        lost: lost.signal,
        release: async () => {
          clearInterval(extending);
          if (lost.signal.aborted) return;
          try {
            await lock.release();
          } catch (error) {
            const { reason } = await readFailure(error);
            log.warn(`room lock: room ${roomId} not released, it expires on its own: ${reason}`);
          }
        },
      };
    },
    isHeld: async (roomId) => {
      try {
        return (await redis.client.exists(keyOf(roomId))) === 1;
      } catch (error) {
        log.warn(`room lock: could not check room ${roomId}: ${messageOf(error)}`);
        throw refused('notices.chat.locksUnavailable');
      }
    },
  };
}

/**
 * Why a lock call failed: `held` when every vote against it was another holder's lock, not
 * Redis failing to answer.
 */
async function readFailure(error: unknown): Promise<{ held: boolean; reason: string }> {
  if (!(error instanceof ExecutionError)) return { held: false, reason: messageOf(error) };
  const stats = await Promise.all(error.attempts);
  const reasons = stats.flatMap((attempt) => [...attempt.votesAgainst.values()]);
  return {
    held: reasons.length > 0 && reasons.every((reason) => reason instanceof ResourceLockedError),
    reason: [...new Set(reasons.map(messageOf))].join('; ') || error.message,
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}
