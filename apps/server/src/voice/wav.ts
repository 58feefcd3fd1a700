import { CALL_AUDIO } from '@mates/api-client';
import { readWaveFile, type WaveFile } from './wave-file';

/** What {@link wavFacts} found: a call's utterance it takes, or why not. */
export type WavFacts =
  { ok: true; seconds: number } | { ok: false; why: string; maxSeconds: number };

/** The parts of a WAV file's `fmt ` chunk checked here, as wavefile reads them. */
interface WavFormat {
  audioFormat: number;
  numChannels: number;
  sampleRate: number;
  bitsPerSample: number;
}

/**
 * Checks that `audio` is what a call's utterance must be: a RIFF/WAVE file of 16-bit mono PCM
 * at {@link CALL_AUDIO.sampleRate}, with samples, of at most
 * {@link CALL_AUDIO.maxUtteranceSeconds}. The file is read by wavefile (the library the local
 * transcription reads recordings with), which refuses what is not a WAV file.
 */
export function wavFacts(audio: Uint8Array): WavFacts {
  const maxSeconds = CALL_AUDIO.maxUtteranceSeconds;
  const no = (why: string): WavFacts => ({ ok: false, why, maxSeconds });
  let wav: WaveFile;
  try {
    wav = readWaveFile(audio);
  } catch (error) {
    return no(`not a WAV file (${(error as Error).message})`);
  }
  const format = wav.fmt as WavFormat;
  if (format.audioFormat !== 1 || format.numChannels !== 1 || format.bitsPerSample !== 16)
    return no('not 16-bit mono PCM');
  if (format.sampleRate !== CALL_AUDIO.sampleRate) return no(`not ${CALL_AUDIO.sampleRate} Hz`);
  const bytes = (wav.data as { samples: Uint8Array }).samples.length;
  if (bytes < 2) return no('no samples');
  const seconds = bytes / 2 / CALL_AUDIO.sampleRate;
  if (seconds > maxSeconds) return no(`longer than ${maxSeconds} s`);
  return { ok: true, seconds };
}
