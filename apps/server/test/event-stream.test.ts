import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createDataLineParser, type ChatStreamEvent } from '@mates/api-client';
import { openEventStream } from '../src/chat/event-stream';

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
  it('writes the events sent together once, their pieces of text as one delta', async () => {
    const { res, writes } = recordingResponse();
    const stream = openEventStream(res, new AbortController(), 'request-1');
    stream.send(START);
    for (const text of ['Hel', 'lo', ', 世界 👋']) stream.send({ type: 'reply-delta', text });
    expect(writes).toEqual([]);
    await Promise.resolve();
    expect(writes).toHaveLength(1);
    // Later pieces are a write of their own.
    stream.send({ type: 'reply-delta', text: ' again' });
    await Promise.resolve();
    stream.send({ type: 'error', message: 'The reply stopped.', messageId: 'm1' });
    stream.done();
    expect(writes).toHaveLength(3);
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
