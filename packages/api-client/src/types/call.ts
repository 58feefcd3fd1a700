import type { IsoDateTime } from './common';

/**
 * A voice call (#42) runs over one WebSocket. `POST /call/start` (signed in) answers a
 * {@link CallTicket}; the browser opens `socketPath` (relative to the API's origin, `ws:` or
 * `wss:` as the page) within a minute, and the ticket, good once, stands for the session that
 * asked (browsers cannot set headers on a WebSocket). Text frames carry the JSON messages below;
 * binary frames carry audio: from the browser, one frame is one utterance of the person, a
 * 16-bit mono PCM WAV file at {@link CALL_AUDIO.sampleRate}; from the server, one frame is the
 * audio of the {@link CallSentence} announced just before it.
 */
export const CALL_AUDIO = {
  /** Sample rate of the person's utterances, in hertz (what speech recognizers expect). */
  sampleRate: 16000,
  /** Longest utterance the server takes, in seconds: longer ones are refused (4000). */
  maxUtteranceSeconds: 30,
} as const;

/** Why a call ended, as {@link CallEnded} tells it. */
export const CALL_END_REASONS = [
  'hang-up',
  'signed-out',
  'idle',
  'replaced',
  'room-gone',
  'server',
] as const;

/**
 * Why a call ended: the person hung up; their session ended (sign-out, password change);
 * nothing was said for too long; the same person opened another call; the room was deleted
 * or closed to them; the server is stopping or failed.
 */
export type CallEndReason = (typeof CALL_END_REASONS)[number];

/** How the person's speech becomes text in a call. */
export const CALL_TRANSCRIBERS = ['server', 'browser'] as const;

/**
 * `server`: the browser sends utterances as audio and the server transcribes them (the
 * embedded engine or an OpenAI-compatible one); `browser`: the server has no engine, so the
 * browser's own recognition writes the words and sends them as {@link CallText}.
 */
export type CallTranscriber = (typeof CALL_TRANSCRIBERS)[number];

/** What `POST /call/start` takes. */
export interface StartCallPayload {
  /** The room to call (one-to-one, or a group: its members answer in turn). */
  roomId: string;
}

/** What `POST /call/start` answers: how to open the call's socket. */
export interface CallTicket {
  /** The call's id, as messages of the call and the server's logs name it. */
  callId: string;
  /** Path of the socket, ticket included, e.g. `/api/call/socket?ticket=…`. */
  socketPath: string;
  /** When the ticket stops opening the socket (a minute after it was given). */
  expiresAt: IsoDateTime;
  /** How the person's words become text in this call. */
  transcriber: CallTranscriber;
}

/** The person's words, written by the browser's own recognition (`transcriber: 'browser'`). */
export interface CallText {
  type: 'text';
  /** What the person said; blank ones are ignored. */
  text: string;
}

/**
 * The person started speaking while the mate's voice played: the mate stops at once. `heard`
 * is how many of the reply's sentences had begun to play (the one cut short counts): the
 * reply is saved as those sentences, marked cut, and the rest is dropped.
 */
export interface CallBargeIn {
  type: 'barge-in';
  /** The reply being cut. */
  messageId: string;
  /** Sentences of it that began to play, 0 when none did. */
  heard: number;
}

/** The person's microphone was muted or unmuted (the server stops expecting speech). */
export interface CallMute {
  type: 'mute';
  muted: boolean;
}

/** The person ends the call; the server answers {@link CallEnded} and closes the socket. */
export interface CallHangUp {
  type: 'hang-up';
}

/** A JSON message from the browser. (Binary frames are utterances: see {@link CALL_AUDIO}.) */
export type CallClientMessage = CallText | CallBargeIn | CallMute | CallHangUp;

/** The call is open: who is on the other end. */
export interface CallReady {
  type: 'ready';
  callId: string;
  roomId: string;
  transcriber: CallTranscriber;
}

/** The server took an utterance and is turning it into text. */
export interface CallTranscribing {
  type: 'transcribing';
}

/** The person's words, saved as their message in the room. */
export interface CallTranscript {
  type: 'transcript';
  messageId: string;
  text: string;
  /**
   * `true` when nobody answers these words on their own (a group in manual order, or with every
   * member muted, and no member named): no reply follows. Absent otherwise.
   */
  unanswered?: true;
}

/** A mate starts a reply (in a group, each speaker in turn). */
export interface CallReplyStart {
  type: 'reply-start';
  messageId: string;
  /** In a group, the mate that speaks. */
  speakerId?: string;
}

/** More words of the reply being written, for the live caption. */
export interface CallReplyText {
  type: 'reply-text';
  messageId: string;
  text: string;
}

/**
 * One sentence of the reply, ready to play: the next binary frame is its audio, in
 * `mimeType`. Sentences come in order, the first while the rest of the reply is written.
 */
export interface CallSentence {
  type: 'sentence';
  messageId: string;
  /**
   * 0-based position among the reply's sentences sent: one the server could not speak takes
   * none, so a count of the clips begun names the sentences heard (`barge-in`'s `heard`).
   */
  index: number;
  text: string;
  mimeType: string;
}

/** The reply is saved: whole, or cut where the person barged in (`cut`). */
export interface CallReplyEnd {
  type: 'reply-end';
  messageId: string;
  /** The reply's text as saved. */
  text: string;
  /** True when the person interrupted it: the text is what was said before. */
  cut: boolean;
}

/** A failure the call survives (a transcription that failed, no chats left): said and shown. */
export interface CallError {
  type: 'error';
  /** An envelope code (4000, 5007…). */
  code: number;
  /** The server's message, in the person's language. */
  message: string;
}

/** The call is over; the socket closes after this. */
export interface CallEnded {
  type: 'ended';
  reason: CallEndReason;
}

/** A JSON message from the server. (Binary frames are sentence audio: see {@link CallSentence}.) */
export type CallServerMessage =
  | CallReady
  | CallTranscribing
  | CallTranscript
  | CallReplyStart
  | CallReplyText
  | CallSentence
  | CallReplyEnd
  | CallError
  | CallEnded;

/** How a message came from a call: absent on typed messages. */
export interface MessageCall {
  /** The call it was said in. */
  callId: string;
  /** A reply the person interrupted: its text is what was said before. */
  cut: boolean;
}
