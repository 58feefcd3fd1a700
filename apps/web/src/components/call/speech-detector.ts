import { CALL_AUDIO } from '@mates/api-client';
import type { FrameProcessorEvent } from '@ricky0123/vad-web/dist/frame-processor';

// The Silero model and ONNX Runtime's WebAssembly, as files of the app's own origin (fetched at
// a call's first microphone, never with the page): the Content-Security-Policy lets the page
// compile WebAssembly (`'wasm-unsafe-eval'`) but load code only from 'self'.
import sileroUrl from '@ricky0123/vad-web/dist/silero_vad_v5.onnx?url&no-inline';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url&no-inline';

/** The rate Silero hears at; frames of other rates are resampled to it. */
export const DETECTOR_RATE = 16_000;
/** Samples in one of Silero v5's frames (32 ms). */
const FRAME_SAMPLES = 512;
const FRAME_MS = (FRAME_SAMPLES / DETECTOR_RATE) * 1000;

/** Settings of {@link loadSpeechDetector}; every duration in milliseconds. */
export interface SpeechDetectorOptions {
  /** The rate of the samples pushed; default 16 kHz (others are resampled to it). */
  sampleRate?: number;
  /** The pause that ends a turn; default 700. */
  pauseMs?: number;
  /** Speech shorter than this is a misfire (a click, a cough); default 250. */
  minSpeechMs?: number;
  /** Audio kept from before speech began, so its first sound is not lost; default 300. */
  preRollMs?: number;
  /** Longest utterance: one this long ends at once; default the call's longest. */
  maxSpeechMs?: number;
  /** Silero's speech probability from which a frame is speech; default 0.5. */
  threshold?: number;
}

/** What a {@link SpeechDetector} reports. */
export type SpeechEvent =
  { type: 'start' } | { type: 'end'; samples: Float32Array } | { type: 'misfire' };

/** A voice activity detector: fed the microphone's samples, it tells speech's start and end. */
export interface SpeechDetector {
  /** Takes samples at its `sampleRate` (any number); events follow once their frames are judged. */
  push(samples: Float32Array): void;
  /** Drops what it heard and what it has not judged yet (muted, or the call ended). */
  reset(): void;
  /** Judges what was pushed, then lets the model go. */
  close(): Promise<void>;
}

/**
 * Loads voice activity detection by Silero VAD v5 (`@ricky0123/vad-web`: the model, its
 * speech-segment state machine `FrameProcessor`; ONNX Runtime Web runs the model on one thread).
 * Speech starts at its first frame over `threshold` (reported at once: the mate stops talking
 * at it) and ends after `pauseMs` under it; its samples, with `preRollMs` before, are the
 * utterance (at 16 kHz), unless fewer than `minSpeechMs` of them were speech (a misfire).
 *
 * @throws when the model or the runtime cannot be loaded (the call fails: nothing would hear).
 */
export async function loadSpeechDetector(
  options: SpeechDetectorOptions,
  onEvent: (event: SpeechEvent) => void,
): Promise<SpeechDetector> {
  const {
    sampleRate = DETECTOR_RATE,
    pauseMs = 700,
    minSpeechMs = 250,
    preRollMs = 300,
    maxSpeechMs = CALL_AUDIO.maxUtteranceSeconds * 1000,
    threshold = 0.5,
  } = options;
  const [ort, { Silero }, { FrameProcessor }, { Message }, { Resampler }, { log }] =
    await Promise.all([
      import('onnxruntime-web/wasm'),
      import('@ricky0123/vad-web/dist/models/silero'),
      import('@ricky0123/vad-web/dist/frame-processor'),
      import('@ricky0123/vad-web/dist/messages'),
      import('@ricky0123/vad-web/dist/resampler'),
      import('@ricky0123/vad-web/dist/logging'),
    ]);
  // The library writes its debug lines ("Loading VAD...") to the console of every call.
  log.debug = () => {};
  ort.env.logLevel = 'error';
  ort.env.wasm.wasmPaths = { wasm: ortWasmUrl };
  // Threads need a cross-origin isolated page (SharedArrayBuffer); one frame takes ~1 ms.
  ort.env.wasm.numThreads = 1;
  const model = await Silero.new(ort, async () => {
    const response = await fetch(sileroUrl);
    if (!response.ok) throw new Error(`the voice detection model answered ${response.status}`);
    return response.arrayBuffer();
  });
  const processor = new FrameProcessor(
    model.process,
    model.reset_state,
    {
      positiveSpeechThreshold: threshold,
      negativeSpeechThreshold: Math.max(0, threshold - 0.15),
      redemptionMs: pauseMs,
      preSpeechPadMs: preRollMs,
      minSpeechMs,
      submitUserSpeechOnPause: false,
    },
    FRAME_MS,
  );
  processor.resume();

  // Frames of 512 samples at 16 kHz, cut (and resampled where the rate differs) by the library.
  const framer = () =>
    new Resampler({
      nativeSampleRate: sampleRate,
      targetSampleRate: DETECTOR_RATE,
      targetFrameSize: FRAME_SAMPLES,
    });
  let resampler = framer();
  // Frames are judged one after another; a reset drops those queued before it.
  let queue = Promise.resolve();
  let generation = 0;
  let speechFrames = 0;
  const handle = (event: FrameProcessorEvent) => {
    if (event.msg === Message.SpeechStart) {
      speechFrames = 0;
      onEvent({ type: 'start' });
    } else if (event.msg === Message.VADMisfire) onEvent({ type: 'misfire' });
    else if (event.msg === Message.SpeechEnd) onEvent({ type: 'end', samples: event.audio });
  };
  const judge = async (frame: Float32Array, of: number) => {
    if (of !== generation) return;
    await processor.process(frame, handle);
    if (of !== generation || !processor.speaking) return;
    // An utterance at its longest ends at once; speech going on starts the next.
    speechFrames += 1;
    if (speechFrames * FRAME_MS >= maxSpeechMs) processor.endSegment(handle);
  };

  return {
    push(samples) {
      const of = generation;
      for (const frame of resampler.process(samples))
        // A frame the model failed on drops the segment in progress, not the detector.
        queue = queue.then(() => judge(frame, of)).catch(() => processor.reset());
    },
    reset() {
      generation += 1;
      resampler = framer();
      queue = queue.then(() => processor.reset());
    },
    close: async () => {
      // What was pushed is judged first (its events still reported), then the model goes.
      await queue;
      generation += 1;
      await model.release();
    },
  };
}
