import type { SpeechConfig, SpeechRemoteConfig } from '../config';
import { createEmbeddedSpeech } from './embedded-speech';
import { createLocalSpeech } from './local-speech';
import { createOpenAiSpeechEngine } from './openai-speech';
import type { SpeechEngine } from './speech-engine';
import type { Logger } from '../logging/logger';

/**
 * The speech engine `SPEECH_PROVIDER` names, or `null` when it is `none` (every voice call then
 * answers 5007).
 */
export function createSpeechEngine(
  config: SpeechConfig | null,
  remote: SpeechRemoteConfig | null,
  fetch: typeof globalThis.fetch,
  log: Logger,
): SpeechEngine | null {
  if (!config) return null;
  switch (config.provider) {
    case 'embedded':
      return createEmbeddedSpeech({ threads: config.threads, tempDir: config.tempDir, log });
    case 'local':
      if (!config.local) throw new Error('SPEECH_PROVIDER=local without its model settings');
      return createLocalSpeech({
        ...config.local,
        threads: config.threads,
        fetch,
        log,
        // The first start downloads the model: a progress bar on the console, as for the LLM.
        progressBar: true,
      });
    case 'openai':
      // Config reading gives the remote settings whenever the provider is `openai`.
      if (!remote) throw new Error('SPEECH_PROVIDER=openai without its SPEECH_* settings');
      return createOpenAiSpeechEngine({ config: remote, fetch, log });
  }
}
