/**
 * Which kind of outside engine failed: the language model, a picture engine, or a speech
 * (text to speech or transcription) engine.
 */
export type ProviderKind = 'language' | 'image' | 'speech';

/**
 * What went wrong with a provider, as people are told it (in their language); the detail of a
 * failure is for the server log only. Each kind uses some of them:
 * - `unavailable`: none is set up (language: no model file, no download);
 * - `unreachable`: no connection to the engine;
 * - `unauthorized`: the engine refused our key (a server setup fault);
 * - `busy`: rate-limited or overloaded, or too many jobs waiting: try later;
 * - `refused`: the engine's content policy refused the prompt;
 * - `rejected`: the engine refused the request (unknown model, a size it cannot draw);
 * - `failed`: the engine failed while working;
 * - `timeout`: no answer in the time allowed;
 * - `cut`: the connection dropped mid-answer;
 * - `empty`: an answer with nothing in it;
 * - `malformed`: an answer that is not what the engine's API answers;
 * - `cancelled`: the caller's signal aborted.
 */
export type ProviderFailure =
  | 'unavailable'
  | 'unreachable'
  | 'unauthorized'
  | 'busy'
  | 'refused'
  | 'rejected'
  | 'failed'
  | 'timeout'
  | 'cut'
  | 'empty'
  | 'malformed'
  | 'cancelled';

/**
 * An outside engine (language model, pictures, speech) failed: unreachable, refused,
 * rate-limited, silent. `message` is the detail for the server log (it may hold a provider's
 * body or host names); `failure` is what to tell people; `provider` says which engine.
 */
export class ProviderError<Failure extends ProviderFailure = ProviderFailure> extends Error {
  override readonly name: string = 'ProviderError';
  /** The provider's HTTP status, when it answered one. */
  readonly status: number | undefined;
  /** Which engine failed (`language` unless said). */
  readonly provider: ProviderKind;
  constructor(
    message: string,
    readonly failure: Failure = 'failed' as Failure,
    options?: { cause?: unknown; status?: number; provider?: ProviderKind },
  ) {
    super(message, options);
    this.status = options?.status;
    this.provider = options?.provider ?? 'language';
  }
}

/** Whether `error` is a failure of a `provider` engine (of any engine, without one). */
export function isProviderError<Failure extends ProviderFailure = ProviderFailure>(
  error: unknown,
  provider?: ProviderKind,
): error is ProviderError<Failure> {
  return error instanceof ProviderError && (provider === undefined || error.provider === provider);
}
