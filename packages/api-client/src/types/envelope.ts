/** Every answer of the Mates API: `c` the code, `m` a message, `d` the data. */
export interface Envelope<T = unknown> {
  /** 200 on success; see {@link ENVELOPE_CODES} for the others. */
  c: number;
  /** A message for people; empty on success. */
  m: string;
  /** The result of the call; `null` when there is none or on failure. */
  d: T;
}

/** The envelope codes that the client treats specially (docs/product.md, errors). */
export const ENVELOPE_CODES = {
  /** Success: the call resolves to `d`. */
  ok: 200,
  /** The session token is unknown, expired or logged out. */
  sessionExpired: 5002,
  /** A message meant for the user, shown as a negative notification. */
  notice: 5007,
} as const;
