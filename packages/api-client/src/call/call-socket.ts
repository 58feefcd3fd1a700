import {
  CALL_AUDIO,
  CALL_END_REASONS,
  type CallClientMessage,
  type CallSentence,
  type CallServerMessage,
  type CallTicket,
} from '../types/call';
import { encodeWav } from './wav';

/** The part of the WebSocket interface a call uses (the browser's, or a test double). */
export interface CallWebSocketLike {
  binaryType: string;
  readonly readyState: number;
  send(data: string | ArrayBuffer | ArrayBufferView | Blob): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string; wasClean: boolean }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

/** A constructor of {@link CallWebSocketLike}, e.g. `globalThis.WebSocket`. */
export type CallWebSocketConstructor = new (url: string) => CallWebSocketLike;

/** How the socket closed, as {@link CallSocketOptions.onClose} tells it. */
export interface CallSocketClose {
  /** The WebSocket close code (1000 after a hang-up, 1006 when the connection dropped). */
  code: number;
  /** The close reason the server gave, often empty. */
  reason: string;
  /** False when the connection was lost rather than closed by either side. */
  wasClean: boolean;
}

/** Options of {@link openCallSocket}. */
export interface CallSocketOptions {
  /**
   * The API's base URL as the client uses it (`/api`, `https://mates.example/api`): the socket
   * opens at the ticket's `socketPath` on its origin. Relative ones resolve against the page.
   */
  baseUrl: string;
  /** The WebSocket class; default `globalThis.WebSocket`. */
  WebSocket?: CallWebSocketConstructor;
  /** The socket is open (messages sent before this were held and go now). */
  onOpen?: () => void;
  /** A JSON message from the server, all kinds but `sentence` (see `onSentence`). */
  onMessage?: (message: CallServerMessage) => void;
  /** A sentence of a reply with its audio: the `sentence` message and the binary frame after it. */
  onSentence?: (sentence: CallSentence, audio: ArrayBuffer) => void;
  /** What the server sent broke the protocol (not JSON, unknown type, audio without sentence). */
  onProtocolError?: (error: Error) => void;
  /** The socket closed, cleanly or not; nothing more is sent or received. */
  onClose?: (close: CallSocketClose) => void;
}

/** An open call, as {@link openCallSocket} answers it. */
export interface CallSocket {
  /** Sends a JSON message (held until the socket opens; dropped once it closed). */
  send(message: CallClientMessage): void;
  /**
   * Sends one utterance of the person as a WAV frame.
   *
   * @throws RangeError when it is longer than `CALL_AUDIO.maxUtteranceSeconds`, or empty.
   */
  sendUtterance(samples: Float32Array, sampleRate?: number): void;
  /** Sends `hang-up`; the server answers `ended` and closes the socket. */
  hangUp(): void;
  /** Closes the socket at once from this side (code 1000), e.g. when the page goes away. */
  close(): void;
  /** Whether the socket is closed (or closing). */
  readonly closed: boolean;
}

const OPEN = 1;
const SERVER_TYPES = new Set<CallServerMessage['type']>([
  'ready',
  'transcribing',
  'transcript',
  'reply-start',
  'reply-text',
  'sentence',
  'reply-end',
  'error',
  'ended',
]);

/**
 * The socket URL of a ticket: its `socketPath` on the origin of `baseUrl`, `ws:` for `http:`
 * and `wss:` for `https:`.
 *
 * @param base - the page's address, for a relative `baseUrl`; default `location.href`.
 */
export function callSocketUrl(ticket: CallTicket, baseUrl: string, base?: string): string {
  const page = base ?? (globalThis as { location?: { href: string } }).location?.href;
  const api = new URL(baseUrl, page);
  const url = new URL(ticket.socketPath, api.origin);
  url.protocol = api.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/**
 * Reads one JSON text frame of the server into a {@link CallServerMessage}.
 *
 * @throws Error when it is not JSON, or not an object with a known `type`.
 */
export function parseCallServerMessage(text: string): CallServerMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`Call socket: a text frame is not JSON: ${text.slice(0, 80)}`);
  }
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof value !== 'object' || value === null || !SERVER_TYPES.has(type as never)) {
    throw new Error(`Call socket: unknown message type ${JSON.stringify(type)}`);
  }
  const message = value as CallServerMessage;
  if (message.type === 'ended' && !CALL_END_REASONS.includes(message.reason)) {
    throw new Error(`Call socket: unknown end reason ${JSON.stringify(message.reason)}`);
  }
  return message;
}

/**
 * Opens a call's socket from a ticket of `POST /call/start`: parses the server's JSON messages,
 * pairs each `sentence` with the binary frame after it, and sends the browser's messages and
 * utterances (16-bit mono WAV, see {@link encodeWav}).
 *
 * @example
 * ```ts
 * const ticket = await api.call.start({ roomId });
 * const call = openCallSocket(ticket, {
 *   baseUrl: '/api',
 *   onMessage: (message) => console.log(message.type),
 *   onSentence: (sentence, audio) => player.enqueue(sentence, audio),
 * });
 * call.sendUtterance(samples); // 16 kHz Float32Array from voice activity detection
 * ```
 */
export function openCallSocket(ticket: CallTicket, options: CallSocketOptions): CallSocket {
  const Socket =
    options.WebSocket ??
    (globalThis as { WebSocket?: CallWebSocketConstructor }).WebSocket ??
    undefined;
  if (!Socket) throw new Error('openCallSocket: no WebSocket here; pass options.WebSocket');
  const socket = new Socket(callSocketUrl(ticket, options.baseUrl));
  socket.binaryType = 'arraybuffer';
  const held: (string | ArrayBuffer)[] = [];
  let pending: CallSentence | undefined;
  let closed = false;

  const transmit = (data: string | ArrayBuffer) => {
    if (closed) return;
    if (socket.readyState === OPEN) socket.send(data);
    else held.push(data);
  };

  socket.onopen = () => {
    for (const data of held.splice(0)) socket.send(data);
    options.onOpen?.();
  };
  socket.onmessage = (event) => {
    const { data } = event;
    if (typeof data === 'string') {
      let message: CallServerMessage;
      try {
        message = parseCallServerMessage(data);
      } catch (error) {
        options.onProtocolError?.(error as Error);
        return;
      }
      if (message.type === 'sentence') {
        if (pending) options.onProtocolError?.(new Error('Call socket: a sentence had no audio'));
        pending = message;
        return;
      }
      options.onMessage?.(message);
      return;
    }
    const audio = toArrayBuffer(data);
    if (!audio) {
      options.onProtocolError?.(new Error('Call socket: a frame is neither text nor binary'));
      return;
    }
    if (!pending) {
      options.onProtocolError?.(new Error('Call socket: audio came without its sentence'));
      return;
    }
    const sentence = pending;
    pending = undefined;
    options.onSentence?.(sentence, audio);
  };
  socket.onclose = (event) => {
    closed = true;
    held.length = 0;
    options.onClose?.({ code: event.code, reason: event.reason, wasClean: event.wasClean });
  };
  socket.onerror = () => {
    // An error is always followed by close, which tells it (wasClean false).
  };

  return {
    send: (message) => transmit(JSON.stringify(message)),
    sendUtterance: (samples, sampleRate = CALL_AUDIO.sampleRate) => {
      if (samples.length === 0) throw new RangeError('sendUtterance: the utterance is empty');
      if (samples.length / sampleRate > CALL_AUDIO.maxUtteranceSeconds) {
        throw new RangeError(
          `sendUtterance: longer than ${CALL_AUDIO.maxUtteranceSeconds} s (${(samples.length / sampleRate).toFixed(1)} s)`,
        );
      }
      transmit(encodeWav(samples, sampleRate));
    },
    hangUp: () => transmit(JSON.stringify({ type: 'hang-up' } satisfies CallClientMessage)),
    close: () => {
      if (closed) return;
      closed = true;
      held.length = 0;
      socket.close(1000, 'closed by the browser');
    },
    get closed() {
      return closed;
    },
  };
}

function toArrayBuffer(data: unknown): ArrayBuffer | undefined {
  if (data instanceof ArrayBuffer) return data;
  if (ArrayBuffer.isView(data)) {
    return data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
  }
  return undefined;
}
