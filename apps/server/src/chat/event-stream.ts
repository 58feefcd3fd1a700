import type { ServerResponse } from 'node:http';
import type { ChatStreamEvent } from '@mates/api-client';

/**
 * Opens a `text/event-stream` on the Node response; the client leaving aborts `controller`.
 * Events sent together (before the server turns to other work) go out in one write, and a
 * reply's pieces of text among them as one `reply-delta`: under load many pieces arrive at
 * once, and each write is a system call and a chunk for the client to parse.
 */
export function openEventStream(
  res: ServerResponse,
  controller: AbortController,
  requestId: string,
) {
  res.writeHead(200, {
    'x-request-id': requestId,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const open = () => !res.writableEnded && !res.destroyed;
  let unsent: ChatStreamEvent[] = [];
  const lines = () => {
    const text = unsent.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('');
    unsent = [];
    return text;
  };
  const flush = () => {
    if (unsent.length > 0 && open()) res.write(lines());
  };
  return {
    send: (event: ChatStreamEvent) => {
      const last = unsent.at(-1);
      if (last?.type === 'reply-delta' && event.type === 'reply-delta') {
        unsent[unsent.length - 1] = { type: 'reply-delta', text: last.text + event.text };
        return;
      }
      if (unsent.length === 0) queueMicrotask(flush);
      unsent.push(event);
    },
    done: () => {
      if (open()) res.end(`${lines()}data: [DONE]\n\n`);
    },
  };
}
