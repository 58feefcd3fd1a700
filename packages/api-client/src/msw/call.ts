import { ws, type WebSocketHandler } from 'msw';
import type { CallClientMessage, CallServerMessage, CallTranscriber } from '../types/call';
import { DEFAULT_MSW_BASE_URL, type MockOptions } from './handlers';
import { createCallAudioFixture } from './call-fixtures';

/** Options of {@link mockCallSocket}. */
export interface MockCallSocketOptions extends MockOptions {
  /** The room the call is in; default `room-1`. */
  roomId?: string;
  /** What `ready` says of transcription; default `server`. */
  transcriber?: CallTranscriber;
  /** What an utterance is heard as; default "Tell me about your day." */
  transcript?: string;
  /** The mate's reply, one string per sentence. */
  sentences?: string[];
  /** In a group call, the member that answers (`reply-start.speakerId`). */
  speakerId?: string;
  /** Milliseconds between the server's steps (transcribing, each sentence…); default 60. */
  delayMs?: number;
  /** Seconds of (silent) audio per sentence; default 0.6. */
  sentenceSeconds?: number;
  /** Answer every utterance with this `error` instead of a transcript (e.g. 5007, no chats). */
  error?: { code: number; message: string };
  /** Never answer `ready` (the call stays connecting), e.g. for a story. */
  silent?: boolean;
}

/**
 * A WebSocket handler (msw `ws.link`) that plays the server's side of a call: `ready` on
 * connection; an utterance (binary) or a `text` gets `transcribing`, `transcript`, then a reply
 * sentence by sentence (`reply-start`, `reply-text`, `sentence` and its audio frame,
 * `reply-end`); `barge-in` cuts the reply to the sentences heard; `hang-up` answers `ended` and
 * closes. Answers at `{baseUrl}/call/socket` (the ticket of `createCallTicketFixture`).
 */
export function mockCallSocket(options: MockCallSocketOptions = {}): WebSocketHandler {
  const {
    roomId = 'room-1',
    transcriber = 'server',
    transcript = 'Tell me about your day.',
    sentences = [
      'Oh, it was lovely.',
      'I spent the morning by the lake, watching the herons.',
      'And you?',
    ],
    delayMs = 60,
    sentenceSeconds = 0.6,
  } = options;
  const link = ws.link(`${options.baseUrl ?? DEFAULT_MSW_BASE_URL}/call/socket`);
  return link.addEventListener('connection', ({ client }) => {
    const send = (message: CallServerMessage) => client.send(JSON.stringify(message));
    const timers: ReturnType<typeof setTimeout>[] = [];
    let turn = 0;
    let reply: { messageId: string; spoken: string[] } | undefined;
    const later = (steps: (() => void)[]) => {
      steps.forEach((step, index) => timers.push(setTimeout(step, delayMs * (index + 1))));
    };
    const cancel = () => timers.splice(0).forEach(clearTimeout);

    const answer = (text: string) => {
      turn += 1;
      const messageId = `msg-call-reply-${turn}`;
      const current = { messageId, spoken: [] as string[] };
      reply = current;
      later([
        () => send({ type: 'transcript', messageId: `msg-call-user-${turn}`, text }),
        () =>
          send({
            type: 'reply-start',
            messageId,
            ...(options.speakerId !== undefined && { speakerId: options.speakerId }),
          }),
        ...sentences.map((sentence, index) => () => {
          current.spoken.push(sentence);
          send({ type: 'reply-text', messageId, text: (index > 0 ? ' ' : '') + sentence });
          send({ type: 'sentence', messageId, index, text: sentence, mimeType: 'audio/wav' });
          client.send(createCallAudioFixture(sentenceSeconds));
        }),
        () => {
          send({ type: 'reply-end', messageId, text: sentences.join(' '), cut: false });
          reply = undefined;
        },
      ]);
    };

    if (options.silent) return;
    send({ type: 'ready', callId: 'call-1', roomId, transcriber });
    client.addEventListener('message', (event) => {
      const { data } = event;
      if (typeof data !== 'string') {
        if (options.error) {
          send({ type: 'error', ...options.error });
          return;
        }
        send({ type: 'transcribing' });
        answer(transcript);
        return;
      }
      const message = JSON.parse(data) as CallClientMessage;
      if (message.type === 'text' && message.text.trim() !== '') answer(message.text.trim());
      if (message.type === 'barge-in' && reply?.messageId === message.messageId) {
        cancel();
        const text = sentences.slice(0, message.heard).join(' ');
        send({ type: 'reply-end', messageId: message.messageId, text, cut: true });
        reply = undefined;
      }
      if (message.type === 'hang-up') {
        cancel();
        send({ type: 'ended', reason: 'hang-up' });
        // msw delivers a sent message on a later task but a close at once: closed now, the
        // page would never read `ended`, which the server's socket sends before it closes.
        setTimeout(() => client.close(1000, 'hang-up'), 0);
      }
    });
    client.addEventListener('close', cancel);
  });
}
