import type { SpeechConfig } from '../config';
import { createEmbeddedSpeech } from './embedded-speech';
import type { SpeechEngine } from './speech-engine';

/**
 * The speech engine `SPEECH_PROVIDER` names, or `null` when it is `none` (every voice call then
 * answers 5007). Engines not built into this server refuse to start rather than fail later.
 */
export function createSpeechEngine(
  config: SpeechConfig | null,
  log: (line: string) => void,
): SpeechEngine | null {
  if (!config) return null;
  switch (config.provider) {
    case 'embedded':
      return createEmbeddedSpeech({ threads: config.threads });
    default:
      log(`speech: SPEECH_PROVIDER=${config.provider} is not available in this build`);
      throw new Error(
        `SPEECH_PROVIDER=${config.provider} is not available in this build; use embedded or none`,
      );
  }
}
