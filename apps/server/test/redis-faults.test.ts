import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { connectRedis, type RedisLink } from '../src/redis/connect-redis';
import { consume, createRateLimits } from '../src/accounts/rate-limits';
import { LOCKS_UNAVAILABLE, redisRoomLocks, RoomLockLost } from '../src/chat/room-locks';
import { killHard, waitFor } from './jobs-helpers';
import { captureLog } from './log-capture';
import { createTestApp, freshDatabase, insertUser } from './harness';
import { createSession, resolveSession } from '../src/accounts/sessions';
import { sessionCache, shareSessionCache } from '../src/accounts/session-cache';
import { hashToken } from '../src/accounts/secrets';

// Issue #18: Redis going away never stops a server. Rate limits fall back to each server's
// memory; room locks refuse clearly (fail closed); a reply whose lock cannot be extended is
// stopped once the lock has expired. Each test runs a Redis of its own, and kills it.
const haveRedisServer = (() => {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    if (process.env.CI)
      throw new Error('redis-server is required in CI (scripts/test-services.sh)');
    console.warn('Redis fault tests skipped: no redis-server on this machine');
    return false;
  }
})();
const PORT = 27210;

describe.skipIf(!haveRedisServer)('a server whose Redis goes away', () => {
  let redis: ChildProcess | null = null;
  let link: RedisLink | null = null;
  const logs: string[] = [];
  const { logger } = captureLog('debug', logs);
  afterEach(async () => {
    await link?.close();
    if (redis) await killHard(redis);
    link = null;
    redis = null;
  });

  async function startRedis(): Promise<RedisLink> {
    const child = spawn(
      'redis-server',
      ['--port', String(PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    redis = child;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      child.stdout!.on('data', (data: Buffer) => {
        output += data.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
    });
    link = await connectRedis(
      { url: `redis://127.0.0.1:${PORT}/3`, prefix: 'faults:', roomLockTtlMs: 1000 },
      logger,
    );
    return link;
  }

  it('counts rate limits in its own memory and refuses new replies with a clear notice', async () => {
    const shared = await startRedis();
    const limits = createRateLimits(1, shared);
    const locks = redisRoomLocks(shared, { ttlMs: 1000, log: logger });
    await consume(limits.login, 'ip:ada@example.com');
    expect(await shared.client.keys('faults:limit:login:*')).toHaveLength(1);

    await killHard(redis!);
    await waitFor(
      () => logs.some((line) => line.startsWith('redis (commands): connection lost')),
      Boolean,
    );
    // The login limit (ten a minute) still holds, counted in this process.
    for (let attempt = 0; attempt < 10; attempt += 1)
      await consume(limits.login, 'ip:bo@example.com');
    await expect(consume(limits.login, 'ip:bo@example.com')).rejects.toMatchObject({
      refusal: 'notice',
      message: expect.stringMatching(/^Too many attempts/),
    });
    // A refusal shown as a notice (5007 once http/ answers it).
    await expect(locks.claim('room-1')).rejects.toMatchObject({
      refusal: 'notice',
      message: LOCKS_UNAVAILABLE,
    });
    await expect(locks.isHeld('room-1')).rejects.toMatchObject({
      refusal: 'notice',
      message: LOCKS_UNAVAILABLE,
    });
  });

  it('stops a reply whose lock could not be extended once the lock has expired', async () => {
    const shared = await startRedis();
    const locks = redisRoomLocks(shared, { ttlMs: 1000, log: logger });
    const claim = (await locks.claim('room-2'))!;
    expect(claim).not.toBeNull();
    // Held: a second claim, from this server or another, is refused.
    expect(await locks.claim('room-2')).toBeNull();
    expect(await locks.isHeld('room-2')).toBe(true);

    await killHard(redis!);
    await waitFor(() => claim.lost.aborted, Boolean);
    expect(claim.lost.reason).toBeInstanceOf(RoomLockLost);
    await claim.release();
    expect(logs.some((line) => line.startsWith('room lock: lost room room-2'))).toBe(true);
  });

  it('keeps a lock while its reply is written, longer than its time to live', async () => {
    const shared = await startRedis();
    const locks = redisRoomLocks(shared, { ttlMs: 1000, log: logger });
    const claim = (await locks.claim('room-3'))!;
    // Three lifetimes later, the lock has been extended and still holds the room.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(claim.lost.aborted).toBe(false);
    expect(await locks.claim('room-3')).toBeNull();
    await claim.release();
    expect(await locks.isHeld('room-3')).toBe(false);
    const again = await locks.claim('room-3');
    expect(again).not.toBeNull();
    await again!.release();
  });

  it('is reported by /api/ready, which stays ready: chat refuses, everything else serves', async () => {
    const shared = await startRedis();
    const test = await createTestApp('sqlite', { redis: shared });
    try {
      const ready = async () => {
        const answer = await test.app.request('/api/ready');
        return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
      };
      expect(await ready()).toMatchObject({ status: 200, body: { sharedState: 'up' } });

      const lost = () =>
        logs.filter((line) => line.startsWith('redis (commands): connection lost')).length;
      const before = lost();
      await killHard(redis!);
      await waitFor(() => lost() > before, Boolean);
      expect(await ready()).toMatchObject({
        status: 200,
        body: { status: 'ready', sharedState: 'down' },
      });
    } finally {
      await test.close();
    }
  });

  it('reads sessions from the database while it cannot hear the other servers', async () => {
    const shared = await startRedis();
    const database = await freshDatabase('sqlite');
    try {
      const { db } = database;
      await insertUser(db, { id: 'user-ada', email: 'ada@example.com' });
      const token = await createSession(db, 'user-ada');
      shareSessionCache(db, shared, logger);
      // Heard: a session read once is kept, so its row going away behind the server's back
      // is not seen (a logout would have said so on the channel).
      const kept = async () => {
        await resolveSession(db, token);
        return sessionCache(db).get(hashToken(token));
      };
      await waitFor(kept, Boolean);
      await db.deleteFrom('sessions').execute();
      expect((await resolveSession(db, token))?.id).toBe('user-ada');

      // Redis away: what another server forgets could not be heard, so nothing kept is used.
      await killHard(redis!);
      await waitFor(
        () => shared.subscriber.status,
        (status) => status !== 'ready',
      );
      expect(await resolveSession(db, token)).toBeNull();
    } finally {
      await database.drop();
    }
  });
});
