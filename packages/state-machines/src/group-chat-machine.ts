import { assertEvent, assign, setup } from 'xstate';
import { ApiError, GROUP_LIMITS } from '@mates/api-client';
import type { ChatSendPayload, ChatStreamEvent } from '@mates/api-client';
import { streamReply } from './chat-stream-machine';
import type {
  ChatStreamContext,
  ChatStreamInput,
  ChatStreamInternalEvent,
  ChatStreamUserEvent,
} from './chat-stream-machine';

/** What the group chat needs: the same as a one-to-one chat stream. */
export type GroupChatInput = ChatStreamInput;

/** Events the group chat accepts from its user: a one-to-one chat's, and two of its own. */
export type GroupChatUserEvent =
  | ChatStreamUserEvent
  // "Continue": one more reply by the next speaker by the group's order.
  | { type: 'CONTINUE' }
  // "Let X speak": one more reply by this member, muted or not.
  | { type: 'LET_SPEAK'; speakerId: string };

/** One reply of this turn that ended whole: saved by the server under `messageId`. */
export interface GroupReply {
  /** The id it is saved under. */
  messageId: string;
  /** Who wrote it (absent in a one-to-one room). */
  speakerId: string | null;
  /** Its text. */
  text: string;
}

/**
 * What the group chat holds. The fields of a one-to-one chat stream describe the reply being
 * written now (`replyText` is the current speaker's); `replies` are those this turn finished.
 */
export interface GroupChatContext extends ChatStreamContext {
  /** Who writes the current reply, once its `reply-start` said so; `null` before. */
  speakerId: string | null;
  /** The replies of this turn that ended whole, in the order they were written. */
  replies: GroupReply[];
  /** Whether any `reply-start` arrived this turn: the server kept something. */
  started: boolean;
  /**
   * "Continue"s and "Let X speak"s sent since the person's last message (this session's): at
   * {@link GROUP_LIMITS}`.continuesInRow` the mates wait for the person.
   */
  nextsInRow: number;
}

const IDLE_TURN = {
  userMessage: null,
  replyMessageId: null,
  replyText: '',
  ended: false,
  usage: null,
  benefits: null,
  error: null,
  failureReason: null,
  waiting: null,
  speakerId: null,
  replies: [],
  started: false,
} satisfies Partial<GroupChatContext>;

/** The current reply's fields once it ended: kept in `replies`. */
function finished(context: GroupChatContext): GroupReply[] {
  if (!context.ended || !context.replyMessageId) return context.replies;
  return [
    ...context.replies,
    { messageId: context.replyMessageId, speakerId: context.speakerId, text: context.replyText },
  ];
}

/** Applies one streamed event to the turn; a later `reply-start` begins the next speaker's. */
function applied(context: GroupChatContext, data: ChatStreamEvent): Partial<GroupChatContext> {
  switch (data.type) {
    case 'reply-start':
      return {
        replies: finished(context),
        // Only the turn's first reply carries the person's message; later ones say `null`.
        userMessage: context.userMessage ?? data.userMessage,
        replyMessageId: data.messageId,
        speakerId: data.speakerId ?? null,
        replyText: '',
        ended: false,
        started: true,
      };
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
      // Nobody answers on their own (manual order, or all muted): the turn is whole as it is.
      return { userMessage: data.userMessage, started: true, ended: true };
  }
}

/** The request that sends a turn again: the same one, unless the server kept part of it. */
function retried(context: GroupChatContext): ChatSendPayload {
  // Once a reply began, the person's message is saved (sending it again would duplicate it)
  // and the failed reply is there to write again, by the same speaker.
  return context.started || !context.request
    ? { roomId: context.roomId, regenerate: true }
    : context.request;
}

const START_EVENTS = {
  SEND: { guard: 'hasContent', target: 'active', actions: 'sendMessage' },
  CONTINUE: { guard: 'mayGoOn', target: 'active', actions: 'goOn' },
  LET_SPEAK: { guard: 'mayLetSpeak', target: 'active', actions: 'goOn' },
  REGENERATE: { target: 'active', actions: 'regenerate' },
} as const;

/**
 * A group chat's turns: one stream carries the person's message, then each speaker's reply in
 * turn (`reply-start` with its `speakerId`, deltas, `reply-end`), until the stream ends. The
 * current speaker and its text are in `speakerId` and `replyText`, the replies that ended in
 * `replies`; a message nobody answers on their own (`message-saved`: manual order, all muted)
 * ends the turn with none. `SEND` writes a message; `CONTINUE` asks the next speaker by the group's order,
 * `LET_SPEAK` a named member (each without a message of the person, at most
 * `GROUP_LIMITS.continuesInRow` in a row); `REGENERATE` writes the last reply again, by the
 * same speaker; `ABORT` stops the current speaker and the turn (the server keeps what
 * arrived); an `error` event or a broken stream ends the turn (`failed`) with the replies that
 * ended kept; `RETRY` sends it again. States, tags (`busy`, `waiting`) and the wait for a
 * model still loading are those of `chatStreamMachine`, so a one-to-one room (one reply, no
 * speaker) runs on it the same way.
 */
export const groupChatMachine = setup({
  types: {
    context: {} as GroupChatContext,
    input: {} as GroupChatInput,
    events: {} as GroupChatUserEvent | ChatStreamInternalEvent,
  },
  actors: { streamReply },
  guards: {
    hasContent: ({ event }) => event.type === 'SEND' && event.content.trim() !== '',
    mayGoOn: ({ context }) => context.nextsInRow < GROUP_LIMITS.continuesInRow,
    mayLetSpeak: ({ context, event }) =>
      event.type === 'LET_SPEAK' &&
      event.speakerId !== '' &&
      context.nextsInRow < GROUP_LIMITS.continuesInRow,
    isReplyStart: ({ event }) =>
      event.type === 'STREAM.EVENT' &&
      (event.event.type === 'reply-start' || event.event.type === 'message-saved'),
    isReplyError: ({ event }) => event.type === 'STREAM.EVENT' && event.event.type === 'error',
    hasEnded: ({ context }) => context.ended,
    /** Refused before anything was kept, by something that passes (a model still loading). */
    isPassingRefusal: ({ context, event }) =>
      event.type === 'STREAM.FAILED' &&
      !context.started &&
      ApiError.isInstance(event.error) &&
      event.error.retryAfterMs !== null,
  },
  delays: {
    retryDelay: ({ context }) => context.waiting?.retryInMs ?? 0,
  },
  actions: {
    sendMessage: assign(({ context, event }) => {
      assertEvent(event, 'SEND');
      return {
        ...IDLE_TURN,
        nextsInRow: 0,
        request: { roomId: context.roomId, content: event.content },
      };
    }),
    goOn: assign(({ context, event }) => {
      assertEvent(event, ['CONTINUE', 'LET_SPEAK']);
      return {
        ...IDLE_TURN,
        nextsInRow: context.nextsInRow + 1,
        request: {
          roomId: context.roomId,
          next: true as const,
          ...(event.type === 'LET_SPEAK' ? { speakerId: event.speakerId } : {}),
        },
      };
    }),
    regenerate: assign(({ context, event }) => {
      assertEvent(event, 'REGENERATE');
      const { fromMessageId } = event;
      return {
        ...IDLE_TURN,
        // An edited message answered again is the person's: the "Continue"s after it are gone.
        ...(fromMessageId ? { nextsInRow: 0 } : {}),
        request: {
          roomId: context.roomId,
          regenerate: true as const,
          ...(fromMessageId ? { fromMessageId } : {}),
        },
      };
    }),
    retry: assign(({ context }) => ({ ...IDLE_TURN, request: retried(context) })),
    applyStreamEvent: assign(({ context, event }) => {
      assertEvent(event, 'STREAM.EVENT');
      return applied(context, event.event);
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
      context.platform?.logError('group chat reply failed', new Error(context.error ?? 'unknown')),
  },
}).createMachine({
  id: 'groupChat',
  context: ({ input }) => ({ ...input, ...IDLE_TURN, request: null, nextsInRow: 0 }),
  initial: 'idle',
  states: {
    idle: { on: START_EVENTS },
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
                target: '#groupChat.failed',
                actions: ['applyStreamEvent', 'logFailure'],
              },
            ],
            'STREAM.DONE': {
              target: '#groupChat.failed',
              actions: ['noteEarlyEnd', 'logFailure'],
            },
          },
        },
        streaming: {
          on: {
            'STREAM.EVENT': [
              {
                guard: 'isReplyError',
                target: '#groupChat.failed',
                actions: ['applyStreamEvent', 'logFailure'],
              },
              { actions: 'applyStreamEvent' },
            ],
            'STREAM.DONE': [
              { guard: 'hasEnded', target: '#groupChat.done' },
              { target: '#groupChat.failed', actions: ['noteEarlyEnd', 'logFailure'] },
            ],
          },
        },
      },
    },
    waiting: {
      // Nothing was kept or spent: the same request goes again once the wait is over.
      tags: ['busy', 'waiting'],
      after: { retryDelay: { target: 'active', actions: 'clearWaiting' } },
      on: {
        ABORT: { target: 'failed', actions: ['clearWaiting', 'noteCancelled'] },
      },
    },
    done: { on: START_EVENTS },
    failed: { on: { ...START_EVENTS, RETRY: { target: 'active', actions: 'retry' } } },
    aborted: { on: { ...START_EVENTS, RETRY: { target: 'active', actions: 'retry' } } },
  },
});
