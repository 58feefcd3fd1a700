import type { TranscriptionConfig } from '../config';
import type { Logger } from '../logging/logger';
import { createLocalTranscription } from './local-transcription';
import { createOpenAiTranscriptionEngine } from './openai-transcription';
import type { TranscriptionEngine } from './speech-engine';

/**
 * The speech-to-text engine `TRANSCRIBE_PROVIDER` names: an OpenAI-compatible endpoint
 * (`openai`), a Whisper model run here (`local`), or `null` when it is not set up (the browser's
 * own recognition is then the only way to talk: the composer's microphone and voice calls use it).
 */
export function createTranscriptionEngine(
  config: TranscriptionConfig | null,
  fetch: typeof globalThis.fetch,
  log: Logger,
): TranscriptionEngine | null {
  if (!config) return null;
  if (config.provider === 'local')
    return createLocalTranscription({ config, fetch, log, progressBar: true });
  return createOpenAiTranscriptionEngine({ config, fetch });
}
