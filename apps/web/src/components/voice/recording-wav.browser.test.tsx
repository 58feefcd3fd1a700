import { describe, expect, it } from 'vitest';
import { RECORDING_RATE, recordingToWav } from './recording-wav';

/** What the browser's MediaRecorder makes of `seconds` of a 440 Hz tone (a stereo stream). */
async function recordTone(seconds: number): Promise<Blob> {
  const context = new AudioContext();
  const tone = context.createOscillator();
  tone.frequency.value = 440;
  const out = context.createMediaStreamDestination();
  out.channelCount = 2;
  tone.connect(out);
  tone.start();
  const recorder = new MediaRecorder(out.stream);
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => chunks.push(event.data);
  const stopped = new Promise((resolve) => (recorder.onstop = resolve));
  recorder.start();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  recorder.stop();
  await stopped;
  await context.close();
  return new Blob(chunks, { type: recorder.mimeType });
}

describe('recordingToWav', () => {
  it('turns a MediaRecorder recording into a 16 kHz mono 16-bit WAV of the same sound', async () => {
    const recording = await recordTone(1.5);
    expect(recording.type).toMatch(/^audio\/webm/);
    const wav = await recordingToWav(recording);
    expect(wav.type).toBe('audio/wav');
    const view = new DataView(await wav.arrayBuffer());
    const text = (at: number) => String.fromCharCode(...new Uint8Array(view.buffer, at, 4));
    expect([text(0), text(8), text(36)]).toEqual(['RIFF', 'WAVE', 'data']);
    expect(view.getUint16(22, true)).toBe(1); // channels
    expect(view.getUint32(24, true)).toBe(RECORDING_RATE);
    expect(view.getUint16(34, true)).toBe(16); // bits
    const count = view.getUint32(40, true) / 2;
    expect(count / RECORDING_RATE).toBeGreaterThan(1);
    expect(count / RECORDING_RATE).toBeLessThan(2.5);
    // The tone is there: loud, and crossing zero about 880 times a second.
    let power = 0;
    let crossings = 0;
    let previous = 0;
    const middle = { from: Math.floor(count / 4), to: Math.floor((3 * count) / 4) };
    for (let index = middle.from; index < middle.to; index += 1) {
      const sample = view.getInt16(44 + index * 2, true) / 32_768;
      power += sample * sample;
      if (sample >= 0 !== previous >= 0) crossings += 1;
      previous = sample;
    }
    const seconds = (middle.to - middle.from) / RECORDING_RATE;
    expect(Math.sqrt(power / (middle.to - middle.from))).toBeGreaterThan(0.1);
    expect(crossings / seconds).toBeGreaterThan(800);
    expect(crossings / seconds).toBeLessThan(960);
  }, 20_000);

  it('rejects what is not audio', async () => {
    await expect(
      recordingToWav(new Blob(['not a recording'], { type: 'audio/webm' })),
    ).rejects.toBeInstanceOf(DOMException);
  });
});
