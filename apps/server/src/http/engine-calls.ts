import {
  ProviderError,
  isProviderError,
  type ProviderFailure,
  type ProviderKind,
} from '../domain/provider-error';
import { codeOf, wasNotReached } from './network-errors';

/** What an engine's HTTP error status says: see {@link failureOfStatus}. */
export type StatusFailure = Extract<
  ProviderFailure,
  'unauthorized' | 'busy' | 'rejected' | 'failed'
>;

/**
 * The failure kind of an engine's HTTP error status: 401/403 `unauthorized`, 429 and 503
 * (overloaded) `busy`, other 4xx (unknown voice or model, a size it cannot draw, text refused)
 * `rejected`, the rest `failed`.
 */
export function failureOfStatus(status: number): StatusFailure {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 429 || status === 503) return 'busy';
  if (status >= 400 && status < 500) return 'rejected';
  return 'failed';
}

/** What a {@link callDeadline}'s `explain` makes of a call that threw. */
export type DeadlineFailure = Extract<
  ProviderFailure,
  'cancelled' | 'timeout' | 'unreachable' | 'cut'
>;

/**
 * The time limit of one call to a `provider` engine (its whole answer included), joined with
 * the caller's signal. `explain` turns whatever the call threw into a {@link ProviderError} of
 * that provider: cancelled, timed out (`${engine} ${tooLong} ${timeoutMs} ms`), unreachable or
 * cut; one of that provider already made is kept.
 */
export function callDeadline<Failure extends ProviderFailure>(
  provider: ProviderKind,
  engine: string,
  timeoutMs: number,
  caller: AbortSignal | undefined,
  tooLong = 'took more than',
) {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = caller ? AbortSignal.any([caller, timeout]) : timeout;
  return {
    signal,
    /** Whether the caller cancelled or the time ran out (stop talking to the engine). */
    stopped: () => signal.aborted,
    explain(error: unknown): ProviderError<Failure | DeadlineFailure> {
      if (caller?.aborted)
        return new ProviderError(`${engine}: cancelled`, 'cancelled', { cause: error, provider });
      if (timeout.aborted)
        return new ProviderError(`${engine} ${tooLong} ${timeoutMs} ms`, 'timeout', {
          cause: error,
          provider,
        });
      if (isProviderError<Failure>(error, provider)) return error;
      const code = codeOf(error);
      const detail = `${(error as Error)?.message ?? String(error)}${code ? ` (${code})` : ''}`;
      if (wasNotReached(error))
        return new ProviderError(`${engine} cannot be reached: ${detail}`, 'unreachable', {
          cause: error,
          provider,
        });
      return new ProviderError(`${engine} dropped the connection: ${detail}`, 'cut', {
        cause: error,
        provider,
      });
    },
  };
}
