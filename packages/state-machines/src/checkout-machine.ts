import {
  assign,
  emit,
  fromPromise,
  setup,
  type DoneActorEvent,
  type ErrorActorEvent,
} from 'xstate';
import { NetworkError, type ApiClient, type CheckoutStatus } from '@mates/api-client';
import {
  CHECKOUT_DEADLINE_MS,
  CHECKOUT_POLL_INTERVAL_MS,
  IMAGE_POLL_MAX_BACKOFF_MS,
} from './constants';

/** What the checkout poller needs. */
export interface CheckoutInput {
  /** The API client (`subscription.checkoutStatus`). */
  client: Pick<ApiClient, 'subscription'>;
  /** The checkout, from `POST /subscription/checkout` (and the return address). */
  checkoutId: string;
  /** Milliseconds between asks; default {@link CHECKOUT_POLL_INTERVAL_MS}. */
  intervalMs?: number;
  /** How long to wait for a confirmation; default {@link CHECKOUT_DEADLINE_MS}. */
  deadlineMs?: number;
}

/** Events the checkout poller accepts: `RETRY` waits again after a timeout or an error; `STOP` stops asking. */
export type CheckoutEvent = { type: 'RETRY' } | { type: 'STOP' };

/** What the checkout poller emits once the payment is confirmed: the benefits granted. */
export interface CheckoutPaidEmitted {
  /** Always `paid`. */
  type: 'paid';
  /** The checkout as the server answered it, `benefits` the balances after the grant. */
  status: CheckoutStatus;
}

/** What the checkout poller keeps. */
export interface CheckoutContext {
  /** The API client. */
  client: Pick<ApiClient, 'subscription'>;
  /** The checkout. */
  checkoutId: string;
  /** Milliseconds between asks. */
  intervalMs: number;
  /** How long to wait for a confirmation. */
  deadlineMs: number;
  /** The last status the server answered, or `null` before the first. */
  status: CheckoutStatus | null;
  /** Network failures in a row (0 after any answer). */
  failures: number;
  /** What ended polling when it was not the checkout's own end (an API error). */
  error: unknown;
}

/**
 * Waits for a payment to be confirmed: asks `GET /subscription/checkoutStatus` at once, then
 * every {@link CHECKOUT_POLL_INTERVAL_MS}, while the checkout is `open`, and ends in `paid`
 * (emitting `paid` with the new balances), `cancelled`, `failed` or `expired` as the server
 * says. The provider confirms a payment through its webhook, usually within seconds; past
 * {@link CHECKOUT_DEADLINE_MS} the poller ends in `timedOut` (the payment may still arrive:
 * `RETRY` waits again). A network failure waits longer each time, doubling; any other error
 * ends in `error`, which `RETRY` also leaves. `STOP` stops asking.
 */
export const checkoutMachine = setup({
  types: {
    context: {} as CheckoutContext,
    input: {} as CheckoutInput,
    events: {} as CheckoutEvent,
    emitted: {} as CheckoutPaidEmitted,
    output: {} as CheckoutStatus | null,
  },
  actors: {
    checkStatus: fromPromise<CheckoutStatus, CheckoutContext>(({ input, signal }) =>
      input.client.subscription.checkoutStatus({ checkoutId: input.checkoutId }, { signal }),
    ),
  },
  delays: {
    pollInterval: ({ context }) => context.intervalMs,
    deadline: ({ context }) => context.deadlineMs,
    backoff: ({ context }) =>
      Math.min(context.intervalMs * 2 ** context.failures, IMAGE_POLL_MAX_BACKOFF_MS),
  },
  guards: {
    open: (_, status: CheckoutStatus) => status.state === 'open',
    retryable: (_, error: unknown) => NetworkError.isInstance(error),
    paid: ({ context }) => context.status?.state === 'paid',
    cancelled: ({ context }) => context.status?.state === 'cancelled',
    failed: ({ context }) => context.status?.state === 'failed',
  },
  actions: {
    keep: assign((_, status: CheckoutStatus) => ({ status, failures: 0 })),
    announcePaid: emit(({ context }) => ({ type: 'paid' as const, status: context.status! })),
    countFailure: assign({ failures: ({ context }) => context.failures + 1 }),
    keepError: assign((_, error: unknown) => ({ error })),
    forget: assign({ failures: 0, error: null }),
  },
}).createMachine({
  id: 'checkout',
  context: ({ input }) => ({
    client: input.client,
    checkoutId: input.checkoutId,
    intervalMs: input.intervalMs ?? CHECKOUT_POLL_INTERVAL_MS,
    deadlineMs: input.deadlineMs ?? CHECKOUT_DEADLINE_MS,
    status: null,
    failures: 0,
    error: null,
  }),
  initial: 'polling',
  on: { STOP: '.stopped' },
  output: ({ context }) => context.status,
  states: {
    polling: {
      after: { deadline: 'timedOut' },
      initial: 'checking',
      states: {
        checking: {
          invoke: {
            src: 'checkStatus',
            input: ({ context }) => context,
            onDone: [
              {
                guard: { type: 'open', params: output },
                target: 'waiting',
                actions: { type: 'keep', params: output },
              },
              { target: '#checkout.ended', actions: { type: 'keep', params: output } },
            ],
            onError: [
              {
                guard: { type: 'retryable', params: failure },
                target: 'backingOff',
                actions: 'countFailure',
              },
              { target: '#checkout.error', actions: { type: 'keepError', params: failure } },
            ],
          },
        },
        waiting: { after: { pollInterval: 'checking' } },
        backingOff: { after: { backoff: 'checking' } },
      },
    },
    ended: {
      always: [
        { guard: 'paid', target: 'paid', actions: 'announcePaid' },
        { guard: 'cancelled', target: 'cancelled' },
        { guard: 'failed', target: 'failed' },
        { target: 'expired' },
      ],
    },
    paid: { type: 'final' },
    cancelled: { type: 'final' },
    failed: { type: 'final' },
    expired: { type: 'final' },
    timedOut: { on: { RETRY: { target: 'polling', actions: 'forget' } } },
    error: { on: { RETRY: { target: 'polling', actions: 'forget' } } },
    stopped: { type: 'final' },
  },
});

function output({ event }: { event: DoneActorEvent<CheckoutStatus> }): CheckoutStatus {
  return event.output;
}

function failure({ event }: { event: ErrorActorEvent }): unknown {
  return event.error;
}
