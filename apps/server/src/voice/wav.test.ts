import { describe, expect, it } from 'vitest';
import wavefile from 'wavefile';
import { wavFile } from './local-speech';
import { wavFacts } from './wav';

describe("a call's utterance", () => {
  it('takes 16-bit mono PCM at 16 kHz and says how long it is', () => {
    expect(wavFacts(wavFile(new Float32Array(8000), 16_000))).toEqual({ ok: true, seconds: 0.5 });
  });

  it('refuses other rates, stereo, float samples, no samples, too long and not a WAV file', () => {
    const why = (audio: Uint8Array) => {
      const facts = wavFacts(audio);
      return facts.ok ? 'ok' : facts.why;
    };
    expect(why(wavFile(new Float32Array(100), 44_100))).toBe('not 16000 Hz');
    const stereo = new wavefile.WaveFile();
    stereo.fromScratch(2, 16_000, '16', [
      [0, 1],
      [0, 1],
    ]);
    expect(why(stereo.toBuffer())).toBe('not 16-bit mono PCM');
    const float = new wavefile.WaveFile();
    float.fromScratch(1, 16_000, '32f', [0, 0.5]);
    expect(why(float.toBuffer())).toBe('not 16-bit mono PCM');
    expect(why(wavFile(new Float32Array(0), 16_000))).toBe('no samples');
    expect(why(wavFile(new Float32Array(16_000 * 31), 16_000))).toBe('longer than 30 s');
    expect(why(new TextEncoder().encode('RIFF....WAVEnot really'))).toMatch(/^not a WAV file/);
    expect(why(new Uint8Array(0))).toMatch(/^not a WAV file/);
  });
});
