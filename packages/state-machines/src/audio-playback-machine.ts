import {
  assign,
  emit,
  fromCallback,
  fromPromise,
  setup,
  type DoneActorEvent,
  type ErrorActorEvent,
} from 'xstate';
import type { ApiClient, SpeechLink } from '@mates/api-client';
import { SPEECH_LINK_MARGIN_MS } from './constants';

/**
 * What plays the audio: in a browser, one `<audio>` element for the whole page. `play` starts
 * `url` from its beginning and answers a function that stops it; it reports the end or a
 * failure through `handlers`, once, and never after it was stopped.
 */
export interface AudioPlayer {
  /** Starts `url`; answers how to stop it. */
  play: (
    url: string,
    handlers: { onEnded: () => void; onError: (error: unknown) => void },
  ) => () => void;
}

/** What the voice player needs. */
export interface AudioPlaybackInput {
  /** The API client (`POST /speech/link`). */
  client: Pick<ApiClient, 'speech'>;
  /** What plays the audio. */
  player: AudioPlayer;
  /** The clock, for links that expire; default `Date.now`. */
  now?: () => number;
}

/**
 * Events the voice player accepts: `PLAY` speaks a message (stopping whatever was playing, and
 * dropping what waited), `QUEUE` speaks one after what plays and what waits already (at once
 * when nothing plays), `STOP` stops and drops what waited, `CLEAR_QUEUE` drops what waits and
 * lets what plays finish, `FORGET` drops a message's kept links (after it was edited or
 * regenerated) and its place in the queue.
 */
export type AudioPlaybackEvent =
  | { type: 'PLAY'; messageId: string; voice?: string }
  | { type: 'QUEUE'; messageId: string; voice?: string }
  | { type: 'STOP' }
  | { type: 'CLEAR_QUEUE' }
  | { type: 'FORGET'; messageId: string };

/** A message waiting to be spoken (see `QUEUE`). */
export interface QueuedVoice {
  /** The message. */
  messageId: string;
  /** The voice asked for with it, if any. */
  voice?: string;
}

/** Events the player itself sends back while playing. */
export type AudioPlaybackInternalEvent =
  { type: 'PLAYER.ENDED' } | { type: 'PLAYER.ERROR'; error: unknown };

/** What the voice player emits: the gold coins a first hearing of a message took. */
export interface AudioChargedEmitted {
  /** Always `charged`. */
  type: 'charged';
  /** The message. */
  messageId: string;
  /** Gold coins taken (more than 0). */
  coins: number;
}

/** What the voice player keeps. */
export interface AudioPlaybackContext {
  /** The API client. */
  client: Pick<ApiClient, 'speech'>;
  /** What plays the audio. */
  player: AudioPlayer;
  /** The clock. */
  now: () => number;
  /** The message loading, playing or failed; `null` when idle. */
  messageId: string | null;
  /** The voice asked for with it, if any. */
  voice: string | undefined;
  /** Links already given, by `messageId` and voice, reused until they are about to expire. */
  links: Record<string, SpeechLink>;
  /** Why the last message could not be played (`error` state), else `null`. */
  error: unknown;
  /** Messages to speak after the current one, in order (see `QUEUE`). */
  queue: QueuedVoice[];
}

type QueueEvent = Extract<AudioPlaybackEvent, { type: 'QUEUE' }>;

/** A queue entry of an event: its voice only when one was asked for. */
const queued = ({ messageId, voice }: QueueEvent): QueuedVoice => ({
  messageId,
  ...(voice !== undefined && { voice }),
});

const keyOf = (messageId: string, voice: string | undefined) => `${messageId}\u0000${voice ?? ''}`;

/** The link kept for the current message and voice, if it has not nearly expired. */
function keptLink(context: AudioPlaybackContext): SpeechLink | null {
  const link = heldLink(context);
  if (!link) return null;
  return Date.parse(link.expiresAt) - context.now() > SPEECH_LINK_MARGIN_MS ? link : null;
}

/**
 * The current message's link, however near its end by this device's clock: the one just asked
 * for is played even when the clock is set wrong (the margin only decides whether a kept link
 * is used again, {@link keptLink}).
 */
function heldLink(context: AudioPlaybackContext): SpeechLink | null {
  if (!context.messageId) return null;
  return context.links[keyOf(context.messageId, context.voice)] ?? null;
}

/**
 * Plays mates' messages aloud, one at a time across the page: `PLAY` asks `POST /speech/link`
 * for the message (once; the link is kept until shortly before it expires) and hands it to the
 * {@link AudioPlayer}; it is `loading`, then `playing`, then back to `idle` when the audio ends.
 * `PLAY` of another message, in any state, stops the current one first. A failure, to get the
 * link or to play it, ends in `error` with the message and the reason, until the next `PLAY` or
 * `STOP`; what was queued after it is dropped (the next would most likely fail the same way, and
 * the person is told why this one did not play). `QUEUE` lets replies that end one after another
 * (a group's speakers) be spoken in turn rather than each cutting the last. The first hearing
 * of a message emits `charged` with the gold coins it took.
 */
export const audioPlaybackMachine = setup({
  types: {
    context: {} as AudioPlaybackContext,
    input: {} as AudioPlaybackInput,
    events: {} as AudioPlaybackEvent | AudioPlaybackInternalEvent,
    emitted: {} as AudioChargedEmitted,
  },
  actors: {
    fetchLink: fromPromise<SpeechLink, { context: AudioPlaybackContext }>(
      ({ input: { context }, signal }) =>
        context.client.speech.link(
          {
            messageId: context.messageId!,
            ...(context.voice ? { voice: context.voice } : {}),
          },
          { signal },
        ),
    ),
    playback: fromCallback<
      AudioPlaybackEvent,
      { player: AudioPlayer; url: string },
      AudioPlaybackInternalEvent
    >(({ input, sendBack }) => {
      let live = true;
      const stop = input.player.play(input.url, {
        onEnded: () => live && sendBack({ type: 'PLAYER.ENDED' }),
        onError: (error) => live && sendBack({ type: 'PLAYER.ERROR', error }),
      });
      return () => {
        live = false;
        stop();
      };
    }),
  },
  guards: {
    hasLink: ({ context }) => keptLink(context) !== null,
    hasQueue: ({ context }) => context.queue.length > 0,
  },
  actions: {
    choose: assign((_, event: QueuedVoice) => ({
      messageId: event.messageId,
      voice: event.voice,
      error: null,
      queue: [],
    })),
    enqueue: assign(({ context }, event: QueueEvent) => ({
      queue: [...context.queue, queued(event)],
    })),
    /** The first message waiting becomes the current one. */
    next: assign(({ context }) => {
      const [first, ...rest] = context.queue;
      return { messageId: first!.messageId, voice: first!.voice, error: null, queue: rest };
    }),
    clearQueue: assign({ queue: [] }),
    keepLink: assign(({ context }, link: SpeechLink) => ({
      links: { ...context.links, [keyOf(context.messageId!, context.voice)]: link },
    })),
    reportCharge: emit(({ context }, link: SpeechLink) => ({
      type: 'charged' as const,
      messageId: context.messageId!,
      coins: link.charged,
    })),
    keepError: assign((_, error: unknown) => ({ error })),
    clear: assign({ messageId: null, voice: undefined, error: null }),
    forget: assign(({ context }, messageId: string) => ({
      links: Object.fromEntries(
        Object.entries(context.links).filter(([key]) => !key.startsWith(`${messageId}\u0000`)),
      ),
      queue: context.queue.filter((entry) => entry.messageId !== messageId),
    })),
  },
}).createMachine({
  id: 'audioPlayback',
  context: ({ input }) => ({
    client: input.client,
    player: input.player,
    now: input.now ?? Date.now,
    messageId: null,
    voice: undefined,
    links: {},
    error: null,
    queue: [],
  }),
  initial: 'idle',
  on: {
    PLAY: { target: '.starting', actions: { type: 'choose', params: ({ event }) => event } },
    // Waits its turn while something loads or plays (see `idle` and `error`).
    QUEUE: { actions: { type: 'enqueue', params: ({ event }) => event } },
    STOP: { target: '.idle', actions: ['clear', 'clearQueue'] },
    CLEAR_QUEUE: { actions: 'clearQueue' },
    FORGET: { actions: { type: 'forget', params: ({ event }) => event.messageId } },
  },
  states: {
    idle: {
      always: { guard: 'hasQueue', target: 'starting', actions: 'next' },
      on: {
        QUEUE: {
          target: 'starting',
          actions: { type: 'choose', params: ({ event }) => event },
        },
      },
    },
    starting: {
      always: [{ guard: 'hasLink', target: 'playing' }, { target: 'loading' }],
    },
    loading: {
      invoke: {
        src: 'fetchLink',
        input: ({ context }) => ({ context }),
        onDone: [
          {
            guard: ({ event }) => event.output.charged > 0,
            target: 'playing',
            actions: [
              { type: 'keepLink', params: link },
              { type: 'reportCharge', params: link },
            ],
          },
          { target: 'playing', actions: { type: 'keepLink', params: link } },
        ],
        onError: {
          target: 'error',
          actions: [{ type: 'keepError', params: failure }, 'clearQueue'],
        },
      },
    },
    playing: {
      invoke: {
        src: 'playback',
        input: ({ context }) => ({ player: context.player, url: heldLink(context)!.url }),
      },
      on: {
        'PLAYER.ENDED': { target: 'idle', actions: 'clear' },
        // The link may be what failed (expired early, file gone): ask for a fresh one next time.
        'PLAYER.ERROR': {
          target: 'error',
          actions: [
            { type: 'keepError', params: playerError },
            {
              type: 'forget',
              params: ({ context }: { context: AudioPlaybackContext }) => context.messageId!,
            },
            'clearQueue',
          ],
        },
      },
    },
    error: {
      on: {
        QUEUE: {
          target: 'starting',
          actions: { type: 'choose', params: ({ event }) => event },
        },
      },
    },
  },
});

function link({ event }: { event: DoneActorEvent<SpeechLink> }): SpeechLink {
  return event.output;
}

function playerError({ event }: { event: AudioPlaybackEvent | AudioPlaybackInternalEvent }) {
  return event.type === 'PLAYER.ERROR' ? event.error : null;
}

function failure({ event }: { event: ErrorActorEvent }): unknown {
  return event.error;
}
