import type { ServerResponse } from 'node:http';
import { Semaphore } from 'async-mutex';
import type { MiddlewareHandler } from 'hono';

declare module 'hono' {
  interface ContextVariableMap {
    /** Frees the send's place among those starting (see {@link sendStarts}); again is a no-op. */
    sendStarted: () => void;
  }
}

/** How many chat sends a server on SQLite starts at once (see {@link sendStarts}). */
export const SENDS_STARTING_AT_ONCE = 8;

/**
 * Chat sends start first come, first served, `permits` at a time. Once its body has arrived, a
 * send holds one of the places until its turn is saved or refused (the session, the room, the
 * prompt, the provider asked, the turn written and charged: about 2 ms of this server's time on
 * 2 slow cores); later sends wait for a place in the order they came (async-mutex's Semaphore),
 * and one whose caller left meanwhile is dropped unstarted. Started all at once, fifty sends
 * shared the event loop and each one's first words waited for every other's start; in turn,
 * the first are answered at once and the median waits for half of them (#20). A few places
 * rather than one: a start also waits for the disk, and its neighbours use the loop meanwhile.
 *
 * `null` starts every send at once. That is the rule on PostgreSQL, where a start mostly waits
 * for round trips and row locks: a few sends waiting on one busy row (a popular mate's) would
 * hold every place, and the server's other sends would wait behind them.
 */
export function sendStarts(permits: number | null): MiddlewareHandler {
  if (permits === null)
    return async (c, next) => {
      c.set('sendStarted', () => {});
      await next();
    };
  const places = new Semaphore(permits);
  return async (c, next) => {
    // The body first: a caller sending it slowly must not hold a place meanwhile. Hono keeps
    // the text for the route to parse (or to answer that it could not be read).
    await c.req.text().catch(() => undefined);
    const [, release] = await places.acquire();
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    if (outgoing?.destroyed) {
      // Gone while waiting: nothing is written, charged or asked of the provider for nobody.
      release();
      return new Response(null, { status: 499 });
    }
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
