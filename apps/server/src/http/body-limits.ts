import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { CODE, fail } from './envelope';

const KB = 1024;
const MB = 1024 * KB;

/** What a JSON call may send: the longest field (8,000 characters of message) fits many times. */
export const JSON_BODY_LIMIT = 64 * KB;

/**
 * Calls that need more, by path under `/api`: a whole card drafted by hand (ten fields of up
 * to 8,000 characters), as saved or sent along to write one field again, and a card import or
 * preview, or a portrait upload, carrying an 8 MB picture as base64 (4/3 larger), and a
 * recording to turn into text (2 MB as base64).
 */
export const BODY_LIMITS: Record<string, number> = {
  '/mate/saveMate': 1 * MB,
  '/mate/generateRole': 1 * MB,
  '/mate/importCard': 12 * MB,
  '/mate/previewCard': 12 * MB,
  '/mate/setPortrait': 12 * MB,
  // A 2 MB recording as base64.
  '/voice/transcribe': 3 * MB,
  // Stripe's events: an invoice with many lines is larger than any call of ours.
  '/stripe/webhook': 1 * MB,
};

function describeSize(bytes: number): string {
  return bytes >= MB ? `${bytes / MB} MB` : `${bytes / KB} KB`;
}

interface Limit {
  maxSize: number;
  /** The 4000 envelope saying the body is over {@link Limit.maxSize}. */
  refuse: (c: Context) => Response;
  /** hono's limit, which counts a body sent without a declared length as it is read. */
  counting: MiddlewareHandler;
}

function limitFor(maxSize: number): Limit {
  const refuse = (c: Context) =>
    fail(
      c,
      CODE.badInput,
      `The request body is too large: this call accepts at most ${describeSize(maxSize)}.`,
    );
  return {
    maxSize,
    refuse,
    // Answered as soon as the bytes counted so far pass the limit. The rest is not read into
    // memory: @hono/node-server discards it for a moment so the client can read this answer,
    // then closes the connection.
    counting: bodyLimit({ maxSize, onError: refuse }),
  };
}

/**
 * Refuses request bodies over the limit of their call before they are read, with a 4000
 * envelope: {@link JSON_BODY_LIMIT} unless {@link BODY_LIMITS} names the path.
 * `prefix` is where the API is mounted, stripped before the lookup.
 */
export function bodyLimits(prefix = ''): MiddlewareHandler {
  const fallback = limitFor(JSON_BODY_LIMIT);
  const byPath = new Map(
    Object.entries(BODY_LIMITS).map(([path, size]) => [prefix + path, limitFor(size)]),
  );
  return (c, next) => {
    // A GET or HEAD has no body (@hono/node-server reads none).
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const limit = byPath.get(c.req.path) ?? fallback;
    // A declared length is the most Node's parser lets through, so it is checked as it is.
    // Asking hono's limit would build the whole Fetch Request and its web stream (about a
    // tenth of a cached catalog call), and cost the body its direct read by @hono/node-server.
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined)
      return Number(length) > limit.maxSize ? Promise.resolve(limit.refuse(c)) : next();
    return limit.counting(c, next);
  };
}
