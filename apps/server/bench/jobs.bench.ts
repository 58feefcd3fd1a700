// Queue overhead per job: the time from `enqueue()` to its handler starting, with 1 and with 50
// jobs enqueued at once, on SQLite (plainjob) and PostgreSQL (pg-boss) when it answers. The
// queues poll as in production (250 ms on SQLite, 500 ms on PostgreSQL, where a worker of the
// enqueuing process is woken at once). Prints a table.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createJobQueue } from '../src/jobs/create-job-queue';
import { postgresAvailable } from '../test/harness';
import { jobsDatabase, waitForState } from '../test/jobs-helpers';
import { createLogger } from '../src/logging/logger';

const ROUNDS = { 1: 20, 50: 4 } as const;

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const ms = (value: number) => Math.round(value * 10) / 10;

async function run(dialect: 'sqlite' | 'postgres') {
  const database = await jobsDatabase(dialect);
  const queue = createJobQueue({
    db: database.db,
    dialect,
    databaseUrl: database.url,
    dataDir: database.dataDir,
    log: createLogger({ level: 'warn', format: 'json' }),
  });
  const started = new Map<string, number>();
  queue.define<{ at: number }, null>(
    'bench.start',
    async (job) => {
      started.set(job.id, performance.now() - job.payload.at);
      return null;
    },
    { concurrency: 50 },
  );
  await queue.start();
  const rows = [];
  for (const batch of [1, 50] as const) {
    const overheads: number[] = [];
    for (let round = 0; round < ROUNDS[batch]; round++) {
      const ids = await Promise.all(
        Array.from({ length: batch }, () =>
          queue.enqueue('bench.start', { at: performance.now() }),
        ),
      );
      for (const id of ids) await waitForState(queue, id, 'succeeded', 60_000);
      overheads.push(...ids.map((id) => started.get(id)!));
    }
    rows.push({
      database: dialect,
      'jobs at once': batch,
      jobs: overheads.length,
      'p50 ms': ms(percentile(overheads, 50)),
      'p95 ms': ms(percentile(overheads, 95)),
      'max ms': ms(Math.max(...overheads)),
    });
  }
  await queue.stop();
  await database.close();
  return rows;
}

const results = await run('sqlite');
if (await postgresAvailable()) results.push(...(await run('postgres')));
console.log(
  `Job queue overhead (enqueue → handler start), production polling, ${os.cpus().length} cores`,
);
console.table(results);
