import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupServer } from 'msw/node';
import { openCallSocket, type CallSocketClose } from '../call/call-socket';
import type { CallServerMessage } from '../types/call';
import { mockCallSocket } from './call';
import { createCallTicketFixture } from './call-fixtures';

// msw replaces the global WebSocket class with one it answers; Node 20 has none unless started
// with --experimental-websocket, so a bare class stands in for the one it replaces (a mocked
// socket never opens a real connection).
globalThis.WebSocket ??= class {} as unknown as typeof WebSocket;

const server = setupServer(
  mockCallSocket({ baseUrl: 'http://mates.test/api', sentences: ['Hi.', 'The lake was calm.'] }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

/**
 * A call through the mocked socket, with what it heard kept in order; `onAudio` runs as each
 * sentence's audio arrives (before the mock's next step, which comes a timer later).
 */
function call(onAudio?: (sentence: { messageId: string; text: string }) => void) {
  // `sentence` messages come with their audio frame, through onSentence; `closed` is onClose.
  type Heard =
    | CallServerMessage
    | { type: 'audio'; text: string; bytes: number }
    | ({ type: 'closed' } & CallSocketClose);
  const heard: Heard[] = [];
  const socket = openCallSocket(createCallTicketFixture(), {
    baseUrl: 'http://mates.test/api',
    onMessage: (message) => heard.push(message),
    onClose: (close) => heard.push({ type: 'closed', ...close }),
    onSentence: (sentence, audio) => {
      heard.push({ type: 'audio', text: sentence.text, bytes: audio.byteLength });
      onAudio?.(sentence);
    },
  });
  const until = (type: string) =>
    expect
      .poll(() => heard.some((message) => message.type === type), { timeout: 2_000 })
      .toBe(true);
  return { socket, heard, until };
}

describe('mockCallSocket', () => {
  it('plays the server: ready, then a turn sentence by sentence, each with its audio', async () => {
    const { socket, heard, until } = call();
    await until('ready');
    socket.send({ type: 'text', text: 'Hello there' });
    await until('reply-end');
    expect(heard.map((message) => message.type)).toEqual([
      'ready',
      'transcript',
      'reply-start',
      'reply-text',
      'audio',
      'reply-text',
      'audio',
      'reply-end',
    ]);
    expect(heard.find((message) => message.type === 'transcript')).toMatchObject({
      text: 'Hello there',
    });
    expect(heard.filter((message) => message.type === 'audio')).toEqual([
      { type: 'audio', text: 'Hi.', bytes: expect.any(Number) },
      { type: 'audio', text: 'The lake was calm.', bytes: expect.any(Number) },
    ]);
    // A WAV each: a 44-byte header and 0.6 s of 16-bit samples at 8 kHz.
    for (const message of heard) if (message.type === 'audio') expect(message.bytes).toBe(9644);
    expect(heard.at(-1)).toMatchObject({ text: 'Hi. The lake was calm.', cut: false });
    socket.close();
  });

  it('cuts a reply to the sentences heard, and ends on hang-up', async () => {
    // The barge-in goes as the first sentence is heard: waiting for it by polling (every 50 ms)
    // had let the second sentence and the reply's end (60 ms apart) pass first on a busy machine.
    let barged = false;
    const { socket, heard, until } = call(({ messageId }) => {
      if (barged) return;
      barged = true;
      socket.send({ type: 'barge-in', messageId, heard: 1 });
    });
    await until('ready');
    socket.send({ type: 'text', text: 'Tell me more' });
    await until('reply-end');
    expect(heard.filter((message) => message.type === 'audio')).toHaveLength(1);
    expect(heard.find((message) => message.type === 'reply-end')).toMatchObject({
      text: 'Hi.',
      cut: true,
    });
    socket.hangUp();
    await until('closed');
    expect(heard.slice(-2)).toEqual([
      { type: 'ended', reason: 'hang-up' },
      { type: 'closed', code: 1000, reason: 'hang-up', wasClean: true },
    ]);
    expect(socket.closed).toBe(true);
  });
});
