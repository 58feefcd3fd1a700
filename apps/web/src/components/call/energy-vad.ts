/** Settings of {@link createEnergyVad}; every duration in milliseconds. */
export interface EnergyVadOptions {
  /** The samples' rate in hertz. */
  sampleRate: number;
  /** Level (RMS, dBFS) above which a frame is speech; default -45. */
  startDb?: number;
  /** Level below which a frame is quiet again (lower than `startDb`: hysteresis); default -52. */
  stopDb?: number;
  /** The pause that ends a turn; default 700. */
  pauseMs?: number;
  /** Speech shorter than this is a misfire (a click, a cough); default 250. */
  minSpeechMs?: number;
  /** Audio kept from before speech began, so its first sound is not lost; default 300. */
  preRollMs?: number;
  /** Longest utterance: one this long ends at once; default 30000. */
  maxSpeechMs?: number;
}

/** What {@link EnergyVad.push} reports. */
export type EnergyVadEvent =
  { type: 'start' } | { type: 'end'; samples: Float32Array } | { type: 'misfire' };

/** A voice activity detector by level: feed it frames, it tells speech's start and end. */
export interface EnergyVad {
  /** Takes one frame of samples (any length); answers what it detected, if anything. */
  push(frame: Float32Array): EnergyVadEvent | null;
  /** Drops what it heard (muted, or the mate's voice was cut). */
  reset(): void;
}

function levelDb(frame: Float32Array): number {
  let sum = 0;
  for (const sample of frame) sum += sample * sample;
  const rms = Math.sqrt(sum / Math.max(1, frame.length));
  return rms > 0 ? 20 * Math.log10(rms) : -Infinity;
}

/**
 * Voice activity detection by the microphone's level, with hysteresis: a frame louder than
 * `startDb` starts speech (reported at once, for barge-in); speech ends after `pauseMs` below
 * `stopDb`, and its samples (with `preRollMs` before it) are the utterance, unless it was
 * shorter than `minSpeechMs` (a misfire). Pure: no audio API, so it is tested with numbers.
 */
export function createEnergyVad(options: EnergyVadOptions): EnergyVad {
  const {
    sampleRate,
    startDb = -45,
    stopDb = -52,
    pauseMs = 700,
    minSpeechMs = 250,
    preRollMs = 300,
    maxSpeechMs = 30_000,
  } = options;
  const perMs = sampleRate / 1000;
  let preRoll: Float32Array[] = [];
  let preRollLength = 0;
  let speech: Float32Array[] | null = null;
  let speechLength = 0;
  let voicedLength = 0;
  let quietLength = 0;

  const join = (frames: Float32Array[], length: number) => {
    const all = new Float32Array(length);
    let at = 0;
    for (const frame of frames) {
      all.set(frame, at);
      at += frame.length;
    }
    return all;
  };
  const reset = () => {
    preRoll = [];
    preRollLength = 0;
    speech = null;
    speechLength = 0;
    voicedLength = 0;
    quietLength = 0;
  };
  const finish = (): EnergyVadEvent => {
    const samples = join(speech!, speechLength);
    const voiced = voicedLength;
    reset();
    return voiced < minSpeechMs * perMs ? { type: 'misfire' } : { type: 'end', samples };
  };

  return {
    reset,
    push(frame) {
      const copy = Float32Array.from(frame);
      const db = levelDb(copy);
      if (!speech) {
        if (db < startDb) {
          preRoll.push(copy);
          preRollLength += copy.length;
          while (preRoll.length > 0 && preRollLength - preRoll[0]!.length >= preRollMs * perMs) {
            preRollLength -= preRoll.shift()!.length;
          }
          return null;
        }
        speech = [...preRoll, copy];
        speechLength = preRollLength + copy.length;
        preRoll = [];
        preRollLength = 0;
        voicedLength = copy.length;
        return { type: 'start' };
      }
      speech.push(copy);
      speechLength += copy.length;
      if (db < stopDb) quietLength += copy.length;
      else {
        quietLength = 0;
        voicedLength += copy.length;
      }
      if (quietLength >= pauseMs * perMs || speechLength >= maxSpeechMs * perMs) return finish();
      return null;
    },
  };
}
