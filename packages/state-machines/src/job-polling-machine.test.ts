import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { ApiError, NetworkError, type JobStatus } from '@mates/api-client';
import { jobPollingMachine } from './job-polling-machine';
import { IMAGE_POLL_INTERVAL_MS, IMAGE_POLL_MAX_RETRIES } from './constants';

function status(
  state: JobStatus['state'],
  progress = 0,
  extra: Partial<JobStatus> = {},
): JobStatus {
  return {
    jobId: 'job-1',
    state,
    progress,
    images: state === 'succeeded' ? ['https://example.com/p.png'] : [],
    error: state === 'failed' ? 'The engine is out of memory.' : null,
    createdAt: '2026-11-23T00:00:00.000Z',
    messageId: 'msg-image-1',
    ...extra,
  };
}

const offline = () =>
  new NetworkError({
    method: 'GET',
    path: '/room/checkJobStatus',
    cause: new TypeError('offline'),
  });

/** A client whose checkJobStatus answers from `answers` in turn (the last repeats). */
function setup(answers: (() => JobStatus)[], cancelAnswer = () => status('cancelled')) {
  const checks: number[] = [];
  const start = Date.now();
  const checkJobStatus = vi.fn(async (query: { jobId: string }) => {
    expect(query).toEqual({ jobId: 'job-1' });
    checks.push(Date.now() - start);
    return answers[Math.min(checks.length - 1, answers.length - 1)]!();
  });
  const cancelImage = vi.fn(async () => cancelAnswer());
  const client = { room: { checkJobStatus, cancelImage } } as never;
  const actor = createActor(jobPollingMachine, { input: { client, jobId: 'job-1' } });
  const progress: number[] = [];
  actor.on('progress', (event) => progress.push(event.status.progress));
  return { actor, checks, progress, cancelImage };
}

describe('jobPollingMachine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks at once and every interval, reports progress, and ends succeeded with the image', async () => {
    const { actor, checks, progress } = setup([
      () => status('queued'),
      () => status('running', 0.5),
      () => status('succeeded', 1),
    ]);
    actor.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(checks).toEqual([0]);
    await vi.advanceTimersByTimeAsync(IMAGE_POLL_INTERVAL_MS - 1);
    expect(checks).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(checks).toEqual([0, 1500]);
    await vi.advanceTimersByTimeAsync(IMAGE_POLL_INTERVAL_MS);
    expect(checks).toEqual([0, 1500, 3000]);
    expect(progress).toEqual([0, 0.5, 1]);
    expect(actor.getSnapshot().value).toBe('succeeded');
    expect(actor.getSnapshot().output?.images).toEqual(['https://example.com/p.png']);
    // Ended: no more asks.
    await vi.advanceTimersByTimeAsync(IMAGE_POLL_INTERVAL_MS * 4);
    expect(checks).toHaveLength(3);
  });

  it('ends failed with the reason the server gave', async () => {
    const { actor, checks } = setup([() => status('running', 0.2), () => status('failed')]);
    actor.start();
    await vi.advanceTimersByTimeAsync(IMAGE_POLL_INTERVAL_MS);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().output?.error).toBe('The engine is out of memory.');
    await vi.advanceTimersByTimeAsync(IMAGE_POLL_INTERVAL_MS * 4);
    expect(checks).toHaveLength(2);
  });

  it('CANCEL sends cancelImage once and ends cancelled, with no more asks', async () => {
    const { actor, checks, cancelImage, progress } = setup([() => status('running', 0.3)]);
    actor.start();
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'CANCEL' });
    await vi.advanceTimersByTimeAsync(0);
    expect(cancelImage).toHaveBeenCalledTimes(1);
    expect(cancelImage).toHaveBeenCalledWith({ jobId: 'job-1' }, expect.anything());
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(progress).toEqual([0.3, 0]);
    await vi.advanceTimersByTimeAsync(IMAGE_POLL_INTERVAL_MS * 4);
    expect(checks).toEqual([0]);
  });

  it('CANCEL on a job that finished first ends with the job as it is', async () => {
    const { actor } = setup([() => status('running', 0.9)], () => status('succeeded', 1));
    actor.start();
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'CANCEL' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('succeeded');
  });

  it('backs off on network failures, doubling, then goes on after an answer', async () => {
    const { actor, checks } = setup([
      () => {
        throw offline();
      },
      () => {
        throw offline();
      },
      () => status('running', 0.5),
      () => status('succeeded', 1),
    ]);
    actor.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('backingOff');
    await vi.advanceTimersByTimeAsync(3000 + 6000);
    // 0, then 2×1500 later, then 4×1500 after that.
    expect(checks).toEqual([0, 3000, 9000]);
    expect(actor.getSnapshot().context.failures).toBe(0);
    await vi.advanceTimersByTimeAsync(IMAGE_POLL_INTERVAL_MS);
    expect(checks).toEqual([0, 3000, 9000, 10500]);
    expect(actor.getSnapshot().value).toBe('succeeded');
  });

  it('gives up after too many network failures in a row (bounded)', async () => {
    const { actor, checks } = setup([
      () => {
        throw offline();
      },
    ]);
    actor.start();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(checks).toHaveLength(IMAGE_POLL_MAX_RETRIES + 1);
    expect(actor.getSnapshot().value).toBe('error');
    expect(NetworkError.isInstance(actor.getSnapshot().context.error)).toBe(true);
    // No wait ever exceeded the cap.
    const gaps = checks.slice(1).map((at, index) => at - checks[index]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(30_000);
  });

  it('ends in error at once on an API error (no retries)', async () => {
    const { actor, checks } = setup([
      () => {
        throw new ApiError('No such job', {
          code: 4004,
          method: 'GET',
          path: '/room/checkJobStatus',
          status: 200,
        });
      },
    ]);
    actor.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(checks).toEqual([0]);
    expect(actor.getSnapshot().value).toBe('error');
  });

  it('STOP stops asking without cancelling the job', async () => {
    const { actor, checks, cancelImage } = setup([() => status('queued')]);
    actor.start();
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'STOP' });
    await vi.advanceTimersByTimeAsync(IMAGE_POLL_INTERVAL_MS * 4);
    expect(checks).toEqual([0]);
    expect(cancelImage).not.toHaveBeenCalled();
    expect(actor.getSnapshot().value).toBe('stopped');
  });
});
