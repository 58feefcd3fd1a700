import type { Context } from 'hono';
import type { Envelope } from '@mates/api-client';

/** Every envelope code the server answers with (docs/product.md, envelope). */
export const CODE = {
  ok: 200,
  badInput: 4000,
  forbidden: 4003,
  notFound: 4004,
  conflict: 4009,
  internal: 5000,
  sessionExpired: 5002,
  notice: 5007,
} as const;

/** A failure the handler means to report: becomes `{ c: code, m: message, d: null }`. */
export class EnvelopeError extends Error {
  override readonly name = 'EnvelopeError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Bad input: the message says which field and why. */
export const badInput = (message: string) => new EnvelopeError(CODE.badInput, message);
/** A message meant for the user, shown as a notification (5007). */
export const notice = (message: string) => new EnvelopeError(CODE.notice, message);
/** No such thing, or not the caller's to see. */
export const notFound = (what: string) => new EnvelopeError(CODE.notFound, `${what} not found.`);
/** The call needs a session and the token is unknown, expired or logged out (5002). */
export const sessionExpired = () => new EnvelopeError(CODE.sessionExpired, 'login expired');

/** Answers a success envelope. HTTP status stays 200 for every envelope (docs/product.md). */
export function ok<T>(c: Context, d: T) {
  const body: Envelope<T> = { c: CODE.ok, m: '', d };
  return c.json(body);
}

/** Answers an error envelope. */
export function fail(c: Context, code: number, message: string) {
  const body: Envelope<null> = { c: code, m: message, d: null };
  return c.json(body);
}
