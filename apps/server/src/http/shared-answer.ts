import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { Envelope } from '@mates/api-client';
import { ifNoneMatchNames } from './conditional';
import { CODE } from './envelope';

const UTF8 = new TextEncoder();

/**
 * A success answer that many requests send unchanged (the catalog's, kept in its cache): its
 * envelope is written as UTF-8 JSON, and its ETag worked out, once, by the first request that
 * sends it. Its value is shared: nothing may change it.
 */
export class SharedAnswer<T> {
  #bytes: Uint8Array<ArrayBuffer> | undefined;
  #etag: string | undefined;

  constructor(readonly value: T) {}

  /**
   * The envelope `{ c: 200, m: '', d: value }` as UTF-8 JSON. Kept as bytes, not as a string:
   * a string is encoded again on every write, and for a page of mates (whose names and
   * taglines hold letters beyond Latin-1) that encoding cost more than the rest of the send.
   */
  get bytes(): Uint8Array<ArrayBuffer> {
    const envelope: Envelope<T> = { c: CODE.ok, m: '', d: this.value };
    return (this.#bytes ??= UTF8.encode(JSON.stringify(envelope)));
  }

  /** A strong ETag: a digest of {@link bytes}, so it names these very bytes and nothing else. */
  get etag(): string {
    return (this.#etag ??= `"${createHash('sha1').update(this.bytes).digest('base64url')}"`);
  }
}

/** What sending a shared answer comes to: its status, headers and body. */
export type SharedReply = { headers: Record<string, string> } & (
  { status: 200; body: Uint8Array<ArrayBuffer> } | { status: 304; body: null }
);

/**
 * How `answer` is sent: whole, or `304 Not Modified` when the caller's `If-None-Match` names
 * its ETag (the copy it holds is this very answer). `Cache-Control: private, no-cache` has a
 * browser ask again each time, since any write may change the answer, and keeps shared caches
 * from storing answers that can depend on who asks.
 */
export function sharedReply<T>(
  answer: SharedAnswer<T>,
  ifNoneMatch: string | undefined,
): SharedReply {
  const headers = { etag: answer.etag, 'cache-control': 'private, no-cache' };
  if (ifNoneMatch && ifNoneMatchNames(ifNoneMatch, answer.etag))
    return { status: 304, headers, body: null };
  return {
    status: 200,
    headers: { ...headers, 'content-type': 'application/json' },
    body: answer.bytes,
  };
}

/** Sends `answer` as {@link sharedReply} says. */
export function sendShared<T>(c: Context, answer: SharedAnswer<T>): Response {
  const reply = sharedReply(answer, c.req.header('if-none-match'));
  return reply.status === 304
    ? c.body(null, 304, reply.headers)
    : c.body(reply.body, 200, reply.headers);
}
