import { Redis } from 'ioredis';

/** Where Redis tests connect (database 12, away from a developer's own data); `.ci/run` starts it. */
export const REDIS_TEST_URL = process.env.MATES_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/12';

/** Whether Redis answers; when it does not, its tests are skipped, saying why (never in CI). */
export async function redisAvailable(): Promise<boolean> {
  const client = new Redis(REDIS_TEST_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch (error) {
    if (process.env.CI)
      throw new Error(`Redis is required in CI: ${(error as Error).message}`, { cause: error });
    console.warn(
      `Redis tests skipped: cannot reach ${REDIS_TEST_URL} (${(error as Error).message})`,
    );
    return false;
  } finally {
    client.disconnect();
  }
}
