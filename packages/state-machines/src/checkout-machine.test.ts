import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { ApiError, NetworkError, type CheckoutStatus } from '@mates/api-client';
import { checkoutMachine } from './checkout-machine';
import { CHECKOUT_DEADLINE_MS, CHECKOUT_POLL_INTERVAL_MS } from './constants';

function status(state: CheckoutStatus['state'], goldCoins = 0): CheckoutStatus {
  return {
    checkoutId: 'co-1',
    packageId: 'coins-500',
    state,
    benefits: { chats: 5, goldCoins, userId: 'user-1' },
  };
}

const offline = () =>
  new NetworkError({
    method: 'GET',
    path: '/subscription/checkoutStatus',
    cause: new TypeError('offline'),
  });

/** A client whose checkoutStatus answers from `answers` in turn (the last repeats). */
function setup(answers: (() => CheckoutStatus)[]) {
  const checks: number[] = [];
  const start = Date.now();
  const checkoutStatus = vi.fn(async (query: { checkoutId: string }) => {
    expect(query).toEqual({ checkoutId: 'co-1' });
    checks.push(Date.now() - start);
    return answers[Math.min(checks.length - 1, answers.length - 1)]!();
  });
  const client = { subscription: { checkoutStatus } } as never;
  const actor = createActor(checkoutMachine, { input: { client, checkoutId: 'co-1' } });
  const paid: CheckoutStatus[] = [];
  actor.on('paid', (event) => paid.push(event.status));
  return { actor, checks, paid };
}

describe('checkoutMachine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks at once and every interval while open, and ends paid, emitting the new balances', async () => {
    const { actor, checks, paid } = setup([
      () => status('open'),
      () => status('open'),
      () => status('paid', 500),
    ]);
    actor.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(checks).toEqual([0]);
    await vi.advanceTimersByTimeAsync(2 * CHECKOUT_POLL_INTERVAL_MS);
    expect(checks).toEqual([0, CHECKOUT_POLL_INTERVAL_MS, 2 * CHECKOUT_POLL_INTERVAL_MS]);
    expect(actor.getSnapshot().value).toBe('paid');
    expect(actor.getSnapshot().output).toEqual(status('paid', 500));
    expect(paid).toEqual([status('paid', 500)]);
  });

  it.each(['cancelled', 'failed', 'expired'] as const)(
    'ends %s as the server says',
    async (end) => {
      const { actor, paid } = setup([() => status(end)]);
      actor.start();
      await vi.advanceTimersByTimeAsync(0);
      expect(actor.getSnapshot().value).toBe(end);
      expect(paid).toEqual([]);
    },
  );

  it('times out at the deadline while still open, and RETRY waits again', async () => {
    let state: CheckoutStatus['state'] = 'open';
    const { actor, checks } = setup([() => status(state, state === 'paid' ? 500 : 0)]);
    actor.start();
    await vi.advanceTimersByTimeAsync(CHECKOUT_DEADLINE_MS);
    expect(actor.getSnapshot().value).toBe('timedOut');
    const asked = checks.length;
    await vi.advanceTimersByTimeAsync(10 * CHECKOUT_POLL_INTERVAL_MS);
    expect(checks.length).toBe(asked); // no asking while timed out
    state = 'paid';
    actor.send({ type: 'RETRY' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('paid');
  });

  it('waits out network failures with a growing backoff', async () => {
    let calls = 0;
    const { actor, checks } = setup([
      () => {
        calls += 1;
        if (calls <= 2) throw offline();
        return status('paid', 500);
      },
    ]);
    actor.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toEqual({ polling: 'backingOff' });
    await vi.advanceTimersByTimeAsync(
      2 * CHECKOUT_POLL_INTERVAL_MS + 4 * CHECKOUT_POLL_INTERVAL_MS,
    );
    expect(checks).toEqual([0, 2 * CHECKOUT_POLL_INTERVAL_MS, 6 * CHECKOUT_POLL_INTERVAL_MS]);
    expect(actor.getSnapshot().value).toBe('paid');
  });

  it('ends in error on an answer from the server, and RETRY starts again', async () => {
    let refuse = true;
    const { actor } = setup([
      () => {
        if (refuse)
          throw new ApiError('Checkout not found.', {
            code: 4004,
            method: 'GET',
            path: '/subscription/checkoutStatus',
            status: 200,
          });
        return status('open');
      },
    ]);
    actor.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('error');
    expect(ApiError.isInstance(actor.getSnapshot().context.error)).toBe(true);
    refuse = false;
    actor.send({ type: 'RETRY' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toEqual({ polling: 'waiting' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('stops asking on STOP', async () => {
    const { actor, checks } = setup([() => status('open')]);
    actor.start();
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'STOP' });
    await vi.advanceTimersByTimeAsync(5 * CHECKOUT_POLL_INTERVAL_MS);
    expect(checks).toEqual([0]);
    expect(actor.getSnapshot().status).toBe('done');
  });
});
