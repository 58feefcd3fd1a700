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

/**
 * A failure the HTTP layer itself reports (bad input it parsed, a session it could not find):
 * becomes `{ c: code, m: message, d: null }`. A service's refusal is a `DomainError`.
 */
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
/** The call needs a session and the token is unknown, expired or logged out (5002). */
export const sessionExpired = () => new EnvelopeError(CODE.sessionExpired, 'login expired');

/** Answers a success envelope. HTTP status stays 200 for every envelope (docs/product.md). */
export function ok<T>(c: Context, d: T) {
  const body: Envelope<T> = { c: CODE.ok, m: '', d };
  return c.json(body);
}

/**
 * Answers an error envelope; `retryAfterSeconds` becomes its `Retry-After` header, and a
 * `reason` its data (`{ reason }`; otherwise `d` is `null`).
 */
export function fail(
  c: Context,
  code: number,
  message: string,
  retryAfterSeconds?: number,
  reason?: string,
) {
  const body: Envelope<{ reason: string } | null> = {
    c: code,
    m: message,
    d: reason ? { reason } : null,
  };
  if (retryAfterSeconds !== undefined) c.header('Retry-After', String(retryAfterSeconds));
  return c.json(body);
}
