import type { ServerResponse } from 'node:http';
import type { ChatStreamEvent } from '@mates/api-client';

/**
 * The least time between two writes of a reply's text once its first words went out: pieces
 * that arrive meanwhile go out together. A screen shows no more (60 frames a second is one
 * every 17 ms), and a write for each token, five milliseconds apart, was most of a stream's
 * cost to the server (#20).
 */
export const TEXT_GAP_MS = 25;

/**
 * Opens a `text/event-stream` on the Node response; the client leaving aborts `controller`.
 * Events sent together (before the server turns to other work) go out in one write, and a
 * reply's pieces of text among them as one `reply-delta`; after the first words, text goes
 * out at most once every {@link TEXT_GAP_MS}. Whatever is unsent goes out with the end.
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
  // Gone already (while the send started): nobody will read the reply.
  if (res.destroyed) controller.abort();
  const open = () => !res.writableEnded && !res.destroyed;
  let unsent: ChatStreamEvent[] = [];
  let flushing = false;
  let textSentAt = -Infinity;
  const lines = () => {
    const text = unsent.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('');
    unsent = [];
    return text;
  };
  const flush = () => {
    flushing = false;
    if (unsent.length === 0 || !open()) return;
    if (unsent.some((event) => event.type === 'reply-delta')) textSentAt = performance.now();
    res.write(lines());
  };
  return {
    send: (event: ChatStreamEvent) => {
      const last = unsent.at(-1);
      if (last?.type === 'reply-delta' && event.type === 'reply-delta') {
        unsent[unsent.length - 1] = { type: 'reply-delta', text: last.text + event.text };
        return;
      }
      unsent.push(event);
      if (flushing) return;
      flushing = true;
      const wait = event.type === 'reply-delta' ? textSentAt + TEXT_GAP_MS - performance.now() : 0;
      if (wait > 0) setTimeout(flush, wait);
      else queueMicrotask(flush);
    },
    done: () => {
      if (open()) res.end(`${lines()}data: [DONE]\n\n`);
    },
  };
}
