import path from 'node:path';
import { createRequire } from 'node:module';
import pLimit from 'p-limit';
import type { Voice, VoiceGender } from '@mates/api-client';
import { describeVoice } from './openai-speech';
import { speechError, synthesisError, type SpeechEngine } from './speech-engine';
import { downloadVoiceModel, voiceModelFolder, type VoiceModelFiles } from './voice-model-download';
import type { Logger } from '../logging/logger';

/**
 * Speaker names of the Kokoro models whose `voices.bin` order is known (sherpa-onnx's model
 * pages list them by speaker id). Other Kokoro models get `Speaker <n>`.
 */
const KOKORO_SPEAKERS: Record<string, readonly string[]> = {
  'kokoro-en-v0_19': [
    'af',
    'af_bella',
    'af_nicole',
    'af_sarah',
    'af_sky',
    'am_adam',
    'am_michael',
    'bf_emma',
    'bf_isabella',
    'bm_george',
    'bm_lewis',
  ],
};

/** What sherpa-onnx-node answers; it ships no TypeScript types. */
interface SherpaTts {
  numSpeakers: number;
  sampleRate: number;
  generateAsync: (request: {
    text: string;
    sid: number;
    speed: number;
    onProgress?: (info: { progress: number }) => number;
  }) => Promise<{ samples: Float32Array; sampleRate: number }>;
}
interface SherpaModule {
  OfflineTts: { createAsync: (config: unknown) => Promise<SherpaTts> };
}

/** Options of {@link createLocalSpeech}. */
export interface LocalSpeechOptions {
  /** The hub repository of a sherpa-onnx Kokoro or Piper (VITS) model (`SPEECH_MODEL`). */
  model: string;
  /** `SPEECH_HUB_URL`, default `https://huggingface.co`. */
  hubUrl: string;
  /** `$DATA_DIR/voices`: each model in its own folder. */
  voicesDir: string;
  /** ONNX Runtime threads of one synthesis (`SPEECH_THREADS`). */
  threads: number;
  fetch: typeof globalThis.fetch;
  log: Logger;
  /** A progress bar on the console during the first download (on in the server). */
  progressBar?: boolean;
  /** Bytes of the model downloaded so far, and its total. */
  onProgress?: (done: number, total: number) => void;
}

/** A voice of a local model, with the speaker id sherpa-onnx knows it by. */
interface LocalVoice extends Voice {
  sid: number;
}

/** The voices of a loaded model, as people see them. */
export function localVoices(
  repo: string,
  kind: VoiceModelFiles['kind'],
  speakers: number,
): LocalVoice[] {
  const folder = repo.split('/').at(-1) ?? repo;
  if (kind === 'kokoro') {
    const names = KOKORO_SPEAKERS[folder];
    return Array.from({ length: speakers }, (_, sid) => {
      const id = names?.[sid];
      // `af` alone (Kokoro's default blend) reads as Bella-and-Sarah; call it what it is.
      const described = id && id.includes('_') ? describeVoice(id) : undefined;
      return {
        voiceId: `local-${id ?? sid}`,
        name: described?.name ?? (id === 'af' ? 'Kokoro (American)' : `Speaker ${sid + 1}`),
        gender: described?.gender ?? (id === 'af' ? 'female' : 'neutral'),
        language: described?.language ?? (id === 'af' ? 'en-US' : 'und'),
        engine: 'local',
        sid,
      };
    });
  }
  // Piper: `vits-piper-en_US-amy-low` speaks en-US as Amy; one speaker, or numbered ones.
  const piper =
    /^vits-piper-([a-z]{2,3})_([A-Z]{2})-([a-z0-9_]+?)(?:-(?:x_low|low|medium|high))?$/.exec(
      folder,
    );
  const name = piper ? piper[3]!.charAt(0).toUpperCase() + piper[3]!.slice(1) : folder;
  const language = piper ? `${piper[1]}-${piper[2]}` : 'und';
  const gender: VoiceGender = 'neutral';
  return Array.from({ length: Math.max(1, speakers) }, (_, sid) => ({
    voiceId: speakers > 1 ? `local-${sid}` : 'local',
    name: speakers > 1 ? `${name} ${sid + 1}` : name,
    gender,
    language,
    engine: 'local',
    sid,
  }));
}

/** 16-bit mono PCM in a WAV file: the 44-byte RIFF header, then the samples. */
export function wavFile(samples: Float32Array, sampleRate: number): Uint8Array {
  const bytes = Buffer.alloc(44 + samples.length * 2);
  bytes.write('RIFF', 0, 'ascii');
  bytes.writeUInt32LE(36 + samples.length * 2, 4);
  bytes.write('WAVEfmt ', 8, 'ascii');
  bytes.writeUInt32LE(16, 16);
  bytes.writeUInt16LE(1, 20); // PCM
  bytes.writeUInt16LE(1, 22); // mono
  bytes.writeUInt32LE(sampleRate, 24);
  bytes.writeUInt32LE(sampleRate * 2, 28);
  bytes.writeUInt16LE(2, 32);
  bytes.writeUInt16LE(16, 34);
  bytes.write('data', 36, 'ascii');
  bytes.writeUInt32LE(samples.length * 2, 40);
  for (let index = 0; index < samples.length; index += 1) {
    const sample = Math.max(-1, Math.min(1, samples[index]!));
    bytes.writeInt16LE(Math.round(sample * 32767), 44 + index * 2);
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** sherpa-onnx's configuration for the downloaded files. */
function sherpaConfig(files: VoiceModelFiles, threads: number): unknown {
  const common = { model: files.model, tokens: files.tokens, dataDir: files.dataDir ?? '' };
  return {
    model:
      files.kind === 'kokoro'
        ? {
            kokoro: {
              ...common,
              voices: files.voices,
              lexicon: files.lexicon ?? '',
              dictDir: files.dictDir ?? '',
            },
          }
        : { vits: { ...common, lexicon: files.lexicon ?? '', dictDir: files.dictDir ?? '' } },
    numThreads: threads,
    debug: false,
    provider: 'cpu',
    // One sentence at a time keeps memory flat on long replies.
    maxNumSentences: 1,
  };
}

/**
 * Loads a downloaded model into sherpa-onnx (off the event loop: `createAsync`). A corrupt or
 * missing file rejects with a plain `Error` naming the model, never a crash.
 */
export async function loadLocalSpeechModel(
  files: VoiceModelFiles,
  threads: number,
): Promise<SherpaTts> {
  const require = createRequire(import.meta.url);
  const sherpa = require('sherpa-onnx-node') as SherpaModule;
  try {
    return await sherpa.OfflineTts.createAsync(sherpaConfig(files, threads));
  } catch (error) {
    throw new Error(
      `the speech model in ${path.dirname(files.model)} cannot be loaded (${(error as Error).message}); delete that folder to download it again`,
      { cause: error },
    );
  }
}

/**
 * The local, high-quality speech engine (`SPEECH_PROVIDER=local`): a Kokoro or Piper model run
 * by sherpa-onnx (`sherpa-onnx-node`, Apache-2.0, prebuilt ONNX Runtime addon). The model is
 * downloaded once from the hub into `$DATA_DIR/voices/<owner>--<name>` with a progress bar, in
 * the background: the server starts at once and voice calls answer "busy" until it is loaded.
 * Synthesis runs in sherpa-onnx's own worker thread (`generateAsync`), one at a time (p-limit),
 * and answers a 16-bit mono WAV at the model's sample rate (24 kHz for Kokoro).
 */
export function createLocalSpeech(options: LocalSpeechOptions): SpeechEngine & {
  ready: Promise<void>;
} {
  let tts: SherpaTts | undefined;
  let voices: LocalVoice[] = [];
  let failure: string | undefined;
  const queue = pLimit(1);
  const ready = (async () => {
    try {
      const files = await downloadVoiceModel({
        hubUrl: options.hubUrl,
        repo: options.model,
        dir: path.join(options.voicesDir, voiceModelFolder(options.model)),
        fetch: options.fetch,
        progressBar: options.progressBar ?? false,
        onProgress: options.onProgress,
      });
      tts = await loadLocalSpeechModel(files, options.threads);
      voices = localVoices(options.model, files.kind, tts.numSpeakers);
      options.log.info(
        `speech model ready: ${options.model} (${voices.length} voice(s), ${tts.sampleRate} Hz)`,
      );
    } catch (error) {
      failure = (error as Error).message;
      options.log.error(`No local speech model is available: ${failure}`);
    }
  })();

  function loaded(): SherpaTts {
    if (tts) return tts;
    if (failure) throw speechError(`local speech model unavailable: ${failure}`, 'failed');
    throw speechError('the local speech model is still loading', 'busy');
  }

  return {
    provider: 'local',
    ready,
    voices: async () => {
      loaded();
      return voices.map(({ voiceId, name, gender, language, engine }) => ({
        voiceId,
        name,
        gender,
        language,
        engine,
      }));
    },
    async synthesize(request, { signal }) {
      const model = loaded();
      const chosen = voices.find((voice) => voice.voiceId === request.voice);
      if (!chosen) throw speechError(`no local voice ${request.voice}`, 'rejected');
      let audio: { samples: Float32Array; sampleRate: number };
      try {
        audio = await queue(() => {
          signal.throwIfAborted();
          return model.generateAsync({
            text: request.text,
            sid: chosen.sid,
            speed: 1,
            // Returning 0 stops sherpa-onnx between sentences.
            onProgress: () => (signal.aborted ? 0 : 1),
          });
        });
        signal.throwIfAborted();
      } catch (error) {
        throw synthesisError('local', signal, error);
      }
      const wav = wavFile(audio.samples, audio.sampleRate);
      return {
        mimeType: 'audio/wav',
        chunks: (async function* () {
          yield wav;
        })(),
      };
    },
    describe: () => `local (sherpa-onnx, ${options.model}, ${options.threads} thread(s))`,
    async close() {
      await ready;
      queue.clearQueue();
    },
  };
}
