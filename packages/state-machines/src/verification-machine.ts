import { assign, fromPromise, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import type { ApiClient, UserInfo, VerifyStatusResult } from '@mates/api-client';
import { POLL_INTERVAL_MS } from './constants';
import type { Platform } from './platform';

/** What the verification poller needs. */
export interface VerificationInput {
  /** The API client (verify status). */
  client: Pick<ApiClient, 'user'>;
  /** The address that signed up (the user store's `registerEmail`). */
  email: string;
  /** The ticket register gave (the user store's `verifyTicket`); without it no sign-in. */
  verifyTicket?: string;
  /** Keeps the returned user info (the user store's `userInfoChanged`). */
  storeUserInfo: (userInfo: UserInfo) => void;
  /** Reload. */
  platform: Pick<Platform, 'reload'>;
  /** Called once the address is verified, with what the server answered. */
  onVerified?: (result: VerifyStatusResult) => void;
}

/** Events the verification poller accepts. */
export type VerificationEvent = { type: 'STOP' };

interface VerificationContext extends VerificationInput {
  /** How many times verify-status has been called. */
  attempts: number;
}

/**
 * Polls verify-status every {@link POLL_INTERVAL_MS} until the address is verified
 * (docs/product.md, transitions). Verified with user info: stores it, reloads, calls back
 * (`signedIn`).
 * Verified without (no ticket, or another browser): calls back (`verified`). `STOP` stops.
 * An error ends polling and is rethrown: the actor ends with status `error` carrying it.
 */
export const verificationMachine = setup({
  types: {
    context: {} as VerificationContext,
    input: {} as VerificationInput,
    events: {} as VerificationEvent,
  },
  actors: {
    checkStatus: fromPromise<VerifyStatusResult, VerificationContext>(({ input, signal }) =>
      input.client.user.verifyStatus(
        input.verifyTicket
          ? { email: input.email, verifyTicket: input.verifyTicket }
          : { email: input.email },
        { signal },
      ),
    ),
  },
  delays: { pollInterval: POLL_INTERVAL_MS },
  guards: {
    signedIn: (_, result: VerifyStatusResult) => result.verified && result.userInfo !== null,
    verified: (_, result: VerifyStatusResult) => result.verified,
  },
  actions: {
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
    storeUserInfo: ({ context }, result: VerifyStatusResult) => {
      if (result.userInfo) context.storeUserInfo(result.userInfo);
    },
    reload: ({ context }) => context.platform.reload(),
    callBack: ({ context }, result: VerifyStatusResult) => context.onVerified?.(result),
    rethrow: (_, error: unknown) => {
      throw error;
    },
  },
}).createMachine({
  id: 'verification',
  context: ({ input }) => ({ ...input, attempts: 0 }),
  initial: 'checking',
  on: { STOP: '.stopped' },
  states: {
    checking: {
      entry: 'countAttempt',
      invoke: {
        id: 'checkStatus',
        src: 'checkStatus',
        input: ({ context }) => context,
        onDone: [
          {
            guard: { type: 'signedIn', params: output },
            target: 'signedIn',
            actions: [
              { type: 'storeUserInfo', params: output },
              'reload',
              { type: 'callBack', params: output },
            ],
          },
          {
            guard: { type: 'verified', params: output },
            target: 'verified',
            actions: { type: 'callBack', params: output },
          },
          { target: 'waiting' },
        ],
        onError: {
          target: 'failed',
          actions: {
            type: 'rethrow',
            params: ({ event }: { event: ErrorActorEvent }) => event.error,
          },
        },
      },
    },
    waiting: {
      after: { pollInterval: 'checking' },
    },
    signedIn: { type: 'final' },
    verified: { type: 'final' },
    stopped: { type: 'final' },
    failed: { type: 'final' },
  },
});

function output({ event }: { event: DoneActorEvent<VerifyStatusResult> }): VerifyStatusResult {
  return event.output;
}
