import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startMainProcess } from './main-process';
import type { ChildProcess } from 'node:child_process';
import { connect } from '../src/db/connect';
import { migrateToLatest } from '../src/db/migrate';
import { createJobQueue } from '../src/jobs/create-job-queue';
import type { JobQueue, JobStatus } from '../src/jobs/job-queue';
import { freshDatabase } from './harness';
import { captureLog } from './log-capture';

/**
 * A migrated database for job tests with the folder liteque keeps `jobs.db` in: SQLite as a
 * file (several connections and processes share it), or a fresh PostgreSQL database.
 */
export async function jobsDatabase(dialect: 'sqlite' | 'postgres') {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-jobs-'));
  const { logger: log, lines: logs } = captureLog();
  const database =
    dialect === 'sqlite'
      ? { ...connect({ sqliteFile: path.join(dataDir, 'mates.db') }), url: undefined }
      : await freshDatabase('postgres', log);
  if (dialect === 'sqlite') await migrateToLatest(database.db as never, 'sqlite');
  const queues: JobQueue[] = [];
  return {
    ...database,
    dataDir,
    logs,
    /** A job queue on this database (not started); `close()` stops it. */
    queue(): JobQueue {
      const queue = createJobQueue({
        db: database.db,
        dialect,
        databaseUrl: database.url,
        dataDir,
        log,
        pollMs: dialect === 'sqlite' ? 50 : 500,
        maintenanceSeconds: 1,
      });
      queues.push(queue);
      return queue;
    },
    close: async () => {
      await Promise.all(queues.map((queue) => queue.stop({ graceMs: 0 })));
      if ('drop' in database) await database.drop();
      else await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls `read` until `done` holds, for at most `boundMs`; answers the last value read. */
export async function waitFor<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  boundMs = 20_000,
): Promise<T> {
  const until = Date.now() + boundMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) {
      throw new Error(`still not there after ${boundMs} ms: ${JSON.stringify(value)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits for the job to reach `state`. */
export function waitForState(
  queue: JobQueue,
  jobId: string,
  state: JobStatus['state'],
  boundMs?: number,
): Promise<JobStatus> {
  return waitFor(
    async () => (await queue.status(jobId))!,
    (status) => status?.state === state,
    boundMs,
  );
}

/** A promise with its resolve, to hold handlers until a test lets them go. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** What each server process of {@link startServerProcess} has written, for a failing test. */
const outputs = new WeakMap<ChildProcess, string[]>();

/**
 * `test/jobs-server.ts` (the real server start) in a process of its own, resolving once it
 * listens; stop it with {@link killHard}, and read what it wrote with {@link outputOf}.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ChildProcess> {
  const output: string[] = [];
  const { child } = await startMainProcess(env, { script: 'test/jobs-server.ts', output });
  outputs.set(child, output);
  return child;
}

/** Everything a process of {@link startServerProcess} has written (its log lines). */
export const outputOf = (child: ChildProcess): string => (outputs.get(child) ?? []).join('');

/** Kills a server process at once (SIGKILL, as a crash would) and waits until it is gone. */
export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
