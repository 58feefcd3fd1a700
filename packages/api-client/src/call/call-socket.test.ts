import { describe, expect, it } from 'vitest';
import { CALL_AUDIO, type CallSentence, type CallServerMessage } from '../types/call';
import {
  callSocketUrl,
  openCallSocket,
  parseCallServerMessage,
  type CallSocketClose,
  type CallWebSocketLike,
} from './call-socket';
import { encodeWav } from './wav';

class FakeSocket implements CallWebSocketLike {
  static last: FakeSocket;
  binaryType = 'blob';
  readyState = 0;
  sent: (string | ArrayBuffer)[] = [];
  closedWith: [number?, string?] | undefined;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string; wasClean: boolean }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  send(data: string | ArrayBuffer) {
    if (this.readyState !== 1) throw new Error('InvalidStateError');
    this.sent.push(data);
  }
  close(code?: number, reason?: string) {
    this.closedWith = [code, reason];
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(data: unknown) {
    this.onmessage?.({
      data:
        typeof data === 'object' && !(data instanceof ArrayBuffer) && !ArrayBuffer.isView(data)
          ? JSON.stringify(data)
          : data,
    });
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({ code: 1006, reason: '', wasClean: false });
  }
}

const ticket = {
  callId: 'call-1',
  socketPath: '/api/call/socket?ticket=t1',
  expiresAt: '2026-11-29T10:01:00.000Z',
  transcriber: 'server' as const,
};

function open() {
  const messages: CallServerMessage[] = [];
  const sentences: [CallSentence, ArrayBuffer][] = [];
  const errors: Error[] = [];
  const closes: CallSocketClose[] = [];
  const call = openCallSocket(ticket, {
    baseUrl: 'https://mates.example/api',
    WebSocket: FakeSocket,
    onMessage: (message) => messages.push(message),
    onSentence: (sentence, audio) => sentences.push([sentence, audio]),
    onProtocolError: (error) => errors.push(error),
    onClose: (close) => closes.push(close),
  });
  return { call, socket: FakeSocket.last, messages, sentences, errors, closes };
}

describe('callSocketUrl', () => {
  it('opens the socket path on the API origin, wss for https and ws for http', () => {
    expect(callSocketUrl(ticket, 'https://mates.example/api')).toBe(
      'wss://mates.example/api/call/socket?ticket=t1',
    );
    expect(callSocketUrl(ticket, '/api', 'http://localhost:5173/chat/room-1')).toBe(
      'ws://localhost:5173/api/call/socket?ticket=t1',
    );
  });
});

describe('openCallSocket', () => {
  it('reads arraybuffers and holds messages sent before the socket opens', () => {
    const { call, socket } = open();
    expect(socket.binaryType).toBe('arraybuffer');
    call.send({ type: 'mute', muted: true });
    expect(socket.sent).toEqual([]);
    socket.open();
    expect(socket.sent).toEqual([JSON.stringify({ type: 'mute', muted: true })]);
  });

  it('passes JSON messages on, and pairs each sentence with the binary frame after it', () => {
    const { socket, messages, sentences, errors } = open();
    socket.open();
    socket.receive({ type: 'ready', callId: 'call-1', roomId: 'room-1', transcriber: 'server' });
    socket.receive({ type: 'reply-start', messageId: 'm1' });
    const first = {
      type: 'sentence',
      messageId: 'm1',
      index: 0,
      text: 'Hi.',
      mimeType: 'audio/wav',
    };
    socket.receive(first);
    expect(sentences).toEqual([]);
    const audio = new Uint8Array([1, 2, 3]);
    socket.receive(audio.buffer);
    socket.receive({ ...first, index: 1, text: 'Bye.' });
    socket.receive(new Uint8Array([9, 8, 7, 6]).subarray(1, 3));
    expect(messages.map((message) => message.type)).toEqual(['ready', 'reply-start']);
    expect(sentences.map(([sentence]) => sentence.text)).toEqual(['Hi.', 'Bye.']);
    expect([...new Uint8Array(sentences[0]![1])]).toEqual([1, 2, 3]);
    expect([...new Uint8Array(sentences[1]![1])]).toEqual([8, 7]);
    expect(errors).toEqual([]);
  });

  it('tells protocol errors: bad JSON, an unknown type, audio without its sentence', () => {
    const { socket, messages, errors } = open();
    socket.open();
    socket.receive('not json');
    socket.receive({ type: 'surprise' });
    socket.receive({ type: 'ended', reason: 'bored' });
    socket.receive(new ArrayBuffer(4));
    expect(messages).toEqual([]);
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringContaining('not JSON'),
      expect.stringContaining('unknown message type'),
      expect.stringContaining('unknown end reason'),
      expect.stringContaining('without its sentence'),
    ]);
  });

  it('sends utterances as WAV frames and refuses empty or too long ones', () => {
    const { call, socket } = open();
    socket.open();
    call.sendUtterance(new Float32Array([0, 0.5, -1]));
    const wav = socket.sent[0] as ArrayBuffer;
    expect(wav.byteLength).toBe(44 + 6);
    expect(new DataView(wav).getUint32(24, true)).toBe(CALL_AUDIO.sampleRate);
    expect(() => call.sendUtterance(new Float32Array(0))).toThrow(RangeError);
    const tooLong = new Float32Array(CALL_AUDIO.sampleRate * CALL_AUDIO.maxUtteranceSeconds + 1);
    expect(() => call.sendUtterance(tooLong)).toThrow(/longer than 30 s/);
    expect(socket.sent).toHaveLength(1);
  });

  it('hangs up with a message, and tells a dropped connection', () => {
    const { call, socket, closes } = open();
    socket.open();
    call.hangUp();
    expect(JSON.parse(socket.sent[0] as string)).toEqual({ type: 'hang-up' });
    socket.drop();
    expect(closes).toEqual([{ code: 1006, reason: '', wasClean: false }]);
    expect(call.closed).toBe(true);
    call.send({ type: 'mute', muted: false });
    expect(socket.sent).toHaveLength(1);
  });

  it('closes from this side once', () => {
    const { call, socket } = open();
    socket.open();
    call.close();
    call.close();
    expect(socket.closedWith).toEqual([1000, 'closed by the browser']);
    expect(call.closed).toBe(true);
  });
});

describe('parseCallServerMessage', () => {
  it('reads every server message kind', () => {
    expect(parseCallServerMessage('{"type":"transcribing"}')).toEqual({ type: 'transcribing' });
    expect(parseCallServerMessage('{"type":"ended","reason":"signed-out"}')).toEqual({
      type: 'ended',
      reason: 'signed-out',
    });
    expect(() => parseCallServerMessage('null')).toThrow(/unknown message type/);
  });
});

describe('encodeWav', () => {
  it('writes a RIFF header and clipped 16-bit samples', () => {
    const wav = encodeWav(new Float32Array([0, 1, -1, 2, Number.NaN]), 8000);
    const view = new DataView(wav);
    const text = (at: number) => String.fromCharCode(...new Uint8Array(wav, at, 4));
    expect([text(0), text(8), text(12), text(36)]).toEqual(['RIFF', 'WAVE', 'fmt ', 'data']);
    expect(view.getUint32(4, true)).toBe(36 + 10);
    expect(view.getUint16(22, true)).toBe(1);
    expect(view.getUint32(28, true)).toBe(16000);
    expect(view.getUint16(34, true)).toBe(16);
    expect(view.getUint32(40, true)).toBe(10);
    expect([0, 1, 2, 3, 4].map((i) => view.getInt16(44 + i * 2, true))).toEqual([
      0, 32767, -32768, 32767, 0,
    ]);
  });

  it('refuses a sample rate that is not a positive integer', () => {
    expect(() => encodeWav(new Float32Array(1), 0)).toThrow(RangeError);
    expect(() => encodeWav(new Float32Array(1), 44100.5)).toThrow(RangeError);
  });
});
