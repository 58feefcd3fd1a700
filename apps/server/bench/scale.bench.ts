// Issue #18's figures: on PostgreSQL + Redis, the catalog's and chat's throughput with one and
// with two server processes (`src/main.ts`, each its own process), and what the Redis calls a
// request adds cost. Prints tables. Needs PostgreSQL and Redis at their test addresses; says so
// and prints nothing else without them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { createApiClient } from '@mates/api-client';
import { emptyDatabase, postgresAvailable } from '../test/harness';
import { startOpenAiDouble } from '../test/openai-double';
import { startMainProcess } from '../test/main-process';
import { REDIS_TEST_URL, redisAvailable } from '../test/redis-helpers';
import { memoryRoomLocks, redisRoomLocks } from '../src/chat/room-locks';
import { connectRedis } from '../src/redis/connect-redis';
import { silentLogger } from '../src/logging/logger';
import { benchUser } from './bench-user';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 16;
/** People chatting at once, each in a room of their own. */
const CHATTERS = 8;
const PORTS = [27601, 27602];

/** Catalog reads across `bases` at once (the connections shared out): total requests a second. */
async function catalog(bases: string[]) {
  const results = await Promise.all(
    bases.map((base) =>
      autocannon({
        url: base,
        connections: Math.max(1, Math.round(CONNECTIONS / bases.length)),
        duration: SECONDS,
        requests: [{ method: 'GET', path: '/api/mate/recommend?page=1&pageSize=20' }],
      }),
    ),
  );
  return {
    'req/s': Math.round(results.reduce((sum, r) => sum + r.requests.average, 0)),
    'p50 ms': Math.max(...results.map((r) => r.latency.p50)),
    'p99 ms': Math.max(...results.map((r) => r.latency.p99)),
    errors: results.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
  };
}

/** `CHATTERS` people each sending one message after another, spread over `bases`. */
async function chats(bases: string[], tokens: string[], roomIds: string[]) {
  const until = Date.now() + SECONDS * 1000;
  const latencies: number[] = [];
  let failures = 0;
  await Promise.all(
    tokens.map(async (token, index) => {
      const client = createApiClient({
        baseUrl: `${bases[index % bases.length]}/api`,
        getToken: () => token,
        getLanguage: () => 'en',
      });
      while (Date.now() < until) {
        const started = performance.now();
        let ended = false;
        await client.girl
          .chatSend(
            { roomId: roomIds[index]!, content: 'Tell me about the lighthouse.' },
            { onData: (event) => void (event.type === 'reply-end' && (ended = true)) },
          )
          .catch(() => {});
        if (ended) latencies.push(performance.now() - started);
        else failures += 1;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.floor(q * (latencies.length - 1))] ?? 0);
  return {
    'replies/s': Math.round((latencies.length / SECONDS) * 10) / 10,
    'p50 ms': at(0.5),
    'p99 ms': at(0.99),
    errors: failures,
  };
}

/** Microseconds per call of `call`, over `times` calls one after another. */
async function perCall(times: number, call: (index: number) => Promise<unknown>) {
  for (let index = 0; index < 200; index += 1) await call(index);
  const started = performance.now();
  for (let index = 0; index < times; index += 1) await call(index);
  return Math.round(((performance.now() - started) * 1000) / times);
}

async function redisCosts() {
  const prefix = `mates-bench-${randomBytes(4).toString('hex')}:`;
  const redis = new Redis(REDIS_TEST_URL);
  const link = await connectRedis(
    { url: REDIS_TEST_URL, prefix, roomLockTtlMs: 30_000 },
    silentLogger(),
  );
  const limit = { points: 1_000_000, duration: 60 };
  const memoryLimit = new RateLimiterMemory(limit);
  const redisLimit = new RateLimiterRedis({
    ...limit,
    storeClient: link.client,
    keyPrefix: `${prefix}bench`,
  });
  const memoryLocks = memoryRoomLocks();
  const redisLocks = redisRoomLocks(link, { ttlMs: 30_000, log: silentLogger() });
  const claimRelease = (locks: typeof memoryLocks) => async (index: number) => {
    const claim = await locks.claim(`room-${index}`);
    await claim?.release();
  };
  const rows = {
    'rate limit (one consume)': {
      'memory µs': await perCall(5000, (i) => memoryLimit.consume(`ip-${i % 50}`)),
      'Redis µs': await perCall(5000, (i) => redisLimit.consume(`ip-${i % 50}`)),
    },
    'room lock (claim + release)': {
      'memory µs': await perCall(2000, claimRelease(memoryLocks)),
      'Redis µs': await perCall(2000, claimRelease(redisLocks)),
    },
  };
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await link.close();
  redis.disconnect();
  return rows;
}

async function main() {
  if (!(await postgresAvailable()) || !(await redisAvailable())) {
    console.log('scale bench: skipped (needs PostgreSQL and Redis at their test addresses)');
    return;
  }
  console.log(`\nRedis: what a request's shared-state calls cost (127.0.0.1, one at a time)`);
  console.table(await redisCosts());

  const double = await startOpenAiDouble();
  const database = await emptyDatabase('postgres');
  const prefix = `mates-bench-${randomBytes(4).toString('hex')}:`;
  const children: ChildProcess[] = [];
  const dataDirs: string[] = [];
  try {
    const env = (port: number): Record<string, string> => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-scale-'));
      dataDirs.push(dataDir);
      return {
        PORT: String(port),
        DATA_DIR: dataDir,
        DATABASE_URL: database.url!,
        REDIS_URL: REDIS_TEST_URL,
        REDIS_PREFIX: prefix,
        LINK_SECRET: randomBytes(32).toString('hex'),
        LLM_PROVIDER: 'openai',
        LLM_BASE_URL: double.baseUrl,
        LLM_API_KEY: 'sk-test',
        LLM_MODEL: 'mate-model',
        SPEECH_PROVIDER: 'none',
        MIGRATE: 'auto',
      };
    };
    children.push((await startMainProcess(env(PORTS[0]!))).child);
    const bases = PORTS.map((port) => `http://127.0.0.1:${port}`);
    const mate = await database.db
      .selectFrom('mates')
      .select('id')
      .where('name', '=', 'Kai Tanaka')
      .executeTakeFirstOrThrow();
    const tokens: string[] = [];
    const roomIds: string[] = [];
    for (let index = 0; index < CHATTERS; index += 1) {
      const token = await benchUser(database.db, `scale-${index}`, {
        chats: 1_000_000,
        goldCoins: 0,
      });
      const client = createApiClient({
        baseUrl: `${bases[0]}/api`,
        getToken: () => token,
        getLanguage: () => 'en',
      });
      tokens.push(token);
      roomIds.push((await client.room.createRoom({ mateId: mate.id })).roomId);
    }
    const one = { catalog: await catalog(bases.slice(0, 1)) };
    const oneChat = await chats(bases.slice(0, 1), tokens, roomIds);
    children.push((await startMainProcess(env(PORTS[1]!))).child);
    const two = { catalog: await catalog(bases) };
    const twoChat = await chats(bases, tokens, roomIds);
    console.log(
      `\nPostgreSQL + Redis, ${os.cpus().length} cores: one server process, then two (${SECONDS} s each, catalog with ${CONNECTIONS} connections, chat with ${CHATTERS} people each in a room of their own, replies from an OpenAI-compatible double)`,
    );
    console.table({
      'catalog, 1 server': one.catalog,
      'catalog, 2 servers': two.catalog,
    });
    console.table({ 'chat, 1 server': oneChat, 'chat, 2 servers': twoChat });
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      children.map((child) => new Promise((resolve) => child.once('exit', resolve))),
    );
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
    await database.drop();
    await double.close();
  }
}

await main();
