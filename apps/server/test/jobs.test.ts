import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, postgresAvailable } from './harness';
import { gate, jobsDatabase, waitFor, waitForState } from './jobs-helpers';

const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('the job queue on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let database: Awaited<ReturnType<typeof jobsDatabase>> | undefined;
  const open = async () => (database = await jobsDatabase(dialect));
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it.skipIf(skip)('runs a job; its progress and result can be read by id', async () => {
    const db = await open();
    const queue = db.queue();
    const hold = gate();
    queue.define<{ prompt: string }, { url: string }>('test.draw', async (job) => {
      await job.progress(0.5);
      await hold.opened;
      return { url: `/media/${job.payload.prompt}.png` };
    });
    await queue.start();
    const id = await queue.enqueue('test.draw', { prompt: 'kai-at-the-beach' });
    const halfway = await waitFor(
      () => queue.status(id),
      (status) => status?.progress === 0.5,
    );
    expect(halfway).toMatchObject({ state: 'running', kind: 'test.draw', attempts: 1 });
    hold.open();
    const done = await waitForState(queue, id, 'succeeded');
    expect(done).toMatchObject({
      progress: 1,
      result: { url: '/media/kai-at-the-beach.png' },
      error: null,
    });
    expect(Date.parse(done.createdAt)).not.toBeNaN();
    expect(await queue.status('no-such-job')).toBeNull();
  });

  it.skipIf(skip)(
    'a failing job ends failed with its error; the hook runs once, in its transaction',
    async () => {
      const db = await open();
      const queue = db.queue();
      const hooked: { id: string; error: string; stateInside: string }[] = [];
      queue.define<{ coins: number }, never>(
        'test.fail',
        async () => {
          throw new Error('The engine said no.');
        },
        {
          onFinallyFailed: async (job, trx) => {
            // The hook sees the row as failed inside the transaction that marks it.
            const row = await trx
              .selectFrom('jobs')
              .select('state')
              .where('id', '=', job.id)
              .executeTakeFirstOrThrow();
            hooked.push({ id: job.id, error: job.error, stateInside: row.state });
          },
        },
      );
      await queue.start();
      const id = await queue.enqueue('test.fail', { coins: 3 });
      const failed = await waitForState(queue, id, 'failed');
      expect(failed.error).toBe('The engine said no.');
      expect(failed.result).toBeNull();
      expect(hooked).toEqual([{ id, error: 'The engine said no.', stateInside: 'failed' }]);
    },
  );

  it.skipIf(skip)('a job over its timeout fails and its handler is aborted', async () => {
    const db = await open();
    const queue = db.queue();
    let sawAbort: unknown;
    let hooks = 0;
    queue.define(
      'test.slow',
      (job) =>
        new Promise((_, reject) => {
          job.signal.addEventListener('abort', () => {
            sawAbort = job.signal.reason;
            reject(job.signal.reason);
          });
        }),
      { timeoutMs: 300, onFinallyFailed: async () => void hooks++ },
    );
    await queue.start();
    const id = await queue.enqueue('test.slow', {});
    const failed = await waitForState(queue, id, 'failed');
    expect(failed.error).toBe('The job ran longer than 300 ms.');
    expect(sawAbort).toBeInstanceOf(Error);
    expect(hooks).toBe(1);
  });

  it.skipIf(skip)('runs no more handlers of a kind at once than its concurrency', async () => {
    const db = await open();
    const queue = db.queue();
    let active = 0;
    let most = 0;
    const holds = new Map<string, ReturnType<typeof gate>>();
    queue.define(
      'test.limited',
      async (job) => {
        active++;
        most = Math.max(most, active);
        const hold = gate();
        holds.set(job.id, hold);
        await hold.opened;
        active--;
      },
      { concurrency: 2 },
    );
    await queue.start();
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await queue.enqueue('test.limited', { i }));
    // Let them go one at a time, each once two are running or none are left to start.
    for (let released = 0; released < ids.length; released++) {
      await waitFor(
        () => active,
        (count) => count === Math.min(2, ids.length - released),
      );
      const running = [...holds.entries()][0]!;
      holds.delete(running[0]);
      running[1].open();
    }
    for (const id of ids) await waitForState(queue, id, 'succeeded');
    expect(most).toBe(2);
  });

  it.skipIf(skip)('cancels a queued job: it never runs', async () => {
    const db = await open();
    const queue = db.queue();
    const ran: string[] = [];
    const hold = gate();
    queue.define('test.one', async (job) => {
      ran.push(job.id);
      await hold.opened;
    });
    await queue.start();
    const first = await queue.enqueue('test.one', {});
    await waitForState(queue, first, 'running');
    const second = await queue.enqueue('test.one', {});
    expect(await queue.cancel(second)).toBe(true);
    expect((await queue.status(second))!.state).toBe('cancelled');
    hold.open();
    await waitForState(queue, first, 'succeeded');
    const third = await queue.enqueue('test.one', {});
    await waitForState(queue, third, 'succeeded');
    expect(ran).toEqual([first, third]);
    expect((await queue.status(second))!.state).toBe('cancelled');
    // An ended job cannot be cancelled.
    expect(await queue.cancel(first)).toBe(false);
  });

  it.skipIf(skip)('cancels a running job: its signal fires and no failure hook runs', async () => {
    const db = await open();
    const queue = db.queue();
    let reason: unknown;
    let hooks = 0;
    queue.define(
      'test.long',
      (job) =>
        new Promise((_, reject) =>
          job.signal.addEventListener('abort', () => {
            reason = job.signal.reason;
            reject(job.signal.reason);
          }),
        ),
      { onFinallyFailed: async () => void hooks++ },
    );
    await queue.start();
    const id = await queue.enqueue('test.long', {});
    await waitForState(queue, id, 'running');
    expect(await queue.cancel(id)).toBe(true);
    await waitFor(
      () => reason,
      (value) => value !== undefined,
    );
    expect(String(reason)).toContain('cancelled');
    expect(await queue.status(id)).toMatchObject({ state: 'cancelled', error: null });
    expect(hooks).toBe(0);
  });

  it.skipIf(skip)('a cancel made by another runner reaches the handler', async () => {
    const db = await open();
    const runner = db.queue();
    const other = db.queue();
    let aborted = false;
    runner.define(
      'test.remote',
      (job) =>
        new Promise((_, reject) =>
          job.signal.addEventListener('abort', () => {
            aborted = true;
            reject(job.signal.reason);
          }),
        ),
    );
    await runner.start();
    await other.start();
    const id = await other.enqueue('test.remote', {});
    await waitForState(other, id, 'running');
    expect(await other.cancel(id)).toBe(true);
    await waitFor(
      () => aborted,
      (value) => value,
    );
  });

  it.skipIf(skip)('two runners on one database run each job exactly once', async () => {
    const db = await open();
    const runs: { id: string; by: string }[] = [];
    for (const name of ['a', 'b']) {
      const queue = db.queue();
      queue.define(
        'test.shared',
        async (job) => {
          runs.push({ id: job.id, by: name });
          await new Promise((resolve) => setTimeout(resolve, 20));
          return name;
        },
        { concurrency: 3 },
      );
      await queue.start();
    }
    const enqueuer = db.queue();
    await enqueuer.start();
    const ids = await Promise.all(
      Array.from({ length: 30 }, (_, i) => enqueuer.enqueue('test.shared', { i })),
    );
    for (const id of ids) await waitForState(enqueuer, id, 'succeeded');
    expect(runs.map((run) => run.id).sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const status = await enqueuer.status<string>(id);
      expect(status!.result).toBe(runs.find((run) => run.id === id)!.by);
    }
  });

  it.skipIf(skip)('a singleton key answers the job already queued or running', async () => {
    const db = await open();
    const queue = db.queue();
    const hold = gate();
    queue.define('test.single', async () => hold.opened);
    await queue.start();
    const first = await queue.enqueue('test.single', {}, { singletonKey: 'room-1' });
    expect(await queue.enqueue('test.single', {}, { singletonKey: 'room-1' })).toBe(first);
    const other = await queue.enqueue('test.single', {}, { singletonKey: 'room-2' });
    expect(other).not.toBe(first);
    hold.open();
    await waitForState(queue, first, 'succeeded');
    await waitForState(queue, other, 'succeeded');
    // Once it ended, the key is free again.
    expect(await queue.enqueue('test.single', {}, { singletonKey: 'room-1' })).not.toBe(first);
  });
});
