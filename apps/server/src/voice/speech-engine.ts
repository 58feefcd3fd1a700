import type { Voice } from '@mates/api-client';
import { isProviderError, ProviderError, type ProviderFailure } from '../domain/provider-error';

/** Which engine speaks: `SPEECH_PROVIDER`. */
export type SpeechProvider = 'embedded' | 'local' | 'openai';

/** What to say. */
export interface SpeechRequest {
  /** Plain text, already stripped of markdown and stage directions (see `spokenText`). */
  text: string;
  /** A voice id from {@link SpeechEngine.voices}. */
  voice: string;
}

/** How one synthesis is run. */
export interface SynthesizeOptions {
  /** Stops the synthesis (the listener left, or the server is stopping). */
  signal: AbortSignal;
}

/**
 * Speech as it is made: the audio's media type and its bytes as they come. Engines that stream
 * (OpenAI-compatible) yield chunks while they speak; the embedded one yields one chunk per piece
 * of the text (a sentence, or a clause of a long one), each playable MP3 on its own and in
 * order one stream: a voice call can send them sentence by sentence.
 */
export interface SpeechAudio {
  /** e.g. `audio/mpeg` (the embedded engine's), `audio/wav`. */
  mimeType: string;
  /** The file's bytes, in order. Rejects with a {@link speechError}. */
  chunks: AsyncIterable<Uint8Array>;
}

/**
 * A speech engine, chosen by `SPEECH_PROVIDER`: the embedded one (Flite compiled to WASI, run in
 * worker processes), a local Kokoro or Piper model (sherpa-onnx), or an OpenAI-compatible `/v1/audio/speech`. Every
 * failure is a {@link speechError} (a `speech` {@link ProviderError}).
 */
export interface SpeechEngine {
  /** Which kind of engine it is. */
  readonly provider: SpeechProvider;
  /** The voices it speaks in, in the order to offer them. */
  voices: () => Promise<Voice[]>;
  /** Speaks `request.text`. */
  synthesize: (request: SpeechRequest, options: SynthesizeOptions) => Promise<SpeechAudio>;
  /** For the start-up log: the engine and its address, never its key. */
  describe: () => string;
  /** Releases worker threads and models. */
  close: () => Promise<void>;
}

/** Speech to text: an OpenAI-compatible `/v1/audio/transcriptions`, when `TRANSCRIBE_PROVIDER` is set. */
export interface TranscriptionEngine {
  /** What was said in `audio` (a recording of media type `mimeType`). */
  transcribe: (
    audio: Uint8Array,
    mimeType: string,
    options: { language?: string; signal: AbortSignal },
  ) => Promise<string>;
  /** For the start-up log. */
  describe: () => string;
}

/**
 * What went wrong, as people are told it (the detail is for the log):
 * `unreachable`, `unauthorized`, `busy`, `rejected` (unknown voice or model, text it refuses),
 * `failed`, `timeout`, `cut` (the connection dropped mid-file), `malformed`, `cancelled`.
 */
export type SpeechFailure = Extract<
  ProviderFailure,
  | 'unreachable'
  | 'unauthorized'
  | 'busy'
  | 'rejected'
  | 'failed'
  | 'timeout'
  | 'cut'
  | 'malformed'
  | 'cancelled'
>;

/**
 * A speech or transcription engine failed: a {@link ProviderError} of the `speech` provider.
 * `message` is for the log; `failure` for people.
 */
export function speechError(
  message: string,
  failure: SpeechFailure,
  options?: { cause?: unknown; status?: number },
): ProviderError<SpeechFailure> {
  return new ProviderError(message, failure, { ...options, provider: 'speech' });
}

/**
 * What a synthesis on this machine (`local` or `embedded`) threw, as a {@link speechError}:
 * `cancelled` when its `signal` aborted, else `failed`.
 */
export function synthesisError(
  where: 'local' | 'embedded',
  signal: AbortSignal,
  error: unknown,
): ProviderError<SpeechFailure> {
  if (signal.aborted)
    return speechError(`${where} synthesis cancelled`, 'cancelled', { cause: error });
  return speechError(`${where} synthesis failed: ${(error as Error).message}`, 'failed', {
    cause: error,
  });
}

/** Whether `error` is a speech or transcription engine's failure. */
export const isSpeechError = (error: unknown): error is ProviderError<SpeechFailure> =>
  isProviderError<SpeechFailure>(error, 'speech');
