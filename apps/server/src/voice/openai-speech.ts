import type { Voice, VoiceGender } from '@mates/api-client';
import type { SpeechFormat, SpeechRemoteConfig } from '../config';
import { openAiClient } from '../openai-sdk';
import { deadline, fromApiError } from './remote-errors';
import { speechError, type SpeechAudio, type SpeechEngine } from './speech-engine';
import type { Logger } from '../logging/logger';

const ENGINE = 'The OpenAI-compatible speech endpoint';

/** Listing voices must not hold a page up for the whole synthesis time limit. */
const LIST_TIMEOUT_MS = 10_000;

/** The media type of each `response_format`. */
export const SPEECH_MIME_TYPES: Record<SpeechFormat, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
};

/**
 * OpenAI's built-in voices, in the order its guide lists them, with who they are commonly
 * described as sounding like (`neutral` where descriptions disagree).
 */
export const OPENAI_VOICES: ReadonlyArray<readonly [id: string, gender: VoiceGender]> = [
  ['alloy', 'neutral'],
  ['ash', 'male'],
  ['ballad', 'male'],
  ['coral', 'female'],
  ['echo', 'male'],
  ['fable', 'neutral'],
  ['nova', 'female'],
  ['onyx', 'male'],
  ['sage', 'female'],
  ['shimmer', 'female'],
  ['verse', 'male'],
];

/** Kokoro voice ids start with a language letter: `af_bella` is American English. */
const KOKORO_LANGUAGES: Record<string, string> = {
  a: 'en-US',
  b: 'en-GB',
  e: 'es',
  f: 'fr',
  h: 'hi',
  i: 'it',
  j: 'ja',
  p: 'pt-BR',
  z: 'zh',
};

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * A voice id as people see it: one of OpenAI's, a Kokoro id (`af_bella`: language letter,
 * `f`/`m` for female or male, then the name), or any other id, which is neutral and of
 * undetermined language (`und`).
 */
export function describeVoice(voiceId: string): Voice {
  const openAi = OPENAI_VOICES.find(([id]) => id === voiceId);
  if (openAi)
    return {
      voiceId,
      name: capitalized(voiceId),
      gender: openAi[1],
      language: 'en-US',
      engine: 'openai',
    };
  const kokoro = /^([a-z])([fm])_([a-z0-9_]+)$/i.exec(voiceId);
  const language = kokoro && KOKORO_LANGUAGES[kokoro[1]!.toLowerCase()];
  if (kokoro && language)
    return {
      voiceId,
      name: kokoro[3]!.split('_').map(capitalized).join(' '),
      gender: kokoro[2]!.toLowerCase() === 'f' ? 'female' : 'male',
      language,
      engine: 'openai',
    };
  return { voiceId, name: voiceId, gender: 'neutral', language: 'und', engine: 'openai' };
}

/** Options of {@link createOpenAiSpeechEngine}. */
export interface OpenAiSpeechOptions {
  config: SpeechRemoteConfig;
  fetch: typeof globalThis.fetch;
  log: Logger;
}

/**
 * Any OpenAI-compatible `/audio/speech` endpoint (OpenAI, Kokoro-FastAPI, LocalAI and others),
 * through the official `openai` client with our fetch. The audio is passed on as it arrives,
 * so playback starts while the engine is still speaking. The voices are `SPEECH_VOICES`, else
 * the server's own list where it answers Kokoro-FastAPI's `GET /audio/voices`, else OpenAI's.
 * `SPEECH_TIMEOUT` bounds one synthesis, its whole audio included.
 */
export function createOpenAiSpeechEngine(options: OpenAiSpeechOptions): SpeechEngine {
  const { baseUrl, model, format, timeoutMs } = options.config;
  const client = openAiClient({ ...options.config, fetch: options.fetch });
  const openAiList = () => OPENAI_VOICES.map(([id]) => describeVoice(id));
  /** The voices once the server has said (or shown it has no list); not kept while it is down. */
  let listed: Voice[] | undefined;

  async function serverVoices(): Promise<Voice[]> {
    if (listed) return listed;
    // OpenAI's own API has no voice list.
    if (new URL(baseUrl).hostname === 'api.openai.com') return (listed = openAiList());
    const limit = deadline(ENGINE, LIST_TIMEOUT_MS, new AbortController().signal);
    try {
      const answer = await client.get<unknown>('/audio/voices', { signal: limit.signal });
      const ids = (answer as { voices?: unknown } | null)?.voices;
      if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string') || !ids.length)
        throw speechError(
          `${ENGINE} answered /audio/voices without a list of voice ids: ${JSON.stringify(answer)?.slice(0, 300)}`,
          'malformed',
        );
      return (listed = ids.map(describeVoice));
    } catch (thrown) {
      const error = limit.explain(fromApiError(ENGINE, thrown));
      options.log.warn(`speech voices: ${error.message}; offering OpenAI's voices`);
      // A server that answered (no such call, or not a list) will not list them later either.
      if (error.status !== undefined || error.failure === 'malformed') listed = openAiList();
      return openAiList();
    }
  }

  return {
    provider: 'openai',
    describe: () => `OpenAI-compatible speech ${baseUrl} (${model}, ${format})`,
    voices: () =>
      options.config.voices
        ? Promise.resolve(options.config.voices.map(describeVoice))
        : serverVoices(),
    async synthesize(request, { signal }): Promise<SpeechAudio> {
      const limit = deadline(ENGINE, timeoutMs, signal);
      let response: Response;
      try {
        response = await client.audio.speech.create(
          { model, voice: request.voice, input: request.text, response_format: format },
          { signal: limit.signal },
        );
      } catch (error) {
        throw limit.explain(fromApiError(ENGINE, error));
      }
      const type = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
      if (
        !response.body ||
        (type && !type.startsWith('audio/') && type !== 'application/octet-stream')
      ) {
        await response.body?.cancel().catch(() => {});
        throw speechError(`${ENGINE} answered ${type ?? 'no body'} instead of audio`, 'malformed', {
          status: response.status,
        });
      }
      return {
        mimeType: type?.startsWith('audio/') ? type : SPEECH_MIME_TYPES[format],
        chunks: chunksOf(response.body, limit),
      };
    },
    close: () => Promise.resolve(),
  };
}

/**
 * The body's bytes as they arrive. A connection dropped mid-file is `cut`; the caller's signal
 * or the time limit stop the download; a consumer that stops early closes the connection.
 */
async function* chunksOf(
  body: ReadableStream<Uint8Array>,
  limit: ReturnType<typeof deadline>,
): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let bytes = 0;
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        throw limit.explain(error);
      }
      if (next.done) break;
      if (!next.value.byteLength) continue;
      bytes += next.value.byteLength;
      yield next.value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  if (!bytes) throw speechError(`${ENGINE} answered no audio`, 'malformed');
}
