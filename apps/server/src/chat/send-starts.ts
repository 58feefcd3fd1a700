import { Semaphore } from 'async-mutex';
import type { MiddlewareHandler } from 'hono';

declare module 'hono' {
  interface ContextVariableMap {
    /** Frees the send's place among those starting (see {@link sendStarts}); again is a no-op. */
    sendStarted: () => void;
  }
}

/** How many chat sends are started at once by one server (see {@link sendStarts}). */
export const SENDS_STARTING_AT_ONCE = 8;

/**
 * Chat sends start first come, first served. From its arrival until its reply's stream opens
 * (session, room, prompt, the provider asked, the turn saved and charged: about 2 ms of this
 * server's time each on 2 slow cores), a send holds one of `permits` places; later ones wait
 * for a place in the order they came (async-mutex's Semaphore). Started all at once, fifty sends
 * shared the event loop and each one's first words waited for every other's start; in turn,
 * the first ones are answered at once and the median waits for half of them (#20). Once a
 * stream is open its send lets go (`c.get('sendStarted')()`), and in any case when it ends.
 * A few places rather than one: a start also waits for the disk and the network, and its
 * neighbours use the loop meanwhile.
 */
export function sendStarts(permits = SENDS_STARTING_AT_ONCE): MiddlewareHandler {
  const places = new Semaphore(permits);
  return async (c, next) => {
    // The body first: a caller sending it slowly must not hold a place meanwhile. Hono keeps
    // the text for the route to parse.
    await c.req.text().catch(() => undefined);
    const [, release] = await places.acquire();
    let held = true;
    const started = () => {
      if (!held) return;
      held = false;
      release();
    };
    c.set('sendStarted', started);
    try {
      await next();
    } finally {
      started();
    }
  };
}
