import { openAiSdk } from '../openai-sdk';
import { isSpeechError, speechError, type SpeechFailure } from './speech-engine';
import { callDeadline, failureOfStatus } from '../http/engine-calls';

/**
 * What the `openai` client threw, as a {@link speechError} where it says what happened
 * (an error status, its own time limit, a body that is not JSON); anything else is returned as
 * it is, for {@link deadline}'s `explain`.
 */
export function fromApiError(engine: string, error: unknown): unknown {
  if (isSpeechError(error)) return error;
  if (error instanceof SyntaxError)
    return speechError(
      `${engine} answered something that is not JSON: ${error.message}`,
      'malformed',
      { cause: error },
    );
  const sdk = openAiSdk();
  if (error instanceof sdk.APIConnectionTimeoutError)
    return speechError(`${engine} did not answer in time`, 'timeout', {
      cause: error,
    });
  // The client wraps a dropped or refused connection; its cause says what the socket saw.
  if (error instanceof sdk.APIConnectionError) return error.cause ?? error;
  if (!(error instanceof sdk.APIError) || error.status === undefined) return error;
  const code = typeof error.code === 'string' ? error.code : undefined;
  return speechError(
    `${engine} answered ${error.status}${code ? ` (${code})` : ''}: ${error.message.slice(0, 500)}`,
    failureOfStatus(error.status),
    { status: error.status, cause: error },
  );
}

/**
 * The time limit of one call to a speech engine (its whole answer included), joined with the
 * caller's signal: see {@link callDeadline}. `explain` turns whatever the call threw into a
 * {@link speechError}: cancelled, timed out, unreachable or cut; one already made is kept.
 */
export const deadline = (engine: string, timeoutMs: number, caller: AbortSignal) =>
  callDeadline<SpeechFailure>('speech', engine, timeoutMs, caller);
