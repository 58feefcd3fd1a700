import { createRequire } from 'node:module';
import type PgBoss from 'pg-boss';
import type { BackendKind, QueueBackend } from './recorded-queue';
import type { Logger } from '../logging/logger';

// Why pg-boss 10: it is the PostgreSQL queue with the longest record (SKIP LOCKED claims, so
// several servers run each job once), it expires active jobs whose process died and retries
// them. Version 10 is the last for Node 20 (11 and 12 need Node 22);
// graphile-worker 0.18 needs Node 22 as well.

type Dispatch = { jobId: string };

// Required by the PostgreSQL backend rather than imported: a server on SQLite never needs it.
const require = createRequire(import.meta.url);

/** pg-boss in its own schema (`pgboss`) of the app's database. */
export function createPostgresBackend(options: {
  connectionString: string;
  log: Logger;
  /** How often an idle worker polls (default 500 ms, pg-boss's least). */
  pollMs?: number;
  /** How often pg-boss expires runs whose process died (default 30 s, least 1 s). */
  maintenanceSeconds?: number;
}): QueueBackend {
  const PgBossClient = require('pg-boss') as typeof PgBoss;
  const boss = new PgBossClient({
    connectionString: options.connectionString,
    schema: 'pgboss',
    max: 4,
    schedule: false,
    maintenanceIntervalSeconds: options.maintenanceSeconds ?? 30,
  });
  boss.on('error', (error) => options.log.error(`jobs: pg-boss: ${error.message}`));
  const pollingIntervalSeconds = Math.max(0.5, (options.pollMs ?? 500) / 1000);
  const workers = new Map<string, string[]>();

  // Retries hand over runs that expired (their process died) or failed on a database error;
  // RecordedQueue fails a job interrupted twice before these run out.
  const queueOptions = (kindOptions: BackendKind | undefined) => ({
    retryLimit: 5,
    retryDelay: 0,
    ...(kindOptions ? { expireInSeconds: kindOptions.expireSeconds } : {}),
  });

  // pg-boss 10 sends only to a queue that exists. One creation per kind in this process;
  // servers starting side by side may deadlock on pg-boss's queue table: try again.
  // Cached per kind and expiry: a process that sent a kind before defining it still sets the
  // queue's expiry when it defines it.
  const ensured = new Map<string, Promise<void>>();
  const createQueue = async (kind: string, kindOptions: BackendKind | undefined) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await boss.createQueue(kind, { name: kind, ...queueOptions(kindOptions) });
        if (kindOptions) await boss.updateQueue(kind, { name: kind, ...queueOptions(kindOptions) });
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
      }
    }
  };
  const ensureQueue = (kind: string, kindOptions: BackendKind | undefined) => {
    const key = kindOptions ? `${kind}\n${kindOptions.expireSeconds}` : kind;
    let done = ensured.get(key);
    if (!done) {
      done = createQueue(kind, kindOptions);
      done.catch(() => ensured.delete(key));
      ensured.set(key, done);
    }
    return done;
  };

  const backend: QueueBackend = {
    describe: () => 'pg-boss on PostgreSQL',
    async open() {
      await boss.start();
    },
    async send(kind, jobId, kindOptions, delayMs) {
      await ensureQueue(kind, kindOptions);
      await boss.send(kind, { jobId } satisfies Dispatch, {
        ...queueOptions(kindOptions),
        ...(delayMs ? { startAfter: Math.ceil(delayMs / 1000) } : {}),
      });
      // A worker of this process takes it now instead of at its next poll.
      for (const id of workers.get(kind) ?? []) boss.notifyWorker(id);
    },
    async work(kind, kindOptions, run) {
      await ensureQueue(kind, kindOptions);
      const ids: string[] = [];
      // pg-boss 10 has no concurrency option: one worker per slot, each fetching one job.
      for (let slot = 0; slot < kindOptions.concurrency; slot++) {
        ids.push(
          await boss.work<Dispatch>(
            kind,
            { batchSize: 1, pollingIntervalSeconds },
            async ([job]) => {
              if (!job) return;
              // A dispatch's expiry is fixed when it is sent. A process that does not define
              // the kind (a queue for enqueuing only) sends it with the queue's expiry, which is
              // pg-boss's 15 minutes where that process created the queue before any worker set
              // it: a run of it whose process died would stay active, its job `running`, that
              // long. Sent again with this kind's expiry instead. Only a longer one is, so that
              // servers with different timeouts (an update rolling out) cannot loop.
              if (Number(job.expireInSeconds) > kindOptions.expireSeconds) {
                await backend.send(kind, job.data.jobId, kindOptions);
                return;
              }
              const outcome = await run(job.data.jobId);
              if (outcome) await backend.send(kind, job.data.jobId, kindOptions, outcome.laterMs);
            },
          ),
        );
      }
      workers.set(kind, ids);
    },
    async stopFetching() {
      for (const kind of workers.keys()) await boss.offWork(kind);
    },
    async close() {
      await boss.stop({ graceful: true, wait: true, timeout: 5000 });
    },
  };
  return backend;
}
