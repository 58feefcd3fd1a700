// Requests per second and latency of the catalog's calls at 40 and 10,000 mates, on SQLite
// and on PostgreSQL, beside a minimal Hono + better-sqlite3 server answering one row in the
// same envelope, measured just before each call, all in one run. The load client (autocannon)
// runs in its own process.
// Prints a table and saves it with saveResults('catalog').
//
// Each call is measured BENCH_REPEATS times (default 3), each time just after the minimal server,
// and its row gives the medians: of its figures, and of its ratios to the minimal server.
// BENCH_SECONDS (per measure, default 3), BENCH_SIZES (e.g. `10000`), BENCH_DIALECT (`sqlite` or
// `postgres`; both by default) and BENCH_SEARCH_LOG (rows) shorten or vary a run;
// BENCH_CPU_PROFILE=file.cpuprofile records the server's CPU profile while the calls are
// loaded (one file per measure: `name.cpuprofile`, `name.2.cpuprofile`, …; open it in Chrome
// DevTools).
import { fork } from 'node:child_process';
import { profiled } from './cpu-profile';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { sql } from 'kysely';
import { loadConfig } from '../src/config';
import { createApp } from '../src/app';
import { createRateLimits } from '../src/accounts/rate-limits';
import { seedIfEmpty } from '../src/seed/seed';
import { createFolderStore } from '../src/media/folder-store';
import { freshDatabase, memoryMailer, postgresAvailable, unconfiguredModel } from '../test/harness';
import { createChatService } from '../src/chat/chat-service';
import { createJobQueue } from '../src/jobs/create-job-queue';
import { createLogger, silentLogger } from '../src/logging/logger';
import { logPipe } from './log-pipe';
import { createMetrics } from '../src/metrics/metrics';
import { chatWith, fill, fillSearchLog, someMateIds } from './catalog-fill';
import { startMinimalServer } from './minimal-server';
import { saveResults, type ResultRow } from './results';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const CONNECTIONS = 50;
const SIZES = (process.env.BENCH_SIZES ?? '40,10000').split(',').map(Number);
const DIALECTS = process.env.BENCH_DIALECT ? [process.env.BENCH_DIALECT] : ['sqlite', 'postgres'];
const SEARCH_LOG_ROWS = Number(process.env.BENCH_SEARCH_LOG ?? 1_000_000);
const WORDS = ['lighthouse', 'vampire', 'detective', 'space', 'cafe', 'dragon', 'knight', 'witch'];

interface Measured {
  rps: number;
  /** Microseconds of this process's CPU (user + system) per request answered. */
  cpuPerRequest: number;
  p50: number;
  p99: number;
  errors: number;
}

/**
 * Loads `url` + each of `paths` in turn from a forked autocannon process. The servers run in
 * this process, which does nothing else meanwhile: its CPU time per request is theirs, a
 * figure that other work on the machine moves less than req/s.
 */
function measure(url: string, paths: string[], seconds = SECONDS): Promise<Measured> {
  const client = fork(path.join(import.meta.dirname, 'load-client.mjs'));
  const cpu = process.cpuUsage();
  return new Promise((resolve, reject) => {
    client.once('message', (message) => {
      const { user, system } = process.cpuUsage(cpu);
      const result = message as Omit<Measured, 'cpuPerRequest'> & { requests: number };
      resolve({ ...result, cpuPerRequest: Math.round((user + system) / result.requests) });
    });
    client.once('error', reject);
    client.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load client exited with ${code}`));
    });
    client.send({ url, paths, connections: CONNECTIONS, seconds });
  });
}

/** Asks `url` + each of `paths` once, as many at a time as the load client has connections. */
async function askEach(url: string, paths: string[]): Promise<void> {
  for (let start = 0; start < paths.length; start += CONNECTIONS)
    await Promise.all(
      paths
        .slice(start, start + CONNECTIONS)
        .map((one) => fetch(url + one).then((response) => response.text())),
    );
}

/** The calls measured, as paths (several where a call names one mate or one word). */
function calls(mateIds: string[]): [string, string[]][] {
  return [
    ['recommend', ['/api/mate/recommend?pageSize=20']],
    ['recommend tags=fantasy,cozy', ['/api/mate/recommend?tags=fantasy,cozy&pageSize=20']],
    ['getMateDetail', mateIds.map((id) => `/api/mate/getMateDetail?mateId=${id}`)],
    ['search', WORDS.map((word) => `/api/mate/search?keyword=${word}&pageSize=20`)],
    ['hotWords', ['/api/mate/hotWords']],
    ['trendingRank', ['/api/mate/trendingRank']],
  ];
}

async function startApp(database: Awaited<ReturnType<typeof freshDatabase>>, dataDir: string) {
  const app = createApp({
    db: database.db,
    dialect: database.dialect,
    config: loadConfig({ DATA_DIR: dataDir }),
    mailer: memoryMailer(),
    limits: createRateLimits(),
    images: null,
    speech: null,
    transcription: null,
    chat: createChatService(unconfiguredModel()),
    fetch: globalThis.fetch,
    // Never started: the catalog makes no jobs.
    jobs: createJobQueue({ ...database, databaseUrl: database.url, dataDir, log: silentLogger() }),
    // Each request logs its line as in production (JSON, through the same destination), into a
    // pipe (see log-pipe.ts).
    log: createLogger({ level: 'info', format: 'json' }, logPipe()),
    metrics: createMetrics(),
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const MINIMAL_CALL = 'minimal Hono + better-sqlite3, one row';

/** One row of the table: `result` of `call`, and `ratio`, its req/s over the minimal server's. */
function rowOf(
  labels: { database: string; mates: string; call: string },
  result: Measured,
  ratio: number,
): ResultRow {
  return {
    ...labels,
    'req/s': Math.round(result.rps),
    'p50 ms': result.p50,
    'p99 ms': result.p99,
    'CPU µs/req': result.cpuPerRequest,
    errors: result.errors,
    'vs minimal': Math.round(ratio * 100) / 100,
  };
}

/** The median of `values`. */
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Each figure's median over `results`. */
function medianOf(results: Measured[]): Measured {
  const of = (pick: (result: Measured) => number) => median(results.map(pick));
  return {
    rps: of((result) => result.rps),
    cpuPerRequest: of((result) => result.cpuPerRequest),
    p50: of((result) => result.p50),
    p99: of((result) => result.p99),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
  };
}

async function run(dialect: 'sqlite' | 'postgres', referenceUrl: string): Promise<ResultRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-bench-'));
  const database = await freshDatabase(dialect);
  await seedIfEmpty(database.db, { media: createFolderStore(dataDir) });
  const rows: ResultRow[] = [];
  for (const size of SIZES) {
    await fill(database.db, size);
    const mateIds = await someMateIds(database.db, 500);
    await chatWith(database.db, mateIds, 200);
    // Hot words must not care how many searches were logged: measured at 10,000 mates over
    // a search log of a million rows.
    if (size === SIZES.at(-1)) await fillSearchLog(database, SEARCH_LOG_ROWS);
    // A running database has statistics (autovacuum; PRAGMA optimize at start): give it them.
    await sql`analyze`.execute(database.db);
    const server = await startApp(database, dataDir);
    // A fresh server's first seconds under load are slower (its code not yet optimised: the
    // compiler's threads count in this process's CPU), and would fall on the first row:
    // three seconds over every call first, not counted.
    await measure(
      server.url,
      calls(mateIds).flatMap(([, paths]) => paths.slice(0, 20)),
      3,
    );
    const labels = { database: dialect, mates: String(size) };
    const references: Measured[] = [];
    const measured: ResultRow[] = [];
    for (const [call, paths] of calls(mateIds)) {
      // Warmed up, not counted: each path asked, 50 at a time, so that its answer is cached,
      // then a second of the call's own load. (Later, answers pass their 5 s TTL and are
      // computed again while the one before is served, as in steady use.)
      await askEach(server.url, paths);
      await measure(server.url, paths, 1);
      const results: Measured[] = [];
      const ratios: number[] = [];
      for (let repeat = 0; repeat < REPEATS; repeat++) {
        // The load of a shared machine changes from one moment to the next: each measure of
        // a call is compared with the minimal server measured just before it.
        const minimal = await measure(referenceUrl, ['/one']);
        references.push(minimal);
        const result = await profiled(() => measure(server.url, paths));
        results.push(result);
        ratios.push(result.rps / minimal.rps);
      }
      measured.push(rowOf({ ...labels, call }, medianOf(results), median(ratios)));
    }
    rows.push(rowOf({ ...labels, call: MINIMAL_CALL }, medianOf(references), 1), ...measured);
    await server.close();
  }
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  return rows;
}

const reference = await startMinimalServer();
const rows: ResultRow[] = [];
if (DIALECTS.includes('sqlite')) rows.push(...(await run('sqlite', reference.url)));
if (DIALECTS.includes('postgres') && (await postgresAvailable()))
  rows.push(...(await run('postgres', reference.url)));
await reference.close();
console.log(
  `Catalog calls: autocannon in its own process, ${CONNECTIONS} connections, medians of ${REPEATS} measures of ${SECONDS} s, each after the minimal server's, 127.0.0.1, ${os.cpus().length} cores (shared: figures are noisy)`,
);
console.table(rows);
saveResults('catalog', rows);
