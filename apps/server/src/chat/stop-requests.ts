import type { RedisLink } from '../redis/connect-redis';
import type { Logger } from '../logging/logger';

/** Stop requests for replies being written, heard by every server. */
export interface StopRequests {
  /** Asks every server (this one too) to stop the reply written in the room, if any. */
  publish: (roomId: string) => Promise<void>;
  /** Calls `onStop` with each room a stop is asked for, from any server. */
  listen: (onStop: (roomId: string) => void) => void;
}

/**
 * Stop requests over Redis pub/sub (ioredis): a room deleted through one server stops the
 * reply another server is writing in it. A request sent while Redis is away is lost (and
 * logged); the reply then ends when its saves find the room gone.
 */
export function redisStopRequests(redis: RedisLink, log: Logger): StopRequests {
  const channel = `${redis.prefix}chat:stop`;
  return {
    publish: async (roomId) => {
      try {
        await redis.client.publish(channel, roomId);
      } catch (error) {
        log.warn(
          `could not ask the other servers to stop room ${roomId}: ${(error as Error).message}`,
        );
      }
    },
    listen: (onStop) => {
      redis.subscriber.on('message', (from: string, roomId: string) => {
        if (from === channel) onStop(roomId);
      });
      // Subscribed once the connection is ready, and again at each return: a SUBSCRIBE sent
      // while ioredis 5 is still in its handshake can break it (ioredis issue #2037), and
      // subscribing to a channel twice is harmless.
      const subscribe = () => {
        redis.subscriber.subscribe(channel).catch((error: unknown) => {
          log.warn(`could not listen for stop requests: ${(error as Error).message}`);
        });
      };
      redis.subscriber.on('ready', subscribe);
      if (redis.subscriber.status === 'ready') subscribe();
    },
  };
}
