import type { HttpMethod } from '../endpoints';

const marker = Symbol.for('mates.api-client.error.ApiError');

/** Options of {@link ApiError}. */
export interface ApiErrorOptions {
  /** The envelope code, or 0 when the answer was not an envelope. */
  code: number;
  /** The method of the failed call. */
  method: HttpMethod;
  /** The API path of the failed call, e.g. `/mate/search`. */
  path: string;
  /** The HTTP status of the answer. */
  status: number;
  /** How soon the call may succeed if asked again (ms), when the server said (`Retry-After`). */
  retryAfterMs?: number | null;
  /** Why, in one word, when the server said (`d.reason` of the error envelope). */
  reason?: string | null;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * The API answered with an envelope code other than 200. The message is the server's `m`
 * (or "server error"), so that it can be shown as it is; `method` and `path` say which call.
 */
export class ApiError extends Error {
  private readonly [marker] = true;
  override readonly name: string = 'ApiError';
  /** The envelope code, or 0 when the answer was not an envelope. */
  readonly code: number;
  /** The method of the failed call. */
  readonly method: HttpMethod;
  /** The API path of the failed call. */
  readonly path: string;
  /** The HTTP status of the answer. */
  readonly status: number;
  /**
   * How soon (ms) the same call may succeed, when the server said so (`Retry-After`): a refusal
   * that passes by itself, such as a language model still loading; otherwise `null`.
   */
  readonly retryAfterMs: number | null;
  /**
   * Why, in one word, when the server said so (`d.reason` of the error envelope), so that a
   * caller can explain it in its own words: `model-missing` (no language model is set up).
   * Otherwise `null`.
   */
  readonly reason: string | null;

  constructor(message: string, options: ApiErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    this.method = options.method;
    this.path = options.path;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs ?? null;
    this.reason = options.reason ?? null;
  }

  /** Whether `error` is an {@link ApiError} (or a subclass), across package copies too. */
  static isInstance(error: unknown): error is ApiError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
