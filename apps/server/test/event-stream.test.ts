import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDataLineParser, type ChatStreamEvent } from '@mates/api-client';
import { openEventStream, TEXT_GAP_MS } from '../src/chat/event-stream';

/** A Node response that records each write, as the socket would be handed them. */
function recordingResponse() {
  const writes: string[] = [];
  const res = Object.assign(new EventEmitter(), {
    writableEnded: false,
    writableFinished: false,
    destroyed: false,
    writeHead: () => res,
    write: (text: string) => writes.push(text) > 0,
    end: (text: string) => {
      writes.push(text);
      res.writableEnded = true;
    },
  });
  return { res: res as unknown as ServerResponse, writes };
}

/** What the api-client's parser reads from `writes`, one chunk per write. */
function parsed(writes: string[]) {
  const events: unknown[] = [];
  let done = false;
  const parser = createDataLineParser({
    onData: (data) => events.push(data),
    onDone: () => (done = true),
    onError: (error) => {
      throw error;
    },
  });
  for (const write of writes) parser.feed(new TextEncoder().encode(write));
  parser.end();
  return { events, done };
}

const START: ChatStreamEvent = {
  type: 'reply-start',
  roomId: 'r1',
  userMessage: null,
  messageId: 'm1',
};

describe('a chat event stream', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the events sent together once, their pieces of text as one delta', async () => {
    const { res, writes } = recordingResponse();
    const stream = openEventStream(res, new AbortController(), 'request-1');
    stream.send(START);
    for (const text of ['Hel', 'lo', ', 世界 👋']) stream.send({ type: 'reply-delta', text });
    expect(writes).toEqual([]);
    await Promise.resolve();
    expect(writes).toHaveLength(1);
    // Text that comes soon after waits (see the next test); the end takes it along.
    stream.send({ type: 'reply-delta', text: ' again' });
    await Promise.resolve();
    stream.send({ type: 'error', message: 'The reply stopped.', messageId: 'm1' });
    stream.done();
    expect(writes).toHaveLength(2);
    expect(parsed(writes)).toEqual({
      events: [
        START,
        { type: 'reply-delta', text: 'Hello, 世界 👋' },
        { type: 'reply-delta', text: ' again' },
        { type: 'error', message: 'The reply stopped.', messageId: 'm1' },
      ],
      done: true,
    });
  });

  it('sends the first words at once, and later text at most once a gap, the rest with the end', async () => {
    vi.useFakeTimers();
    const { res, writes } = recordingResponse();
    const stream = openEventStream(res, new AbortController(), 'request-3');
    stream.send(START);
    await vi.advanceTimersByTimeAsync(0);
    stream.send({ type: 'reply-delta', text: 'First' });
    await vi.advanceTimersByTimeAsync(0);
    expect(writes).toHaveLength(2);
    // Pieces arriving within the gap wait for its end, and go out as one.
    stream.send({ type: 'reply-delta', text: ' words' });
    await vi.advanceTimersByTimeAsync(TEXT_GAP_MS / 2);
    stream.send({ type: 'reply-delta', text: ' and' });
    expect(writes).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(TEXT_GAP_MS / 2);
    expect(writes).toHaveLength(3);
    stream.send({ type: 'reply-delta', text: ' more' });
    stream.send({ type: 'reply-end', messageId: 'm1' } as ChatStreamEvent);
    stream.done();
    expect(writes).toHaveLength(4);
    expect(parsed(writes).events).toEqual([
      START,
      { type: 'reply-delta', text: 'First' },
      { type: 'reply-delta', text: ' words and' },
      { type: 'reply-delta', text: ' more' },
      { type: 'reply-end', messageId: 'm1' },
    ]);
  });

  it('aborts the reply of a client gone before the stream opened', () => {
    const { res } = recordingResponse();
    Object.assign(res, { destroyed: true });
    const controller = new AbortController();
    openEventStream(res, controller, 'request-3');
    expect(controller.signal.aborted).toBe(true);
  });

  it('writes nothing once the client has left, and aborts the reply', async () => {
    const { res, writes } = recordingResponse();
    const controller = new AbortController();
    const stream = openEventStream(res, controller, 'request-2');
    stream.send(START);
    Object.assign(res, { destroyed: true });
    res.emit('close');
    await Promise.resolve();
    stream.done();
    expect(writes).toEqual([]);
    expect(controller.signal.aborted).toBe(true);
  });
});
