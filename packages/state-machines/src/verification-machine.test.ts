import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import type { UserInfo, VerifyStatusResult } from '@mates/api-client';
import { verificationMachine } from './verification-machine';

const USER = { uuid: 'u1', token: 't', language: 'en' } as UserInfo;
const NOT_YET: VerifyStatusResult = { verified: false, userInfo: null };

function setup(
  answers: (() => Promise<VerifyStatusResult>)[],
  verifyTicket: string | undefined = 'tk',
) {
  const callTimes: number[] = [];
  const inputs: unknown[] = [];
  const start = Date.now();
  const machine = verificationMachine.provide({
    actors: {
      checkStatus: fromPromise(async ({ input }) => {
        callTimes.push(Date.now() - start);
        inputs.push({ email: input.email, verifyTicket: input.verifyTicket });
        const answer = answers[Math.min(callTimes.length - 1, answers.length - 1)]!;
        return answer();
      }),
    },
  });
  const storeUserInfo = vi.fn();
  const reload = vi.fn();
  const onVerified = vi.fn();
  const actor = createActor(machine, {
    input: {
      client: {} as never,
      email: 'new@example.com',
      verifyTicket,
      storeUserInfo,
      platform: { reload },
      onVerified,
    },
  });
  return { actor, callTimes, inputs, storeUserInfo, reload, onVerified };
}

describe('verificationMachine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('polls at 0, 2000 and 4000 ms, then stores, reloads and calls back once verified', async () => {
    const verified: VerifyStatusResult = { verified: true, userInfo: USER };
    const { actor, callTimes, inputs, storeUserInfo, reload, onVerified } = setup([
      async () => NOT_YET,
      async () => NOT_YET,
      async () => verified,
    ]);
    actor.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(callTimes).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1999);
    expect(callTimes).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(callTimes).toEqual([0, 2000]);
    await vi.advanceTimersByTimeAsync(2000);
    expect(callTimes).toEqual([0, 2000, 4000]);
    expect(inputs[0]).toEqual({ email: 'new@example.com', verifyTicket: 'tk' });
    expect(actor.getSnapshot().value).toBe('signedIn');
    expect(actor.getSnapshot().status).toBe('done');
    expect(storeUserInfo).toHaveBeenCalledWith(USER);
    expect(reload).toHaveBeenCalledOnce();
    expect(onVerified).toHaveBeenCalledWith(verified);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(callTimes).toHaveLength(3);
  });

  it('verified without user info (no ticket): calls back, no sign-in, no reload', async () => {
    const { actor, storeUserInfo, reload, onVerified } = setup(
      [async () => ({ verified: true, userInfo: null })],
      undefined,
    );
    actor.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('verified');
    expect(storeUserInfo).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
    expect(onVerified).toHaveBeenCalledWith({ verified: true, userInfo: null });
  });

  it('STOP stops polling', async () => {
    const { actor, callTimes, onVerified } = setup([async () => NOT_YET]);
    actor.start();
    await vi.advanceTimersByTimeAsync(2000);
    expect(callTimes).toEqual([0, 2000]);
    actor.send({ type: 'STOP' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(callTimes).toEqual([0, 2000]);
    expect(actor.getSnapshot().value).toBe('stopped');
    expect(onVerified).not.toHaveBeenCalled();
  });

  it('an error ends polling and rejects whoever started it', async () => {
    const failure = new Error('server error');
    const { actor, callTimes } = setup([async () => NOT_YET, async () => Promise.reject(failure)]);
    const finished = toPromise(actor.start());
    const outcome = finished.then(
      () => 'resolved',
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(2000);
    expect(await outcome).toBe(failure);
    expect(actor.getSnapshot().status).toBe('error');
    expect(actor.getSnapshot().error).toBe(failure);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(callTimes).toEqual([0, 2000]);
  });

  it('the default actor sends the ticket with the address', async () => {
    vi.useRealTimers();
    const verifyStatus = vi.fn(async () => ({ verified: true, userInfo: USER }));
    const actor = createActor(verificationMachine, {
      input: {
        client: { user: { verifyStatus } } as never,
        email: 'a@b.c',
        verifyTicket: 'tk-3',
        storeUserInfo: vi.fn(),
        platform: { reload: vi.fn() },
      },
    }).start();
    await toPromise(actor);
    expect(verifyStatus).toHaveBeenCalledWith(
      { email: 'a@b.c', verifyTicket: 'tk-3' },
      { signal: expect.any(AbortSignal) },
    );
  });
});
