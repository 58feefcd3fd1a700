// Requests per second and latency of the catalog's hot calls at 10,000 mates, on SQLite and
// on PostgreSQL, measured with autocannon over real HTTP on 127.0.0.1. Prints a table.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { serve } from '@hono/node-server';
import { loadConfig } from '../src/config';
import { createApp } from '../src/app';
import { createRateLimits } from '../src/accounts/rate-limits';
import { sql } from 'kysely';
import { seedIfEmpty } from '../src/seed/seed';
import { createFolderStore } from '../src/media/folder-store';
import { fill, MATES } from './catalog-fill';
import { freshDatabase, memoryMailer, postgresAvailable, unconfiguredModel } from '../test/harness';
import { createChatService } from '../src/chat/chat-service';
import { createJobQueue } from '../src/jobs/create-job-queue';
import { silentLogger } from '../src/logging/logger';
import { createMetrics } from '../src/metrics/metrics';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 16;
const WORDS = [
  'lighthouse',
  'vampire',
  'detective',
  'space',
  'cafe',
  'dragon',
  'octopus',
  'knight',
  'witch',
  'pirate',
];

async function measure(url: string, requests: autocannon.Request[]) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, requests });
  return {
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

async function run(dialect: 'sqlite' | 'postgres') {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-bench-'));
  const database = await freshDatabase(dialect);
  await seedIfEmpty(database.db, { media: createFolderStore(dataDir) });
  const ids = await fill(database.db);
  // A running database has statistics (autovacuum; PRAGMA optimize at start): give it them.
  await sql`analyze`.execute(database.db);
  const config = loadConfig({ DATA_DIR: dataDir });
  const app = createApp({
    db: database.db,
    dialect: database.dialect,
    config,
    mailer: memoryMailer(),
    limits: createRateLimits(),
    images: null,
    speech: null,
    transcription: null,
    chat: createChatService(unconfiguredModel()),
    fetch: globalThis.fetch,
    // Never started: the catalog makes no jobs.
    jobs: createJobQueue({
      ...database,
      databaseUrl: database.url,
      dataDir,
      log: silentLogger(),
    }),
    log: silentLogger(),
    metrics: createMetrics(),
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let turn = 0;
  const rows = [
    ['recommend', [{ path: '/api/mate/recommend?tags=fantasy,cozy&pageSize=20' }]],
    [
      'getMateDetail',
      [
        {
          setupRequest: (request: autocannon.Request) => ({
            ...request,
            path: `/api/mate/getMateDetail?mateId=${ids[(turn += 1) % ids.length]}`,
          }),
        },
      ],
    ],
    [
      'search',
      [
        {
          setupRequest: (request: autocannon.Request) => ({
            ...request,
            path: `/api/mate/search?keyword=${WORDS[(turn += 1) % WORDS.length]}&pageSize=20`,
          }),
        },
      ],
    ],
  ] as const;
  const results = [];
  for (const [call, requests] of rows) {
    results.push({
      database: dialect,
      call,
      ...(await measure(base, requests as unknown as autocannon.Request[])),
    });
  }
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  return results;
}

const results = await run('sqlite');
if (await postgresAvailable()) results.push(...(await run('postgres')));
console.log(
  `Catalog calls at ${MATES.toLocaleString('en')} mates: autocannon, ${CONNECTIONS} connections, ${SECONDS} s each, 127.0.0.1, ${os.cpus().length} cores`,
);
console.table(results);
