import {
  and,
  assign,
  fromCallback,
  fromPromise,
  not,
  sendTo,
  setup,
  stateIn,
  type ErrorActorEvent,
  type EventObject,
} from 'xstate';
import type {
  CallClientMessage,
  CallEndReason,
  CallSentence,
  CallServerMessage,
  CallSocketClose,
  CallTicket,
  CallTranscriber,
} from '@mates/api-client';

/** The open socket of a call, as {@link CallConnector} answers it (e.g. `openCallSocket`'s). */
export interface CallConnection {
  /** Sends a JSON message. */
  send(message: CallClientMessage): void;
  /** Sends one utterance (16 kHz mono samples) as audio. */
  sendUtterance(samples: Float32Array): void;
  /** Closes the socket from this side. */
  close(): void;
}

/** What the socket tells the machine; each handler is called in the socket's order. */
export interface CallConnectionHandlers {
  onMessage: (message: CallServerMessage) => void;
  onSentence: (sentence: CallSentence, audio: ArrayBuffer) => void;
  onClose: (close: CallSocketClose) => void;
}

/** Opens a call's socket from its ticket (in a browser: `openCallSocket` of `@mates/api-client`). */
export type CallConnector = (
  ticket: CallTicket,
  handlers: CallConnectionHandlers,
) => CallConnection;

/** What the microphone tells the machine. */
export interface CallMicrophoneHandlers {
  /** The microphone is live (the person allowed it). */
  onReady: () => void;
  /** The microphone could not be opened (denied, missing). */
  onDenied: (error: unknown) => void;
  /** Voice activity detection heard speech begin. */
  onSpeechStart: () => void;
  /** The person paused long enough: their utterance, 16 kHz mono samples. */
  onSpeechEnd: (samples: Float32Array) => void;
  /** What began as speech was too short to be an utterance (a cough, a click). */
  onMisfire: () => void;
  /** With `transcriber: 'browser'`: what the browser's recognition wrote of an utterance. */
  onText: (text: string) => void;
}

/**
 * The microphone and voice activity detection (and, for `transcriber: 'browser'`, the
 * browser's speech recognition). `start` asks for the microphone and reports through the
 * handlers; it answers how to mute (stop listening, not release the device) and stop.
 */
export interface CallMicrophone {
  start(options: { transcriber: CallTranscriber } & CallMicrophoneHandlers): {
    setMuted(muted: boolean): void;
    stop(): void;
  };
}

/** One sentence of a reply, waiting to play or playing. */
export interface CallClip {
  messageId: string;
  /** 0-based position in the reply. */
  index: number;
  text: string;
  mimeType: string;
  audio: ArrayBuffer;
}

/**
 * Plays one clip; reports its end or a failure through `handlers`, once, never after it was
 * stopped. Answers how to stop it at once (a barge-in, a hang-up).
 */
export interface CallPlayer {
  play(
    clip: CallClip,
    handlers: { onEnded: () => void; onError: (error: unknown) => void },
  ): () => void;
}

/** What {@link callMachine} needs: the room, and its effects (injected, so it runs anywhere). */
export interface CallMachineInput {
  /** The room to call. */
  roomId: string;
  /** Asks for a ticket (`POST /call/start`). */
  start: (roomId: string, signal: AbortSignal) => Promise<CallTicket>;
  /** Opens the socket. */
  connect: CallConnector;
  /** The microphone and voice activity detection. */
  microphone: CallMicrophone;
  /** Plays the mate's sentences. */
  player: CallPlayer;
  /** How many captions to keep; default 6. */
  captionsKept?: number;
  /** Milliseconds to wait for a transcript before listening again; default 20000. */
  transcriptTimeoutMs?: number;
}

/** One line of the live caption: what the person or a mate said. */
export interface CallCaption {
  /** Who said it. */
  who: 'person' | 'mate';
  /** The message it was saved as. */
  messageId: string;
  /** In a group call, the member that said it. */
  speakerId?: string;
  text: string;
  /** A reply the person interrupted (its saved text is what was said before). */
  cut?: boolean;
}

/** Why a call failed: the ticket, the socket (refused or dropped), or the microphone. */
export type CallFailure = 'start' | 'socket' | 'microphone';

/** What the call machine keeps. */
export interface CallMachineContext {
  roomId: string;
  start: CallMachineInput['start'];
  connect: CallConnector;
  microphone: CallMicrophone;
  player: CallPlayer;
  captionsKept: number;
  transcriptTimeoutMs: number;
  /** The ticket, once given. */
  ticket: CallTicket | null;
  /** The server said `ready`. */
  serverReady: boolean;
  /** The microphone is live. */
  micReady: boolean;
  /** The reply being written or spoken: its id, speaker, and how many sentences began. */
  reply: { messageId: string; speakerId?: string; begun: number; ended: boolean } | null;
  /** Sentences waiting to play, the first playing while in `speaking`. */
  queue: CallClip[];
  /**
   * Clips begun of each reply of the turn: in a group the next member's reply starts (and is
   * `reply`) while the last one's clips still play, so a barge-in names the one playing.
   */
  begunOf: Record<string, number>;
  /**
   * The person spoke again after their transcript, before the reply started: that reply, once
   * it starts, is cut at once (heard 0: taken back) rather than written, charged and unheard.
   */
  interrupting: boolean;
  /**
   * With the browser's recognition: the server gave the transcript of the words the browser
   * heard during this speech before the detector heard the speech end. Its reply's sentences
   * that come meanwhile are held, and played once the person stops.
   */
  transcribed: boolean;
  /** The last transcript said nobody answers it on their own (a group): no reply is awaited. */
  unanswered: boolean;
  /** Replies the person cut: their late sentences are dropped. */
  cut: string[];
  /** The live caption, oldest first. */
  captions: CallCaption[];
  /** The last failure the call survived (a transcription, no chats left), until the next turn. */
  notice: { code: number; message: string } | null;
  /** Why the call ended (`ended`). */
  endReason: CallEndReason | null;
  /** Why the call failed (`failed`), and the error. */
  failure: CallFailure | null;
  error: unknown;
}

/**
 * What the call machine accepts from the page: `MUTE` / `UNMUTE` the microphone, `HANG_UP`,
 * `SIGNED_OUT` (the session ended elsewhere: the call ends without a word to the server).
 */
export type CallEvent =
  { type: 'MUTE' } | { type: 'UNMUTE' } | { type: 'HANG_UP' } | { type: 'SIGNED_OUT' };

/** Events the machine's own actors send back. */
export type CallInternalEvent =
  | { type: 'SOCKET.MESSAGE'; message: CallServerMessage }
  | { type: 'SOCKET.SENTENCE'; sentence: CallSentence; audio: ArrayBuffer }
  | { type: 'SOCKET.ENDED'; reason: CallEndReason }
  | { type: 'SOCKET.CLOSED'; close: CallSocketClose }
  | { type: 'MIC.READY' }
  | { type: 'MIC.DENIED'; error: unknown }
  | { type: 'VAD.START' }
  | { type: 'VAD.END'; samples: Float32Array }
  | { type: 'VAD.MISFIRE' }
  | { type: 'MIC.TEXT'; text: string }
  | { type: 'PLAYER.ENDED' }
  | { type: 'PLAYER.ERROR'; error: unknown };

/** What the machine asks of its socket actor: a JSON message, or an utterance. */
export type CallSocketCommand =
  { type: 'SEND'; message: CallClientMessage } | { type: 'UTTERANCE'; samples: Float32Array };

/** Every event the call machine handles. */
export type CallMachineEvent = CallEvent | CallInternalEvent;
type AnyEvent = CallMachineEvent;
type Args = { context: CallMachineContext; event: AnyEvent };

const serverMessage = (event: AnyEvent) =>
  event.type === 'SOCKET.MESSAGE' ? event.message : undefined;
const isMessage =
  <T extends CallServerMessage['type']>(type: T) =>
  ({ event }: Args) =>
    serverMessage(event)?.type === type;

function keep(context: CallMachineContext, captions: CallCaption[]): CallCaption[] {
  return captions.slice(-context.captionsKept);
}

/** A reply that starts after the person spoke again: told cut (heard 0), its clips dropped. */
const INTERRUPTED = [
  'onMessage',
  'sendBargeIn',
  'cutReply',
  { type: 'clearInterrupting' },
] as const;

/**
 * A voice call with a mate (#42), from the browser's side. `connecting` asks for a ticket,
 * opens the socket and the microphone; once the server is `ready` and the microphone live, the
 * call is `live`, two regions side by side:
 *
 * - `turn`: `listening` ⇄ `hearing` (voice activity detection heard speech; a misfire goes
 *   back) → `transcribing` (the utterance was sent; or, with the browser's recognition, its
 *   text) → `thinking` (the transcript came; the mate writes) → `speaking` (sentence clips play
 *   in order, the first while more arrive) → `listening` when the reply is over and all of it
 *   played. Speech heard while the mate speaks is a barge-in: playback stops at once,
 *   `barge-in` is sent with how many sentences began, and the person is `hearing`.
 * - `microphone`: `open` or `muted` (speech is not listened for; `mute` sent to the server).
 *
 * `HANG_UP` sends `hang-up` and ends (`hang-up`); the server's `ended` ends with its reason;
 * `SIGNED_OUT` ends (`signed-out`). A refused ticket, a denied microphone, or a socket that
 * closes before `ended` end in `failed` with `failure` and `error`. Leaving closes the socket,
 * the microphone and the player. Speech heard after the person's transcript and before the
 * reply starts cuts that reply as it starts (`barge-in` with none heard: it is taken back), and
 * so does a transcript that comes while the person speaks on (it is of words said before); in a
 * group, a barge-in names the member whose clip plays, with that member's clips begun.
 */
export const callMachine = setup({
  types: {
    context: {} as CallMachineContext,
    input: {} as CallMachineInput,
    events: {} as AnyEvent,
  },
  actors: {
    ticket: fromPromise<CallTicket, { start: CallMachineInput['start']; roomId: string }>(
      ({ input, signal }) => input.start(input.roomId, signal),
    ),
    socket: fromCallback<
      CallSocketCommand,
      { connect: CallConnector; ticket: CallTicket },
      AnyEvent
    >(({ input, sendBack, receive }) => {
      let live = true;
      const connection = input.connect(input.ticket, {
        onMessage: (message) =>
          live &&
          sendBack(
            message.type === 'ended'
              ? { type: 'SOCKET.ENDED', reason: message.reason }
              : { type: 'SOCKET.MESSAGE', message },
          ),
        onSentence: (sentence, audio) =>
          live && sendBack({ type: 'SOCKET.SENTENCE', sentence, audio }),
        onClose: (close) => live && sendBack({ type: 'SOCKET.CLOSED', close }),
      });
      receive((command) => {
        if (command.type === 'SEND') connection.send(command.message);
        else connection.sendUtterance(command.samples);
      });
      return () => {
        live = false;
        connection.close();
      };
    }),
    microphone: fromCallback<
      { type: 'SET_MUTED'; muted: boolean },
      { microphone: CallMicrophone; transcriber: CallTranscriber },
      AnyEvent
    >(({ input, sendBack, receive }) => {
      let live = true;
      const tell = (event: AnyEvent) => live && sendBack(event);
      const mic = input.microphone.start({
        transcriber: input.transcriber,
        onReady: () => tell({ type: 'MIC.READY' }),
        onDenied: (error) => tell({ type: 'MIC.DENIED', error }),
        onSpeechStart: () => tell({ type: 'VAD.START' }),
        onSpeechEnd: (samples) => tell({ type: 'VAD.END', samples }),
        onMisfire: () => tell({ type: 'VAD.MISFIRE' }),
        onText: (text) => tell({ type: 'MIC.TEXT', text }),
      });
      receive((command) => mic.setMuted(command.muted));
      return () => {
        live = false;
        mic.stop();
      };
    }),
    playback: fromCallback<EventObject, { player: CallPlayer; clip: CallClip }, AnyEvent>(
      ({ input, sendBack }) => {
        let live = true;
        const stop = input.player.play(input.clip, {
          onEnded: () => live && sendBack({ type: 'PLAYER.ENDED' }),
          onError: (error) => live && sendBack({ type: 'PLAYER.ERROR', error }),
        });
        return () => {
          live = false;
          stop();
        };
      },
    ),
  },
  guards: {
    bothReady: ({ context }) => context.serverReady && context.micReady,
    queued: ({ context }) => context.queue.length > 0,
    replyOver: ({ context }) => context.queue.length === 0 && (context.reply?.ended ?? true),
    browserTranscribes: ({ context }) => context.ticket?.transcriber === 'browser',
    transcribed: ({ context }) => context.transcribed,
    unanswered: ({ context }) => context.unanswered,
    hasText: ({ event }) => event.type === 'MIC.TEXT' && event.text.trim() !== '',
    replyStarted: ({ context }) => context.reply !== null && !context.reply.ended,
    micOpen: stateIn('#callMicrophoneOpen'),
    replyStartedAndMicOpen: and(['replyStarted', stateIn('#callMicrophoneOpen')]),
    micMuted: not(stateIn('#callMicrophoneOpen')),
    interruptedReplyStart: ({ context, event }) =>
      context.interrupting &&
      event.type === 'SOCKET.MESSAGE' &&
      serverMessage(event)?.type === 'reply-start',
    replyEndedSilently: ({ context }) =>
      context.reply !== null && context.reply.ended && context.queue.length === 0,
    lastClipOfEndedReply: ({ context }) =>
      context.queue.length <= 1 && (context.reply === null || context.reply.ended),
    moreClips: ({ context }) => context.queue.length > 1,
  },
  delays: {
    transcriptTimeout: ({ context }) => context.transcriptTimeoutMs,
  },
  actions: {
    send: sendTo('socket', (_, message: CallClientMessage) => ({ type: 'SEND' as const, message })),
    sendUtterance: sendTo('socket', ({ event }: Args) => ({
      type: 'UTTERANCE' as const,
      samples: event.type === 'VAD.END' ? event.samples : new Float32Array(0),
    })),
    sendText: sendTo('socket', ({ event }: Args) => ({
      type: 'SEND' as const,
      message: { type: 'text' as const, text: event.type === 'MIC.TEXT' ? event.text.trim() : '' },
    })),
    setMicMuted: sendTo('microphone', (_, muted: boolean) => ({
      type: 'SET_MUTED' as const,
      muted,
    })),
    sendBargeIn: sendTo('socket', ({ context }: Args) => {
      // The reply heard now: the one whose clip plays, else the one started.
      const messageId = context.queue[0]?.messageId ?? context.reply!.messageId;
      return {
        type: 'SEND' as const,
        message: {
          type: 'barge-in' as const,
          messageId,
          heard:
            messageId === context.reply?.messageId
              ? context.reply.begun
              : (context.begunOf[messageId] ?? 0),
        },
      };
    }),
    cutReply: assign(({ context }) => ({
      cut: [
        ...context.cut,
        ...new Set(
          [context.queue[0]?.messageId, context.reply?.messageId].filter(
            (id): id is string => id !== undefined,
          ),
        ),
      ],
      reply: null,
      queue: [],
    })),
    clearNotice: assign({ notice: null }),
    clearInterrupting: assign({ interrupting: false }),
    onMessage: assign(({ context, event }) => {
      const message = serverMessage(event);
      if (!message) return {};
      switch (message.type) {
        case 'ready':
          return { serverReady: true };
        case 'transcript':
          return {
            reply: null,
            begunOf: {},
            interrupting: false,
            unanswered: message.unanswered === true,
            captions: keep(context, [
              ...context.captions,
              { who: 'person', messageId: message.messageId, text: message.text },
            ]),
          };
        case 'reply-start':
          return {
            unanswered: false,
            reply: {
              messageId: message.messageId,
              ...(message.speakerId !== undefined && { speakerId: message.speakerId }),
              begun: 0,
              ended: false,
            },
            captions: keep(context, [
              ...context.captions,
              {
                who: 'mate',
                messageId: message.messageId,
                ...(message.speakerId !== undefined && { speakerId: message.speakerId }),
                text: '',
              },
            ]),
          };
        case 'reply-text':
          if (context.cut.includes(message.messageId)) return {};
          return {
            captions: context.captions.map((caption) =>
              caption.who === 'mate' && caption.messageId === message.messageId
                ? { ...caption, text: caption.text + message.text }
                : caption,
            ),
          };
        case 'reply-end':
          return {
            reply:
              context.reply?.messageId === message.messageId
                ? { ...context.reply, ended: true }
                : context.reply,
            captions: context.captions.map((caption) =>
              caption.who === 'mate' && caption.messageId === message.messageId
                ? { ...caption, text: message.text, cut: message.cut }
                : caption,
            ),
          };
        case 'error':
          return {
            notice: { code: message.code, message: message.message },
            interrupting: false,
          };
        default:
          return {};
      }
    }),
    enqueue: assign(({ context, event }) => {
      if (event.type !== 'SOCKET.SENTENCE') return {};
      const { sentence, audio } = event;
      if (context.cut.includes(sentence.messageId)) return {};
      const clip: CallClip = {
        messageId: sentence.messageId,
        index: sentence.index,
        text: sentence.text,
        mimeType: sentence.mimeType,
        audio,
      };
      return { queue: [...context.queue, clip] };
    }),
    began: assign(({ context }) => ({
      begunOf: context.queue[0]
        ? {
            ...context.begunOf,
            [context.queue[0].messageId]: (context.begunOf[context.queue[0].messageId] ?? 0) + 1,
          }
        : context.begunOf,
      reply:
        context.reply && context.queue[0]?.messageId === context.reply.messageId
          ? { ...context.reply, begun: context.reply.begun + 1 }
          : context.reply,
    })),
    played: assign(({ context }) => ({ queue: context.queue.slice(1) })),
    endWith: assign((_, reason: CallEndReason) => ({ endReason: reason })),
    failWith: assign((_, params: { failure: CallFailure; error: unknown }) => ({
      failure: params.failure,
      error: params.error,
    })),
  },
}).createMachine({
  id: 'call',
  context: ({ input }) => ({
    roomId: input.roomId,
    start: input.start,
    connect: input.connect,
    microphone: input.microphone,
    player: input.player,
    captionsKept: input.captionsKept ?? 6,
    transcriptTimeoutMs: input.transcriptTimeoutMs ?? 20_000,
    ticket: null,
    serverReady: false,
    micReady: false,
    reply: null,
    queue: [],
    begunOf: {},
    interrupting: false,
    transcribed: false,
    unanswered: false,
    cut: [],
    captions: [],
    notice: null,
    endReason: null,
    failure: null,
    error: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      tags: ['connecting'],
      on: {
        HANG_UP: { target: 'ended', actions: { type: 'endWith', params: 'hang-up' } },
        SIGNED_OUT: { target: 'ended', actions: { type: 'endWith', params: 'signed-out' } },
      },
      invoke: {
        src: 'ticket',
        input: ({ context }) => ({ start: context.start, roomId: context.roomId }),
        onDone: {
          target: 'call',
          actions: assign({ ticket: ({ event }) => event.output }),
        },
        onError: {
          target: 'failed',
          actions: {
            type: 'failWith',
            params: ({ event }: { event: ErrorActorEvent }) => ({
              failure: 'start' as const,
              error: event.error,
            }),
          },
        },
      },
    },
    call: {
      invoke: [
        {
          id: 'socket',
          src: 'socket',
          input: ({ context }) => ({ connect: context.connect, ticket: context.ticket! }),
        },
        {
          id: 'microphone',
          src: 'microphone',
          input: ({ context }) => ({
            microphone: context.microphone,
            transcriber: context.ticket!.transcriber,
          }),
        },
      ],
      on: {
        'SOCKET.MESSAGE': [
          { guard: 'interruptedReplyStart', actions: INTERRUPTED },
          { actions: 'onMessage' },
        ],
        'SOCKET.ENDED': {
          target: 'ended',
          actions: {
            type: 'endWith',
            params: ({ event }: Args) => (event.type === 'SOCKET.ENDED' ? event.reason : 'server'),
          },
        },
        'SOCKET.CLOSED': {
          target: 'failed',
          actions: {
            type: 'failWith',
            params: ({ event }: Args) => ({ failure: 'socket' as const, error: event }),
          },
        },
        'MIC.DENIED': {
          target: 'failed',
          actions: {
            type: 'failWith',
            params: ({ event }: Args) => ({
              failure: 'microphone' as const,
              error: event.type === 'MIC.DENIED' ? event.error : null,
            }),
          },
        },
        'MIC.READY': { actions: assign({ micReady: true }) },
        HANG_UP: '.hangingUp',
        SIGNED_OUT: { target: 'ended', actions: { type: 'endWith', params: 'signed-out' } },
      },
      initial: 'connecting',
      states: {
        // Tells the server while the socket is still open, then leaves (which closes it).
        hangingUp: {
          entry: [
            { type: 'send', params: { type: 'hang-up' } },
            { type: 'endWith', params: 'hang-up' },
          ],
          always: '#call.ended',
        },
        connecting: {
          tags: ['connecting'],
          always: { guard: 'bothReady', target: 'live' },
        },
        live: {
          type: 'parallel',
          states: {
            turn: {
              initial: 'listening',
              states: {
                listening: {
                  on: {
                    'VAD.START': { guard: 'micOpen', target: 'hearing', actions: 'clearNotice' },
                    'MIC.TEXT': {
                      guard: 'hasText',
                      target: 'transcribing',
                      actions: ['sendText', 'clearNotice'],
                    },
                    'SOCKET.MESSAGE': [
                      { guard: 'interruptedReplyStart', actions: INTERRUPTED },
                      // In a group, the next member may start once the last one finished.
                      {
                        guard: isMessage('reply-start'),
                        target: 'thinking',
                        actions: 'onMessage',
                      },
                      { actions: 'onMessage' },
                    ],
                  },
                },
                hearing: {
                  entry: assign({ transcribed: false }),
                  // Muted while speaking: what was said so far is not sent.
                  always: { guard: 'micMuted', target: 'listening' },
                  on: {
                    'VAD.MISFIRE': {
                      target: 'listening',
                      actions: assign({ interrupting: false }),
                    },
                    'VAD.START': {},
                    'VAD.END': [
                      // The browser's words were answered already: their reply is awaited, or
                      // played (its sentences held until now).
                      { guard: and(['browserTranscribes', 'transcribed']), target: 'thinking' },
                      { guard: 'browserTranscribes', target: 'transcribing' },
                      { target: 'transcribing', actions: 'sendUtterance' },
                    ],
                    'MIC.TEXT': { guard: 'hasText', actions: 'sendText' },
                    // The reply to the browser's words, come before the speech ended: held.
                    'SOCKET.SENTENCE': { guard: 'browserTranscribes', actions: 'enqueue' },
                    'SOCKET.MESSAGE': [
                      { guard: 'interruptedReplyStart', actions: INTERRUPTED },
                      // The transcript of words said before these (the person went on before
                      // it came): its reply would start while they speak, so it is cut as it
                      // starts. With the browser's recognition, it is of these very words (the
                      // browser sends them as soon as it has them): their reply is awaited.
                      {
                        guard: and([isMessage('transcript'), not('browserTranscribes')]),
                        actions: ['onMessage', assign({ interrupting: true })],
                      },
                      {
                        guard: isMessage('transcript'),
                        actions: ['onMessage', assign({ transcribed: true })],
                      },
                      { actions: 'onMessage' },
                    ],
                  },
                },
                transcribing: {
                  after: { transcriptTimeout: 'listening' },
                  on: {
                    'MIC.TEXT': { guard: 'hasText', actions: 'sendText' },
                    'VAD.START': { guard: 'micOpen', target: 'hearing' },
                    'SOCKET.MESSAGE': [
                      { guard: 'interruptedReplyStart', actions: INTERRUPTED },
                      { guard: isMessage('transcript'), target: 'thinking', actions: 'onMessage' },
                      { guard: isMessage('error'), target: 'listening', actions: 'onMessage' },
                      { actions: 'onMessage' },
                    ],
                  },
                },
                thinking: {
                  on: {
                    'SOCKET.SENTENCE': { target: 'speaking', actions: 'enqueue' },
                    'VAD.START': [
                      {
                        guard: 'replyStartedAndMicOpen',
                        target: 'hearing',
                        actions: ['sendBargeIn', 'cutReply'],
                      },
                      {
                        guard: 'micOpen',
                        target: 'hearing',
                        actions: assign({ interrupting: true }),
                      },
                    ],
                    'SOCKET.MESSAGE': [
                      { guard: isMessage('error'), target: 'listening', actions: 'onMessage' },
                      { actions: 'onMessage' },
                    ],
                  },
                  always: [
                    // Sentences held while the person still spoke (the browser's recognition).
                    { guard: 'queued', target: 'speaking' },
                    // Words nobody answers on their own (a group): nothing to wait for.
                    { guard: 'unanswered', target: 'listening' },
                    // A reply with no sentence to play (all cut, or none written) is over.
                    { guard: 'replyEndedSilently', target: 'listening' },
                  ],
                },
                speaking: {
                  initial: 'playing',
                  on: {
                    'SOCKET.SENTENCE': { actions: 'enqueue' },
                    'VAD.START': {
                      guard: 'micOpen',
                      target: 'hearing',
                      actions: ['sendBargeIn', 'cutReply'],
                    },
                  },
                  states: {
                    playing: {
                      entry: 'began',
                      invoke: {
                        src: 'playback',
                        input: ({ context }) => ({
                          player: context.player,
                          clip: context.queue[0]!,
                        }),
                      },
                      on: {
                        // A clip that cannot play is skipped: the caption still says it.
                        'PLAYER.*': [
                          {
                            guard: 'lastClipOfEndedReply',
                            target: '#call.call.live.turn.listening',
                            actions: 'played',
                          },
                          {
                            guard: 'moreClips',
                            target: 'playing',
                            reenter: true,
                            actions: 'played',
                          },
                          { target: 'waiting', actions: 'played' },
                        ],
                      },
                    },
                    waiting: {
                      on: {
                        'SOCKET.SENTENCE': { target: 'playing', actions: 'enqueue' },
                        'SOCKET.MESSAGE': [
                          {
                            guard: isMessage('reply-end'),
                            target: '#call.call.live.turn.listening',
                            actions: 'onMessage',
                          },
                          {
                            guard: isMessage('error'),
                            target: '#call.call.live.turn.listening',
                            actions: 'onMessage',
                          },
                          { actions: 'onMessage' },
                        ],
                      },
                    },
                  },
                },
              },
            },
            microphone: {
              initial: 'open',
              states: {
                open: {
                  id: 'callMicrophoneOpen',
                  on: {
                    MUTE: {
                      target: 'muted',
                      actions: [
                        { type: 'send', params: { type: 'mute', muted: true } },
                        { type: 'setMicMuted', params: true },
                      ],
                    },
                  },
                },
                muted: {
                  tags: ['muted'],
                  on: {
                    UNMUTE: {
                      target: 'open',
                      actions: [
                        { type: 'send', params: { type: 'mute', muted: false } },
                        { type: 'setMicMuted', params: false },
                      ],
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    ended: { type: 'final' },
    failed: { type: 'final' },
  },
});
