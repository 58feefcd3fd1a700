import fs from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, postgresAvailable } from './harness';
import {
  jobsDatabase,
  killHard,
  outputOf,
  startServerProcess,
  waitFor,
  waitForState,
} from './jobs-helpers';

const withPostgres = await postgresAvailable();

const children: ChildProcess[] = [];

async function startProcess(env: Record<string, string>): Promise<ChildProcess> {
  const child = await startServerProcess(env);
  children.push(child);
  return child;
}

const lines = (file: string): string[] =>
  fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];

describe.each(DIALECTS)('job server processes on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  // Ports of this suite's range, one pair per dialect.
  const ports = dialect === 'sqlite' ? [4611, 4612] : [4621, 4622];
  let database: Awaited<ReturnType<typeof jobsDatabase>> | undefined;
  afterEach(async (context) => {
    // A failure between processes is told by their logs: show them with it.
    if (context.task.result?.state === 'fail') {
      for (const child of children)
        console.error(`server process ${child.pid} wrote:\n${outputOf(child)}`);
      if (database)
        console.error(
          `runs (job, pid, attempt):\n${lines(path.join(database.dataDir, 'runs.txt')).join('\n')}`,
        );
    }
    for (const child of children.splice(0)) await killHard(child);
    await database?.close();
    database = undefined;
  });

  const setUp = async () => {
    database = await jobsDatabase(dialect);
    const env = (port: number) => ({
      PORT: String(port),
      DATA_DIR: database!.dataDir,
      ...(database!.url ? { DATABASE_URL: database!.url } : {}),
      JOBS_RUNS_FILE: path.join(database!.dataDir, 'runs.txt'),
      JOBS_HOOKS_FILE: path.join(database!.dataDir, 'hooks.txt'),
      JOBS_TIMEOUT_MS: '4000',
    });
    return { database, env };
  };

  it.skipIf(skip)(
    'two server processes on one database run each job exactly once',
    async () => {
      const { database, env } = await setUp();
      // One after the other: two servers seeding one empty database at once collide.
      for (const port of ports) await startProcess(env(port));
      const queue = database.queue();
      await queue.start();
      const ids = await Promise.all(
        Array.from({ length: 30 }, () => queue.enqueue('test.process', {})),
      );
      for (const id of ids) await waitForState(queue, id, 'succeeded', 30_000);
      const runs = lines(env(0).JOBS_RUNS_FILE).map((line) => line.split(' ')[0]);
      expect(runs.sort()).toEqual([...ids].sort());
      const pids = new Set<number>();
      for (const id of ids) pids.add((await queue.status<{ pid: number }>(id))!.result!.pid);
      expect([...pids].every((pid) => children.some((child) => child.pid === pid))).toBe(true);
    },
    90_000,
  );

  it.skipIf(skip)(
    'a job survives kill -9: after the restart it finishes, or fails with its hook run once',
    async () => {
      const { database, env } = await setUp();
      const first = await startProcess(env(ports[0]!));
      const queue = database.queue();
      await queue.start();
      const finishes = await queue.enqueue('test.process', { hang: 'first' });
      const fails = await queue.enqueue('test.process', { hang: 'always' });
      await waitFor(
        () => lines(env(0).JOBS_RUNS_FILE).length,
        (count) => count === 2,
      );
      expect((await queue.status(finishes))!.state).toBe('running');
      await killHard(first);

      const second = await startProcess(env(ports[1]!));
      const done = await waitForState(queue, finishes, 'succeeded', 45_000);
      expect(done).toMatchObject({ attempts: 2, result: { attempt: 1 } });
      expect((done.result as { pid: number }).pid).toBe(second.pid);
      const failed = await waitForState(queue, fails, 'failed', 45_000);
      expect(failed).toMatchObject({ attempts: 2, error: 'The job ran longer than 4000 ms.' });
      expect(lines(env(0).JOBS_HOOKS_FILE)).toEqual([`${fails} The job ran longer than 4000 ms.`]);
    },
    120_000,
  );

  it.skipIf(dialect !== 'postgres' || !withPostgres)(
    'a job queued before any server defines its kind still comes back after kill -9',
    async () => {
      // The queueing process knows no timeout of the kind: it creates pg-boss's queue without
      // one, and its dispatch would get pg-boss's default expiry (15 minutes). The test above
      // raced into this when its queue created pg-boss's queue before the first server did.
      const { database, env } = await setUp();
      const queue = database.queue();
      await queue.start();
      const id = await queue.enqueue('test.process', { hang: 'first' });
      const first = await startProcess(env(ports[0]!));
      await waitForState(queue, id, 'running');
      await killHard(first);
      const second = await startProcess(env(ports[1]!));
      const done = await waitForState(queue, id, 'succeeded', 45_000);
      expect(done).toMatchObject({ attempts: 2, result: { attempt: 1, pid: second.pid } });
    },
    120_000,
  );

  it.skipIf(dialect !== 'sqlite')(
    'a long run handed over twice by plainjob still comes back after kill -9',
    async () => {
      const { database, env } = await setUp();
      const first = await startProcess(env(ports[0]!));
      const queue = database.queue();
      await queue.start();
      const id = await queue.enqueue('test.process', { hang: 'first' });
      await waitForState(queue, id, 'running');
      // plainjob's maintenance requeues the running dispatch (its timeout counts from when the
      // job was due); the server's free slot takes it and must leave a later one behind.
      const jobsFile = new SqliteDatabase(path.join(database.dataDir, 'jobs.db'), {
        readonly: true,
      });
      try {
        await waitFor(
          () =>
            jobsFile
              .prepare(
                `select count(*) as n from plainjob_jobs
                 where status = 0 and next_run_at > ? and data like ?`,
              )
              .get(Date.now(), `%${id}%`) as { n: number },
          (row) => row.n > 0,
        );
      } finally {
        jobsFile.close();
      }
      await killHard(first);
      const second = await startProcess(env(ports[1]!));
      const done = await waitForState(queue, id, 'succeeded', 45_000);
      expect(done).toMatchObject({ attempts: 2, result: { attempt: 1, pid: second.pid } });
    },
    120_000,
  );
});
