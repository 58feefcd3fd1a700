import { CALL_AUDIO } from '@mates/api-client';

/** What {@link wavFacts} found: a call's utterance it takes, or why not. */
export type WavFacts =
  { ok: true; seconds: number } | { ok: false; why: string; maxSeconds: number };

/**
 * Checks that `audio` is what a call's utterance must be: a RIFF/WAVE file of 16-bit mono PCM
 * at {@link CALL_AUDIO.sampleRate}, with samples, of at most
 * {@link CALL_AUDIO.maxUtteranceSeconds}. Reads the chunks' headers only.
 */
export function wavFacts(audio: Uint8Array): WavFacts {
  const maxSeconds = CALL_AUDIO.maxUtteranceSeconds;
  const no = (why: string): WavFacts => ({ ok: false, why, maxSeconds });
  const bytes = Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength);
  if (bytes.length < 12 || bytes.toString('ascii', 0, 4) !== 'RIFF') return no('not a RIFF file');
  if (bytes.toString('ascii', 8, 12) !== 'WAVE') return no('not a WAVE file');
  let format: { pcm: boolean; channels: number; rate: number; bits: number } | null = null;
  for (let at = 12; at + 8 <= bytes.length;) {
    const id = bytes.toString('ascii', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > bytes.length) return no('a short fmt chunk');
      format = {
        pcm: bytes.readUInt16LE(body) === 1,
        channels: bytes.readUInt16LE(body + 2),
        rate: bytes.readUInt32LE(body + 4),
        bits: bytes.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!format) return no('data before its format');
      if (!format.pcm || format.channels !== 1 || format.bits !== 16)
        return no('not 16-bit mono PCM');
      if (format.rate !== CALL_AUDIO.sampleRate) return no(`not ${CALL_AUDIO.sampleRate} Hz`);
      // A recorder that streams may leave the size unset (0 or all ones): what is there counts.
      const length = Math.min(size, bytes.length - body);
      if (length < 2) return no('no samples');
      const seconds = length / (format.rate * 2);
      if (seconds > maxSeconds) return no(`longer than ${maxSeconds} s`);
      return { ok: true, seconds };
    }
    at = body + size + (size % 2);
  }
  return no('no data chunk');
}
