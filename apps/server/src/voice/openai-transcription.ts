import { openAiClient, openAiSdk } from '../openai-sdk';
import type { RemoteTranscriptionConfig } from '../config';
import { deadline, fromApiError } from './remote-errors';
import { speechError, type TranscriptionEngine } from './speech-engine';

const ENGINE = 'The OpenAI-compatible transcription endpoint';

/** The file name's extension for each recorder type: servers guess the format from it. */
const EXTENSIONS: Record<string, string> = {
  'audio/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/mp4': 'mp4',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
};

/** Options of {@link createOpenAiTranscriptionEngine}. */
export interface OpenAiTranscriptionOptions {
  config: RemoteTranscriptionConfig;
  fetch: typeof globalThis.fetch;
}

/**
 * Any OpenAI-compatible `/audio/transcriptions` endpoint (OpenAI, LocalAI, faster-whisper
 * servers…), through the official `openai` client: the recording goes up as a multipart file
 * with `TRANSCRIBE_MODEL` and, when known, the language; the answer's `text` comes back.
 */
export function createOpenAiTranscriptionEngine(
  options: OpenAiTranscriptionOptions,
): TranscriptionEngine {
  const { baseUrl, model, timeoutMs } = options.config;
  const client = openAiClient({ ...options.config, fetch: options.fetch });
  return {
    describe: () => `OpenAI-compatible transcription ${baseUrl} (${model})`,
    async transcribe(audio, mimeType, { language, signal }) {
      const limit = deadline(ENGINE, timeoutMs, signal);
      try {
        const type = mimeType.split(';')[0]!.trim().toLowerCase();
        const file = await openAiSdk().toFile(audio, `recording.${EXTENSIONS[type] ?? 'webm'}`, {
          type,
        });
        const answer = await client.audio.transcriptions.create(
          { file, model, ...(language ? { language } : {}) },
          { signal: limit.signal },
        );
        const text = (answer as { text?: unknown } | null)?.text;
        if (typeof text !== 'string')
          throw speechError(
            `${ENGINE} answered no text: ${JSON.stringify(answer)?.slice(0, 300)}`,
            'malformed',
          );
        return text.trim();
      } catch (error) {
        throw limit.explain(fromApiError(ENGINE, error));
      }
    },
  };
}
