import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import pLimit from 'p-limit';
import type * as OnnxRuntime from 'onnxruntime-node';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import type { Logger } from '../logging/logger';
import { speechError, type TranscriptionEngine } from './speech-engine';
import { recordingSamples, withinDeadline } from './recordings';

const require = createRequire(import.meta.url);

/** The rate Moonshine hears at: every recording is resampled to it. */
const SAMPLE_RATE = 16_000;
/** Moonshine tiny's decoder: its layers, key-value heads and head size (its ONNX export's shape). */
const DECODER = { layers: 6, heads: 8, headSize: 36 } as const;
/** The tokenizer's start and end of a transcript. */
const START = 1;
const END = 2;
/**
 * The most seconds transcribed in one pass: Moonshine was trained on clips under about 64 s;
 * a longer recording (a long dictation) is transcribed in windows of this length, in order.
 */
const WINDOW_SECONDS = 30;
/** Tokens a second of speech may give at most (about three times a fast speaker's words). */
const TOKENS_PER_SECOND = 6;
/**
 * How likely the end must be, as the first token, for a recording to hold no speech; below it
 * the end is not taken first. The model sometimes ends at once on clear speech (0.39–0.52 on one
 * of three Flite sentences), on noise it did so at 0.996–0.999, on silence at 0.64 only (so
 * silence is told by its level: {@link SILENCE_RMS}).
 */
const NO_SPEECH = 0.9;
/** The level (root mean square, of 1) under which a window is silence: about −50 dBFS. */
const SILENCE_RMS = 0.003;

/** Options of {@link createEmbeddedTranscription}. */
export interface EmbeddedTranscriptionOptions {
  /** ONNX Runtime threads of one transcription (`TRANSCRIBE_THREADS`). */
  threads: number;
  /** How long one transcription may take, in ms. */
  timeoutMs: number;
  log: Logger;
}

/**
 * The folder of Moonshine tiny's quantized ONNX files in `@usefulsensors/moonshine-js`, found
 * where Node would look for the package (its `exports` name no file of the model).
 */
export function moonshineTinyFolder(): string {
  const name = '@usefulsensors/moonshine-js';
  const inside = path.join('dist', 'model', 'tiny', 'quantized');
  for (const modules of require.resolve.paths(name) ?? []) {
    const folder = path.join(modules, name, inside);
    if (fs.existsSync(path.join(folder, 'encoder_model.onnx'))) return folder;
  }
  throw new Error(`${name} is not installed (its Moonshine tiny model is what is read)`);
}

interface Moonshine {
  ort: typeof OnnxRuntime;
  encoder: InferenceSession;
  decoder: InferenceSession;
  decode: (tokens: number[]) => string;
}

async function loadMoonshine(threads: number): Promise<Moonshine> {
  const ort = require('onnxruntime-node') as typeof OnnxRuntime;
  const { default: tokenizer } = (await import('llama-tokenizer-js')) as {
    default: { decode: (tokens: number[]) => string };
  };
  const options: InferenceSession.SessionOptions = {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
  };
  let folder = 'node_modules';
  try {
    folder = moonshineTinyFolder();
    const [encoder, decoder] = await Promise.all([
      ort.InferenceSession.create(path.join(folder, 'encoder_model.onnx'), options),
      ort.InferenceSession.create(path.join(folder, 'decoder_model_merged.onnx'), options),
    ]);
    return { ort, encoder, decoder, decode: (tokens) => tokenizer.decode(tokens) };
  } catch (error) {
    throw new Error(
      `the Moonshine model in ${folder} cannot be loaded (${(error as Error).message}); reinstall with pnpm install`,
      { cause: error },
    );
  }
}

/** The index of the largest of `count` values of `values` from `offset`, `skip` left out. */
function largest(values: Float32Array, offset: number, count: number, skip = -1): number {
  let best = skip === 0 ? 1 : 0;
  for (let index = 0; index < count; index += 1)
    if (index !== skip && values[offset + index]! > values[offset + best]!) best = index;
  return best;
}

/** The probability of `index` among `count` logits from `offset` (a softmax's one entry). */
function probability(values: Float32Array, offset: number, count: number, index: number): number {
  let top = -Infinity;
  for (let at = 0; at < count; at += 1) top = Math.max(top, values[offset + at]!);
  let sum = 0;
  for (let at = 0; at < count; at += 1) sum += Math.exp(values[offset + at]! - top);
  return Math.exp(values[offset + index]! - top) / sum;
}

/**
 * One window of 16 kHz samples to text: the encoder once, then the decoder token by token
 * (greedy), its key-value cache fed back (the encoder's part is made at the first step only).
 */
async function transcribeWindow(
  model: Moonshine,
  samples: Float32Array,
  signal: AbortSignal,
): Promise<string> {
  const { ort } = model;
  let power = 0;
  for (const sample of samples) power += sample * sample;
  if (Math.sqrt(power / Math.max(1, samples.length)) < SILENCE_RMS) return '';
  const encoded = await model.encoder.run({
    input_values: new ort.Tensor('float32', samples, [1, samples.length]),
  });
  const cache: Record<string, Tensor> = {};
  for (let layer = 0; layer < DECODER.layers; layer += 1)
    for (const part of ['decoder', 'encoder'])
      for (const kind of ['key', 'value'])
        cache[`past_key_values.${layer}.${part}.${kind}`] = new ort.Tensor(
          'float32',
          new Float32Array(0),
          [0, DECODER.heads, 1, DECODER.headSize],
        );
  const tokens = [START];
  const most = Math.max(10, Math.ceil((samples.length / SAMPLE_RATE) * TOKENS_PER_SECOND));
  for (let step = 0; step < most; step += 1) {
    signal.throwIfAborted();
    const output = await model.decoder.run({
      input_ids: new ort.Tensor('int64', BigInt64Array.of(BigInt(tokens.at(-1)!)), [1, 1]),
      encoder_hidden_states: encoded.last_hidden_state!,
      use_cache_branch: new ort.Tensor('bool', [step > 0]),
      ...cache,
    });
    const logits = output.logits!.data as Float32Array;
    const vocabulary = output.logits!.dims.at(-1)!;
    const offset = logits.length - vocabulary;
    let next: number;
    if (step === 0) {
      if (probability(logits, offset, vocabulary, END) > NO_SPEECH) return '';
      next = largest(logits, offset, vocabulary, END);
    } else next = largest(logits, offset, vocabulary);
    if (next === END) break;
    tokens.push(next);
    for (const name of Object.keys(cache))
      if (step === 0 || name.includes('.decoder.'))
        cache[name] = output[name.replace('past_key_values', 'present')]!;
  }
  return model.decode(tokens).trim();
}

/**
 * The embedded, offline speech-to-text engine (`TRANSCRIBE_PROVIDER=embedded`, the default):
 * Moonshine tiny (English, 27 M parameters, MIT; its quantized encoder and decoder, 28 MB, come
 * with the npm package `@usefulsensors/moonshine-js`, so nothing is downloaded at run time) run
 * in the server by ONNX Runtime (`onnxruntime-node`, prebuilt, its own threads: the event loop
 * only steps the decoder). The model loads at the first transcription and stays loaded. It takes
 * WAV recordings (any rate, mixed to mono, resampled to 16 kHz), one at a time (p-limit).
 */
export function createEmbeddedTranscription(
  options: EmbeddedTranscriptionOptions,
): TranscriptionEngine {
  let model: Promise<Moonshine> | undefined;
  const queue = pLimit(1);
  const loaded = () => {
    model ??= loadMoonshine(options.threads).then(
      (ready) => {
        options.log.info('transcription model ready: Moonshine tiny (embedded)');
        return ready;
      },
      (error: Error) => {
        // Tried again at the next transcription: a file put back needs no restart.
        model = undefined;
        options.log.error(`The embedded transcription model cannot be loaded: ${error.message}`);
        throw speechError(`embedded transcription unavailable: ${error.message}`, 'failed', {
          cause: error,
        });
      },
    );
    return model;
  };

  return {
    async transcribe(audio, mimeType, { signal }) {
      const { samples } = recordingSamples(audio, mimeType, 'embedded', SAMPLE_RATE);
      return withinDeadline(
        (stop) =>
          queue(async () => {
            const ready = await loaded();
            const texts: string[] = [];
            const window = WINDOW_SECONDS * SAMPLE_RATE;
            for (let at = 0; at < samples.length; at += window) {
              stop.throwIfAborted();
              texts.push(await transcribeWindow(ready, samples.subarray(at, at + window), stop));
            }
            return texts.filter(Boolean).join(' ');
          }),
        options.timeoutMs,
        signal,
        'embedded',
      );
    },
    describe: () => `embedded (Moonshine tiny on ONNX Runtime, ${options.threads} thread(s))`,
  };
}
