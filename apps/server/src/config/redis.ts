import { z } from 'zod';
import type { VariableValues } from './environment';

/** Redis, shared by the servers of one deployment. */
export const redisVariables = {
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w.:-]{1,64}$/, 'must be letters, digits, _, ., : or -')
    .default('mates:'),
  ROOM_LOCK_TTL: z.coerce.number().int().min(1).max(3600).default(30),
};

/**
 * Redis, when several servers share the work (`REDIS_URL`, `REDIS_PREFIX`, `ROOM_LOCK_TTL`):
 * rate limits, the per-room lock of a reply being written, and stop requests between servers.
 */
export interface RedisConfig {
  /** e.g. `redis://127.0.0.1:6379/0`; a password in it is never logged. */
  url: string;
  /** Put before every key and channel, so that several deployments may share one Redis. */
  prefix: string;
  /** How long a room stays locked by a server that died while writing its reply, in ms. */
  roomLockTtlMs: number;
}

/** The part of the configuration the Redis variables give. */
export interface RedisSettings {
  /** Redis, shared by every server (`REDIS_URL`…), or `null` for one process on its own. */
  redis: RedisConfig | null;
}

/** Reads Redis: only with `REDIS_URL`. */
export function readRedisSettings(values: VariableValues<typeof redisVariables>): RedisSettings {
  return {
    redis: values.REDIS_URL
      ? {
          url: values.REDIS_URL,
          prefix: values.REDIS_PREFIX,
          roomLockTtlMs: values.ROOM_LOCK_TTL * 1000,
        }
      : null,
  };
}
