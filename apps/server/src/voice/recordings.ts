import { setTimeout as delay } from 'node:timers/promises';
import { speechError } from './speech-engine';
import { readWaveFile, type WaveFile } from './wave-file';

// What every speech-to-text engine run in this process (local Whisper, embedded Moonshine)
// does with a recording: read WAV's samples, and answer within a deadline.

/** The media types of a WAV recording, as browsers and servers name it. */
const WAV_TYPES = new Set(['audio/wav', 'audio/wave', 'audio/x-wav', 'audio/vnd.wave']);

/**
 * A recording's mono samples (see {@link wavSamples}), or a `rejected` error naming the
 * `engine` when its media type is not WAV's: what every transcription run here takes.
 */
export function recordingSamples(
  audio: Uint8Array,
  mimeType: string,
  engine: string,
  sampleRate?: number,
): { samples: Float32Array; sampleRate: number } {
  const type = mimeType.split(';')[0]!.trim().toLowerCase();
  if (!WAV_TYPES.has(type))
    throw speechError(`the ${engine} transcription takes WAV recordings, not ${type}`, 'rejected');
  return wavSamples(audio, sampleRate);
}

/**
 * `work`, given a signal that aborts with the caller's `signal` or at the deadline; past `ms`
 * its answer is dropped (a decode cannot always be interrupted) and a `timeout` thrown.
 */
export async function withinDeadline<T>(
  work: (stop: AbortSignal) => Promise<T>,
  ms: number,
  signal: AbortSignal,
  engine: string,
): Promise<T> {
  const timer = new AbortController();
  const stop = AbortSignal.any([signal, timer.signal]);
  try {
    return await Promise.race([
      work(stop),
      delay(ms, undefined, { signal: timer.signal }).then(() => {
        throw speechError(`the ${engine} transcription took too long`, 'timeout');
      }),
    ]);
  } finally {
    timer.abort();
    signal.throwIfAborted();
  }
}

/**
 * A WAV recording's samples, mixed down to mono as 32-bit floats (wavefile reads any PCM or
 * float WAV), resampled to `sampleRate` when given. Anything else is refused in plain words,
 * never a crash.
 */
export function wavSamples(
  audio: Uint8Array,
  sampleRate?: number,
): { samples: Float32Array; sampleRate: number } {
  let wav: WaveFile;
  try {
    wav = readWaveFile(audio);
    wav.toBitDepth('32f');
    if (sampleRate && (wav.fmt as { sampleRate: number }).sampleRate !== sampleRate)
      wav.toSampleRate(sampleRate);
  } catch (error) {
    throw speechError(`not a readable WAV recording (${(error as Error).message})`, 'rejected');
  }
  const format = wav.fmt as { sampleRate: number; numChannels: number };
  const channels = wav.getSamples(false, Float32Array) as unknown as Float32Array | Float32Array[];
  const planes = Array.isArray(channels) ? channels : [channels];
  const first = planes[0] ?? new Float32Array(0);
  if (planes.length === 1) return { samples: first, sampleRate: format.sampleRate };
  const mono = new Float32Array(first.length);
  for (const plane of planes)
    for (let index = 0; index < mono.length; index += 1)
      mono[index]! += (plane[index] ?? 0) / planes.length;
  return { samples: mono, sampleRate: format.sampleRate };
}
