import { Redis } from 'ioredis';
import type { RedisConfig } from '../config';
import type { Logger } from '../logging/logger';

/** The connections to Redis one server holds (ioredis), and what it knows of their state. */
export interface RedisLink {
  /** Commands: rate limits, room locks, publishing. Fails at once while Redis is away. */
  client: Redis;
  /** Subscriptions only (a subscribed connection takes no other commands). */
  subscriber: Redis;
  prefix: string;
  /** The Redis database index the URL names (locks run their scripts in it). */
  db: number;
  /** `redis://host:port/db`, without a password. */
  describe: () => string;
  close: () => Promise<void>;
}

/** How long a start waits for Redis to answer before going on without it (it keeps trying). */
const READY_WAIT_MS = 5000;

/**
 * Connects to Redis. The process never fails on Redis: while it is away commands fail at once
 * (no offline queue, as rate-limiter-flexible advises) and ioredis keeps reconnecting; each
 * loss and return is logged once. Resolves when Redis answers, or after a few seconds without.
 */
export async function connectRedis(config: RedisConfig, log: Logger): Promise<RedisLink> {
  const where = describeUrl(config.url);
  const watch = (connection: Redis, role: string) => {
    // One line when the connection is lost, one when it is back: not one per retry.
    let lost = false;
    const lose = (why: string) => {
      if (lost) return;
      lost = true;
      log.warn(`redis (${role}): ${why}; reconnecting to ${where}`);
    };
    connection.on('ready', () => {
      if (lost) log.info(`redis (${role}): connected again to ${where}`);
      lost = false;
    });
    connection.on('close', () => lose('connection lost'));
    connection.on('error', (error: Error) => lose(error.message || error.name));
    return connection;
  };
  const client = watch(
    new Redis(config.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }),
    'commands',
  );
  // Subscriptions wait for the connection and come back after a reconnection on their own.
  const subscriber = watch(new Redis(config.url, { maxRetriesPerRequest: null }), 'pub/sub');
  const ready = await new Promise<boolean>((resolve) => {
    if (client.status === 'ready') return resolve(true);
    const timer = setTimeout(() => resolve(false), READY_WAIT_MS);
    client.once('ready', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  if (!ready)
    log.warn(
      `redis: ${where} does not answer yet; until it does, rate limits count per process and no reply can start`,
    );
  return {
    client,
    subscriber,
    prefix: config.prefix,
    db: client.options.db ?? 0,
    describe: () => where,
    close: async () => {
      await Promise.all([client, subscriber].map((connection) => quit(connection)));
    },
  };
}

/** Ends a connection politely when it is up, at once when it is not. */
async function quit(connection: Redis): Promise<void> {
  if (connection.status !== 'ready') {
    connection.disconnect();
    return;
  }
  try {
    await connection.quit();
  } catch {
    connection.disconnect();
  }
}

/** The URL without its user name and password, for logs. */
function describeUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}
