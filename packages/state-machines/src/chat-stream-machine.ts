import { assertEvent, assign, fromCallback, setup } from 'xstate';
import { ApiError } from '@mates/api-client';
import type {
  ApiClient,
  ChatSendPayload,
  ChatStreamEvent,
  ChatUsage,
  Message,
  UserBenefits,
} from '@mates/api-client';
import type { Platform } from './platform';

/** What the chat stream needs. */
export interface ChatStreamInput {
  /** The API client (chat send). */
  client: Pick<ApiClient, 'girl'>;
  /** The room chatted in. */
  roomId: string;
  /** Records stream errors, which are never shown (docs/product.md, errors). */
  platform?: Pick<Platform, 'logError'>;
}

/** Events the chat stream accepts from its user. */
export type ChatStreamUserEvent =
  | { type: 'SEND'; content: string }
  | {
      type: 'REGENERATE';
      /**
       * Answer this user message instead of the last one, removing every message after it
       * (after editing an earlier message, the conversation continues from there).
       */
      fromMessageId?: string;
    }
  | { type: 'RETRY' }
  | { type: 'ABORT' };

/** Events the stream actor sends back; internal, but part of the machine's event type. */
export type ChatStreamInternalEvent =
  | { type: 'STREAM.EVENT'; event: ChatStreamEvent }
  | { type: 'STREAM.DONE' }
  | { type: 'STREAM.FAILED'; error: unknown };

/** What the chat stream holds: the request, and what has arrived of its reply. */
export interface ChatStreamContext extends ChatStreamInput {
  /** The last request sent, or `null` before the first. */
  request: ChatSendPayload | null;
  /** The user's message as the server saved it, once `reply-start` said so. */
  userMessage: Message | null;
  /** The id the reply is saved under, once known. */
  replyMessageId: string | null;
  /** The reply text so far. */
  replyText: string;
  /** Whether `reply-end` arrived: the reply is complete and saved. */
  ended: boolean;
  /** Tokens spent, from `reply-end`. */
  usage: ChatUsage | null;
  /** The caller's benefits after this reply, from `reply-end`. */
  benefits: UserBenefits | null;
  /** Why the reply failed (logged, not shown), or `null`. */
  error: string | null;
  /**
   * Why a refused send failed, in one word, when the server said so (`ApiError.reason`, e.g.
   * `model-missing`), for the screen to explain in its own words; otherwise `null`.
   */
  failureReason: string | null;
  /**
   * While `waiting`: the server's word on why the message could not go yet (the model is still
   * loading), in the person's language, and how long until it is sent again (ms).
   */
  waiting: { message: string; retryInMs: number } | null;
}

const IDLE_REPLY = {
  userMessage: null,
  replyMessageId: null,
  replyText: '',
  ended: false,
  usage: null,
  benefits: null,
  error: null,
  failureReason: null,
  waiting: null,
} satisfies Partial<ChatStreamContext>;

/**
 * Runs one `chatSend`, sending its events back; leaving the state aborts it. Shared with the
 * group chat machine (not exported from the package).
 */
export const streamReply = fromCallback<
  ChatStreamUserEvent,
  { client: Pick<ApiClient, 'girl'>; request: ChatSendPayload }
>(({ input, sendBack }) => {
  const controller = new AbortController();
  input.client.girl
    .chatSend(input.request, {
      signal: controller.signal,
      onData: (event) => sendBack({ type: 'STREAM.EVENT', event }),
    })
    .then(
      () => sendBack({ type: 'STREAM.DONE' }),
      (error: unknown) => {
        if (!controller.signal.aborted) sendBack({ type: 'STREAM.FAILED', error });
      },
    );
  return () => controller.abort();
});

/**
 * One room's reply stream: idle → sending → streaming (deltas appended) → done. `ABORT`
 * cancels the request and keeps what arrived (`aborted`); a stream error is logged and keeps
 * what arrived (`failed`); `REGENERATE` replaces the last reply; `RETRY` sends the failed
 * request again (as a regenerate once the user's message was saved). A refusal that passes by
 * itself (`Retry-After`: the model is still loading) is `waiting`, and the request goes again
 * when the wait is over, until `ABORT`. The `busy` tag marks sending, streaming and waiting;
 * `waiting` marks the wait.
 */
export const chatStreamMachine = setup({
  types: {
    context: {} as ChatStreamContext,
    input: {} as ChatStreamInput,
    events: {} as ChatStreamUserEvent | ChatStreamInternalEvent,
  },
  actors: { streamReply },
  guards: {
    hasContent: ({ event }) => event.type === 'SEND' && event.content.trim() !== '',
    isReplyStart: ({ event }) =>
      event.type === 'STREAM.EVENT' && event.event.type === 'reply-start',
    isReplyError: ({ event }) => event.type === 'STREAM.EVENT' && event.event.type === 'error',
    hasEnded: ({ context }) => context.ended,
    /** Refused before anything was kept, by something that passes (a model still loading). */
    isPassingRefusal: ({ context, event }) =>
      event.type === 'STREAM.FAILED' &&
      !context.userMessage &&
      ApiError.isInstance(event.error) &&
      event.error.retryAfterMs !== null,
  },
  delays: {
    retryDelay: ({ context }) => context.waiting?.retryInMs ?? 0,
  },
  actions: {
    sendMessage: assign(({ context, event }) => {
      assertEvent(event, 'SEND');
      return { ...IDLE_REPLY, request: { roomId: context.roomId, content: event.content } };
    }),
    regenerate: assign(({ context, event }) => {
      assertEvent(event, 'REGENERATE');
      const { fromMessageId } = event;
      return {
        ...IDLE_REPLY,
        request: {
          roomId: context.roomId,
          regenerate: true as const,
          ...(fromMessageId ? { fromMessageId } : {}),
        },
      };
    }),
    retry: assign(({ context }) => ({
      ...IDLE_REPLY,
      // Once the server saved the user's message, sending it again would duplicate it.
      request:
        context.userMessage || !context.request
          ? { roomId: context.roomId, regenerate: true as const }
          : context.request,
    })),
    applyStreamEvent: assign(({ context, event }) => {
      assertEvent(event, 'STREAM.EVENT');
      const data = event.event;
      switch (data.type) {
        case 'reply-start':
          return { userMessage: data.userMessage, replyMessageId: data.messageId };
        case 'reply-delta':
          return { replyText: context.replyText + data.text };
        case 'reply-end':
          return {
            ended: true,
            replyMessageId: data.messageId,
            usage: data.usage,
            benefits: data.benefits,
          };
        case 'error':
          return { error: data.message, replyMessageId: data.messageId ?? context.replyMessageId };
        case 'message-saved':
          // A group's event (nobody answers on their own); a one-to-one room never sends it.
          return { userMessage: data.userMessage };
      }
    }),
    noteWaiting: assign(({ event }) => {
      assertEvent(event, 'STREAM.FAILED');
      const error = event.error as ApiError;
      // At least a second between asks, at most half a minute.
      const retryInMs = Math.min(Math.max(error.retryAfterMs ?? 0, 1000), 30_000);
      return { waiting: { message: error.message, retryInMs } };
    }),
    clearWaiting: assign({ waiting: null }),
    noteCancelled: assign({ error: 'Cancelled while waiting to send.' }),
    noteEarlyEnd: assign({ error: 'The reply ended before it was complete.' }),
    noteFailure: assign(({ event }) => {
      assertEvent(event, 'STREAM.FAILED');
      return {
        error: event.error instanceof Error ? event.error.message : String(event.error),
        failureReason: ApiError.isInstance(event.error) ? event.error.reason : null,
      };
    }),
    logFailure: ({ context }) =>
      context.platform?.logError('chat reply failed', new Error(context.error ?? 'unknown')),
  },
}).createMachine({
  id: 'chatStream',
  context: ({ input }) => ({ ...input, ...IDLE_REPLY, request: null }),
  initial: 'idle',
  states: {
    idle: {
      // A room opened on an earlier conversation can have its last reply regenerated at once.
      on: {
        SEND: { guard: 'hasContent', target: 'active', actions: 'sendMessage' },
        REGENERATE: { target: 'active', actions: 'regenerate' },
      },
    },
    active: {
      tags: 'busy',
      invoke: {
        id: 'streamReply',
        src: 'streamReply',
        input: ({ context }) => ({ client: context.client, request: context.request! }),
      },
      initial: 'sending',
      on: {
        ABORT: 'aborted',
        'STREAM.FAILED': [
          { guard: 'isPassingRefusal', target: 'waiting', actions: 'noteWaiting' },
          { target: 'failed', actions: ['noteFailure', 'logFailure'] },
        ],
      },
      states: {
        sending: {
          on: {
            'STREAM.EVENT': [
              { guard: 'isReplyStart', target: 'streaming', actions: 'applyStreamEvent' },
              {
                guard: 'isReplyError',
                target: '#chatStream.failed',
                actions: ['applyStreamEvent', 'logFailure'],
              },
            ],
            'STREAM.DONE': {
              target: '#chatStream.failed',
              actions: ['noteEarlyEnd', 'logFailure'],
            },
          },
        },
        streaming: {
          on: {
            'STREAM.EVENT': [
              {
                guard: 'isReplyError',
                target: '#chatStream.failed',
                actions: ['applyStreamEvent', 'logFailure'],
              },
              { actions: 'applyStreamEvent' },
            ],
            'STREAM.DONE': [
              { guard: 'hasEnded', target: '#chatStream.done' },
              { target: '#chatStream.failed', actions: ['noteEarlyEnd', 'logFailure'] },
            ],
          },
        },
      },
    },
    waiting: {
      // Nothing was kept or spent: the same request goes again once the wait is over. `ABORT`
      // gives up (`failed`, with the request, so its words can go back where they were typed).
      tags: ['busy', 'waiting'],
      after: { retryDelay: { target: 'active', actions: 'clearWaiting' } },
      on: {
        ABORT: { target: 'failed', actions: ['clearWaiting', 'noteCancelled'] },
      },
    },
    done: {
      on: {
        SEND: { guard: 'hasContent', target: 'active', actions: 'sendMessage' },
        REGENERATE: { target: 'active', actions: 'regenerate' },
      },
    },
    failed: {
      on: {
        SEND: { guard: 'hasContent', target: 'active', actions: 'sendMessage' },
        REGENERATE: { target: 'active', actions: 'regenerate' },
        RETRY: { target: 'active', actions: 'retry' },
      },
    },
    aborted: {
      on: {
        SEND: { guard: 'hasContent', target: 'active', actions: 'sendMessage' },
        REGENERATE: { target: 'active', actions: 'regenerate' },
        RETRY: { target: 'active', actions: 'retry' },
      },
    },
  },
});
