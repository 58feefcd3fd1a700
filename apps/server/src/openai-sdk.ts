import { createRequire } from 'node:module';
import type * as OpenAiModule from 'openai';

const require = createRequire(import.meta.url);

/**
 * The official `openai` SDK, required by the first engine that talks to an OpenAI-compatible
 * service (pictures, speech, transcription) rather than imported: it is about 500 modules,
 * which a server using none of those engines never needs. Every user takes it from here, so
 * its error classes are the ones its clients throw.
 */
export function openAiSdk(): typeof OpenAiModule {
  return require('openai') as typeof OpenAiModule;
}
