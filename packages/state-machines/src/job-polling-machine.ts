import {
  assign,
  emit,
  fromPromise,
  setup,
  type DoneActorEvent,
  type ErrorActorEvent,
} from 'xstate';
import { NetworkError, type ApiClient, type JobStatus } from '@mates/api-client';
import {
  IMAGE_POLL_INTERVAL_MS,
  IMAGE_POLL_MAX_BACKOFF_MS,
  IMAGE_POLL_MAX_RETRIES,
} from './constants';

/** What the picture-job poller needs. */
export interface JobPollingInput {
  /** The API client (`checkJobStatus`, `cancelImage`). */
  client: Pick<ApiClient, 'room'>;
  /** The job to follow, from `POST /room/createImage` or a message's `image.jobId`. */
  jobId: string;
  /** Milliseconds between asks; default {@link IMAGE_POLL_INTERVAL_MS}. */
  intervalMs?: number;
}

/** Events the picture-job poller accepts: `CANCEL` asks the server to stop the job; `STOP` only stops asking. */
export type JobPollingEvent = { type: 'CANCEL' } | { type: 'STOP' };

/** What the picture-job poller emits: each status it got, while the job moves. */
export interface JobProgressEmitted {
  /** Always `progress`. */
  type: 'progress';
  /** The status as the server answered it. */
  status: JobStatus;
}

/** What the picture-job poller keeps. */
export interface JobPollingContext {
  /** The API client. */
  client: Pick<ApiClient, 'room'>;
  /** The job. */
  jobId: string;
  /** Milliseconds between asks. */
  intervalMs: number;
  /** The last status the server answered, or `null` before the first. */
  status: JobStatus | null;
  /** Network failures in a row (0 after any answer). */
  failures: number;
  /** What ended polling when it was not the job's own end (an API error, too many failures). */
  error: unknown;
}

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

/**
 * Follows one picture job: asks `GET /room/checkJobStatus` at once, then every
 * {@link IMAGE_POLL_INTERVAL_MS}, emitting `progress` with each answer, and ends in
 * `succeeded`, `failed` or `cancelled` with the job (the final status is the output).
 * A network failure waits longer each time (doubling, at most {@link IMAGE_POLL_MAX_BACKOFF_MS})
 * and gives up in `error` after {@link IMAGE_POLL_MAX_RETRIES} in a row; any other error ends
 * in `error` at once. `CANCEL` sends `POST /room/cancelImage` (the coins come back) and ends
 * in `cancelled`, or in the job's own end if it finished first; `STOP` stops asking.
 */
export const jobPollingMachine = setup({
  types: {
    context: {} as JobPollingContext,
    input: {} as JobPollingInput,
    events: {} as JobPollingEvent,
    emitted: {} as JobProgressEmitted,
    output: {} as JobStatus | null,
  },
  actors: {
    checkStatus: fromPromise<JobStatus, JobPollingContext>(({ input, signal }) =>
      input.client.room.checkJobStatus({ jobId: input.jobId }, { signal }),
    ),
    cancelJob: fromPromise<JobStatus, JobPollingContext>(({ input, signal }) =>
      input.client.room.cancelImage({ jobId: input.jobId }, { signal }),
    ),
  },
  delays: {
    pollInterval: ({ context }) => context.intervalMs,
    backoff: ({ context }) =>
      Math.min(context.intervalMs * 2 ** context.failures, IMAGE_POLL_MAX_BACKOFF_MS),
  },
  guards: {
    ended: (_, status: JobStatus) => TERMINAL.has(status.state),
    succeeded: ({ context }) => context.status?.state === 'succeeded',
    failed: ({ context }) => context.status?.state === 'failed',
    retryable: ({ context }, error: unknown) =>
      NetworkError.isInstance(error) && context.failures < IMAGE_POLL_MAX_RETRIES,
  },
  actions: {
    keep: assign((_, status: JobStatus) => ({ status, failures: 0 })),
    report: emit((_, status: JobStatus) => ({ type: 'progress' as const, status })),
    countFailure: assign({ failures: ({ context }) => context.failures + 1 }),
    keepError: assign((_, error: unknown) => ({ error })),
  },
}).createMachine({
  id: 'jobPolling',
  context: ({ input }) => ({
    client: input.client,
    jobId: input.jobId,
    intervalMs: input.intervalMs ?? IMAGE_POLL_INTERVAL_MS,
    status: null,
    failures: 0,
    error: null,
  }),
  initial: 'checking',
  on: { STOP: '.stopped' },
  output: ({ context }) => context.status,
  states: {
    checking: {
      on: { CANCEL: 'cancelling' },
      invoke: {
        src: 'checkStatus',
        input: ({ context }) => context,
        onDone: [
          {
            guard: { type: 'ended', params: output },
            target: 'ended',
            actions: [
              { type: 'keep', params: output },
              { type: 'report', params: output },
            ],
          },
          {
            target: 'waiting',
            actions: [
              { type: 'keep', params: output },
              { type: 'report', params: output },
            ],
          },
        ],
        onError: [
          {
            guard: { type: 'retryable', params: failure },
            target: 'backingOff',
            actions: 'countFailure',
          },
          { target: 'error', actions: { type: 'keepError', params: failure } },
        ],
      },
    },
    waiting: {
      on: { CANCEL: 'cancelling' },
      after: { pollInterval: 'checking' },
    },
    backingOff: {
      on: { CANCEL: 'cancelling' },
      after: { backoff: 'checking' },
    },
    cancelling: {
      invoke: {
        src: 'cancelJob',
        input: ({ context }) => context,
        onDone: {
          target: 'ended',
          actions: [
            { type: 'keep', params: output },
            { type: 'report', params: output },
          ],
        },
        onError: { target: 'error', actions: { type: 'keepError', params: failure } },
      },
    },
    ended: {
      always: [
        { guard: 'succeeded', target: 'succeeded' },
        { guard: 'failed', target: 'failed' },
        { target: 'cancelled' },
      ],
    },
    succeeded: { type: 'final' },
    failed: { type: 'final' },
    cancelled: { type: 'final' },
    stopped: { type: 'final' },
    error: { type: 'final' },
  },
});

function output({ event }: { event: DoneActorEvent<JobStatus> }): JobStatus {
  return event.output;
}

function failure({ event }: { event: ErrorActorEvent }): unknown {
  return event.error;
}
