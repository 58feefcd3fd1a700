import path from 'node:path';
import { createRequire } from 'node:module';
import pLimit from 'p-limit';
import type { LocalTranscriptionConfig } from '../config';
import type { Logger } from '../logging/logger';
import { speechError, type TranscriptionEngine } from './speech-engine';
import { recordingSamples, withinDeadline } from './recordings';
import { downloadHubModel, voiceModelFolder, type HubModelPick } from './voice-model-download';

/** The files of a sherpa-onnx Whisper model, by role. */
export interface WhisperModelFiles {
  encoder: string;
  decoder: string;
  tokens: string;
}

/** What sherpa-onnx-node answers; it ships no TypeScript types. */
interface SherpaStream {
  acceptWaveform: (wave: { sampleRate: number; samples: Float32Array }) => void;
}
interface SherpaRecognizer {
  createStream: () => SherpaStream;
  decodeAsync: (stream: SherpaStream) => Promise<{ text: string }>;
}
interface SherpaModule {
  OfflineRecognizer: { createAsync: (config: unknown) => Promise<SherpaRecognizer> };
}

/**
 * Of a sherpa-onnx Whisper repository (`tiny.en-encoder.onnx`, `tiny.en-encoder.int8.onnx`,
 * the decoders, `tiny.en-tokens.txt`, test recordings and export scripts), what transcription
 * reads: the int8 encoder and decoder where the repository has them (a quarter of the size,
 * near the same accuracy on CPU), and the tokens.
 */
export const WHISPER_PICK: HubModelPick<WhisperModelFiles> = {
  label: 'transcription model',
  needs: 'a sherpa-onnx Whisper model (no encoder, decoder and tokens files)',
  select(names) {
    const top = names.filter((name) => !name.includes('/'));
    const network = (part: 'encoder' | 'decoder') =>
      top.find((name) => name.endsWith(`${part}.int8.onnx`)) ??
      top.find((name) => name.endsWith(`${part}.onnx`));
    const encoder = network('encoder');
    const decoder = network('decoder');
    const tokens = top.find((name) => name.endsWith('tokens.txt'));
    if (!encoder || !decoder || !tokens) return null;
    return { files: [encoder, decoder, tokens], chosen: { encoder, decoder, tokens } };
  },
  absolute: (dir, chosen) => ({
    encoder: path.join(dir, chosen.encoder),
    decoder: path.join(dir, chosen.decoder),
    tokens: path.join(dir, chosen.tokens),
  }),
};

/** Options of {@link createLocalTranscription}. */
export interface LocalTranscriptionOptions {
  config: LocalTranscriptionConfig;
  fetch: typeof globalThis.fetch;
  log: Logger;
  /** A progress bar on the console during the first download (on in the server). */
  progressBar?: boolean;
}

/**
 * Loads a downloaded Whisper model into sherpa-onnx (off the event loop: `createAsync`). A
 * corrupt or missing file rejects with a plain `Error` naming the model, never a crash.
 */
export async function loadWhisperModel(
  files: WhisperModelFiles,
  threads: number,
  language: string,
): Promise<SherpaRecognizer> {
  const sherpa = createRequire(import.meta.url)('sherpa-onnx-node') as SherpaModule;
  try {
    return await sherpa.OfflineRecognizer.createAsync({
      featConfig: { sampleRate: 16000, featureDim: 80 },
      modelConfig: {
        whisper: { encoder: files.encoder, decoder: files.decoder, language, task: 'transcribe' },
        tokens: files.tokens,
        numThreads: threads,
        provider: 'cpu',
        debug: 0,
      },
    });
  } catch (error) {
    throw new Error(
      `the transcription model in ${path.dirname(files.encoder)} cannot be loaded (${(error as Error).message}); delete that folder to download it again`,
      { cause: error },
    );
  }
}

/**
 * The local speech-to-text engine (`TRANSCRIBE_PROVIDER=local`): a Whisper model (tiny.en by
 * default) run in the server by sherpa-onnx — the same `sherpa-onnx-node` addon the local speech
 * engine uses, with prebuilt binaries, so no compiler and no second native binding. The model is
 * downloaded once from the hub into `$DATA_DIR/voices/<owner>--<name>` in the background: the
 * server starts at once and transcriptions answer "busy" until it is loaded, then work offline.
 * It takes WAV recordings (what voice calls send; any rate, mixed to mono, resampled by
 * sherpa-onnx to 16 kHz), one at a time (p-limit) in sherpa-onnx's own thread (`decodeAsync`).
 */
export function createLocalTranscription(
  options: LocalTranscriptionOptions,
): TranscriptionEngine & {
  ready: Promise<void>;
} {
  const { config } = options;
  const recognizers = new Map<string, Promise<SherpaRecognizer>>();
  let files: WhisperModelFiles | undefined;
  let failure: string | undefined;
  const queue = pLimit(1);
  const ready = (async () => {
    try {
      files = await downloadHubModel(
        {
          hubUrl: config.hubUrl,
          repo: config.model,
          dir: path.join(config.modelsDir, voiceModelFolder(config.model)),
          fetch: options.fetch,
          progressBar: options.progressBar ?? false,
        },
        WHISPER_PICK,
      );
      // English models (`*.en`) take no language; multilingual ones are told it per recording.
      recognizers.set('', loadWhisperModel(files, config.threads, ''));
      await recognizers.get('');
      options.log.info(`transcription model ready: ${config.model}`);
    } catch (error) {
      failure = (error as Error).message;
      options.log.error(`No local transcription model is available: ${failure}`);
    }
  })();

  /** The recognizer for `language` (multilingual Whisper is told the language it hears). */
  function recognizer(language: string | undefined): Promise<SherpaRecognizer> {
    if (failure) throw speechError(`local transcription unavailable: ${failure}`, 'failed');
    if (!files) throw speechError('the local transcription model is still loading', 'busy');
    const key = config.model.endsWith('.en') || !language ? '' : language.slice(0, 2);
    let loaded = recognizers.get(key);
    if (!loaded) {
      loaded = loadWhisperModel(files, config.threads, key);
      recognizers.set(key, loaded);
    }
    return loaded;
  }

  return {
    async transcribe(audio, mimeType, { language, signal }) {
      const wave = recordingSamples(audio, mimeType, 'local');
      const model = await recognizer(language);
      signal.throwIfAborted();
      const result = await withinDeadline(
        (stop) =>
          queue(async () => {
            stop.throwIfAborted();
            const stream = model.createStream();
            stream.acceptWaveform(wave);
            return model.decodeAsync(stream);
          }),
        config.timeoutMs,
        signal,
        'local',
      );
      return result.text.trim();
    },
    describe: () => `local (sherpa-onnx Whisper, ${config.model}, ${config.threads} thread(s))`,
    ready,
  };
}
