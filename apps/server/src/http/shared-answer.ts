import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { Envelope } from '@mates/api-client';
import { ifNoneMatchNames } from './conditional';
import { CODE } from './envelope';

/**
 * A success answer that many requests send unchanged (the catalog's, kept in its cache): its
 * envelope is written as JSON, and its ETag worked out, once, by the first request that sends
 * it. Its value is shared: nothing may change it.
 */
export class SharedAnswer<T> {
  #json: string | undefined;
  #etag: string | undefined;

  constructor(readonly value: T) {}

  /** The envelope `{ c: 200, m: '', d: value }` as JSON. */
  get json(): string {
    const envelope: Envelope<T> = { c: CODE.ok, m: '', d: this.value };
    return (this.#json ??= JSON.stringify(envelope));
  }

  /** A strong ETag: a digest of {@link json}, so it names these very bytes and nothing else. */
  get etag(): string {
    return (this.#etag ??= `"${createHash('sha1').update(this.json).digest('base64url')}"`);
  }
}

/**
 * Sends `answer`, or `304 Not Modified` when the caller's `If-None-Match` names its ETag (the
 * copy it holds is this very answer). `Cache-Control: private, no-cache` has a browser ask again
 * each time, since any write may change the answer, and keeps shared caches from storing
 * answers that can depend on who asks.
 */
export function sendShared<T>(c: Context, answer: SharedAnswer<T>): Response {
  const headers = { etag: answer.etag, 'cache-control': 'private, no-cache' };
  const ifNoneMatch = c.req.header('if-none-match');
  if (ifNoneMatch && ifNoneMatchNames(ifNoneMatch, answer.etag)) return c.body(null, 304, headers);
  return c.body(answer.json, 200, { ...headers, 'content-type': 'application/json' });
}
