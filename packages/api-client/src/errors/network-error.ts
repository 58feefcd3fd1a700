import type { HttpMethod } from '../endpoints';

const marker = Symbol.for('mates.api-client.error.NetworkError');

/** Options of {@link NetworkError}. */
export interface NetworkErrorOptions {
  /** The method of the failed call. */
  method: HttpMethod;
  /** The API path of the failed call. */
  path: string;
  /** The transport error that `fetch` or the body stream raised. */
  cause: unknown;
}

/** The request never got an answer, or the answer broke off: a transport failure. */
export class NetworkError extends Error {
  private readonly [marker] = true;
  override readonly name: string = 'NetworkError';
  /** The method of the failed call. */
  readonly method: HttpMethod;
  /** The API path of the failed call. */
  readonly path: string;

  constructor(options: NetworkErrorOptions) {
    const reason = options.cause instanceof Error ? `: ${options.cause.message}` : '';
    super(`${options.method} ${options.path} failed${reason}`, { cause: options.cause });
    this.method = options.method;
    this.path = options.path;
  }

  /** Whether `error` is a {@link NetworkError}, across package copies too. */
  static isInstance(error: unknown): error is NetworkError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
