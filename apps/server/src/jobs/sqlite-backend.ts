import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { better, defineQueue, defineWorker, type Queue, type Worker } from 'plainjob';
import type { QueueBackend } from './recorded-queue';
import type { Logger } from '../logging/logger';

// Why plainjob: of the SQLite-backed queues on npm it is the one that works with
// better-sqlite3 12 on Node 20. It claims a job in a `BEGIN IMMEDIATE` transaction, so several
// processes on one file run each job once; it requeues runs whose process died (its
// maintenance `timeout`); it delays jobs; and its workers can be many per kind (concurrency).
// Passed over: liteque (better kept, but it passes an async function to better-sqlite3's
// `transaction`, which better-sqlite3 refuses since 11.10: karakeep-app/karakeep#1594),
// sidequest (Node 22), bunqueue (Bun only), better-queue-sqlite (the `sqlite3` driver, unkept).
// plainjob's timeout counts from when a job was due, not from its start, so a job that waited
// long may be handed over a second time while it runs: `RecordedQueue` looks at the `jobs`
// row and sends such a hand-over back with a delay instead of running it twice.

type Dispatch = { jobId: string };

/**
 * plainjob on its own file, `$DATA_DIR/jobs.db` (its tables stay out of the app's schema,
 * and its polling writes do not contend with the app's), through its own connection.
 */
export function createSqliteBackend(options: {
  file: string;
  log: Logger;
  /** How often an idle worker looks for work (default 250 ms). */
  pollMs?: number;
  /** How often runs whose process died are looked for (default 30 s). */
  maintenanceSeconds?: number;
}): QueueBackend {
  const pollIntervall = options.pollMs ?? 250;
  const maintenanceMs = (options.maintenanceSeconds ?? 30) * 1000;
  const quiet = {
    error: (message: string) => options.log.error(`jobs: plainjob: ${message}`),
    warn: (message: string) => options.log.warn(`jobs: plainjob: ${message}`),
    info: () => {},
    debug: () => {},
  };
  let queue: Queue | undefined;
  const workers: { worker: Worker; loop: Promise<void> }[] = [];

  return {
    describe: () => `plainjob on ${options.file}`,
    async open() {
      if (options.file !== ':memory:') {
        fs.mkdirSync(path.dirname(options.file), { recursive: true });
      }
      queue = defineQueue({
        connection: better(new SqliteDatabase(options.file)),
        logger: quiet,
        // A run is taken as dead once it is this old; a live one that old is sent back by
        // RecordedQueue until its own expiry has passed.
        timeout: maintenanceMs,
        maintenanceInterval: maintenanceMs,
      });
    },
    async send(kind, jobId, _kindOptions, delayMs) {
      queue!.add(kind, { jobId } satisfies Dispatch, { delay: delayMs ?? 0 });
    },
    async work(kind, kindOptions, run) {
      // plainjob runs one job at a time per worker: one worker per slot.
      for (let slot = 0; slot < kindOptions.concurrency; slot++) {
        const worker = defineWorker(
          kind,
          async (job) => {
            const { jobId } = JSON.parse(job.data) as Dispatch;
            const outcome = await run(jobId);
            if (outcome) queue!.add(kind, { jobId } satisfies Dispatch, { delay: outcome.laterMs });
          },
          {
            queue: queue!,
            pollIntervall,
            logger: quiet,
            onFailed: (job, error) =>
              options.log.warn(`jobs: ${kind} dispatch ${job.id} failed: ${error}`),
          },
        );
        const loop = worker.start().catch((error: unknown) => {
          options.log.error(`jobs: a ${kind} worker stopped on an error: ${String(error)}`);
        });
        workers.push({ worker, loop });
      }
    },
    async stopFetching() {
      await Promise.all(workers.map(({ worker }) => worker.stop()));
    },
    async close() {
      await Promise.all(workers.map(({ worker }) => worker.stop()));
      await Promise.allSettled(workers.map(({ loop }) => loop));
      queue?.close();
    },
  };
}
