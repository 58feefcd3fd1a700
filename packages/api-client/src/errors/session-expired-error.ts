import { ApiError, type ApiErrorOptions } from './api-error';

const marker = Symbol.for('mates.api-client.error.SessionExpiredError');

/** The message of every {@link SessionExpiredError} (docs/product.md, errors). */
export const SESSION_EXPIRED_MESSAGE = 'login expired';

/** The API answered 5002: the session token is unknown, expired or logged out. */
export class SessionExpiredError extends ApiError {
  private readonly [marker] = true;
  override readonly name: string = 'SessionExpiredError';

  constructor(options: Omit<ApiErrorOptions, 'code'>) {
    super(SESSION_EXPIRED_MESSAGE, { ...options, code: 5002 });
  }

  /** Whether `error` is a {@link SessionExpiredError}, across package copies too. */
  static override isInstance(error: unknown): error is SessionExpiredError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
