import { createRequire } from 'node:module';
import type * as OpenAiModule from 'openai';
import type OpenAI from 'openai';

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

/**
 * The official `openai` client for an OpenAI-compatible server at `baseUrl` (pictures, speech,
 * transcription), with our fetch. The client insists on a key: servers without one
 * (Kokoro-FastAPI, LocalAI) get no Authorization header. One call is one try within
 * `timeoutMs`: the caller (the job runner, the clip's maker) decides about trying again.
 */
export function openAiClient(options: {
  baseUrl: string;
  apiKey: string | undefined;
  timeoutMs: number;
  fetch: typeof globalThis.fetch;
}): OpenAI {
  const { OpenAI: OpenAIClient } = openAiSdk();
  return new OpenAIClient({
    baseURL: options.baseUrl,
    apiKey: options.apiKey ?? 'none',
    defaultHeaders: options.apiKey ? {} : { authorization: null },
    organization: null,
    project: null,
    fetch: options.fetch,
    maxRetries: 0,
    timeout: options.timeoutMs,
  });
}
