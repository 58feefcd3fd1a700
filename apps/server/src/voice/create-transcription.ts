import type { TranscriptionConfig } from '../config';
import type { Logger } from '../logging/logger';
import { createEmbeddedTranscription } from './embedded-transcription';
import { createLocalTranscription } from './local-transcription';
import { createOpenAiTranscriptionEngine } from './openai-transcription';
import type { TranscriptionEngine } from './speech-engine';

/**
 * The speech-to-text engine `TRANSCRIBE_PROVIDER` names: the embedded Moonshine model
 * (`embedded`, the default), an OpenAI-compatible endpoint (`openai`), a Whisper model run here
 * (`local`), or `null` when it is turned off (`none`: the browser's own recognition is then the
 * only way to talk; the composer's microphone and voice calls use it).
 */
export function createTranscriptionEngine(
  config: TranscriptionConfig | null,
  fetch: typeof globalThis.fetch,
  log: Logger,
): TranscriptionEngine | null {
  if (!config) return null;
  if (config.provider === 'embedded')
    return createEmbeddedTranscription({
      threads: config.threads,
      timeoutMs: config.timeoutMs,
      log,
    });
  if (config.provider === 'local')
    return createLocalTranscription({ config, fetch, log, progressBar: true });
  return createOpenAiTranscriptionEngine({ config, fetch });
}
