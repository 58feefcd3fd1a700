import { describe, expect, it } from 'vitest';
import { DETECTOR_RATE, loadSpeechDetector, type SpeechEvent } from './speech-detector';
// "Tell me about your day at the lake.", spoken by the embedded engine's Flite (16 kHz, 2 s;
// made with apps/server/test/spoken-wav.ts).
import sentenceUrl from './spoken-sentence.wav?url&no-inline';

/** The sentence's samples at `rate`, decoded (and resampled) by the browser. */
async function sentence(rate = DETECTOR_RATE): Promise<Float32Array> {
  const bytes = await (await fetch(sentenceUrl)).arrayBuffer();
  return (await new OfflineAudioContext(1, 1, rate).decodeAudioData(bytes)).getChannelData(0);
}

const silence = (ms: number, rate = DETECTOR_RATE) => new Float32Array((ms * rate) / 1000);

/** A tone of `ms` at `hz`: loud, and not a voice. */
function tone(ms: number, hz: number, rate = DETECTOR_RATE): Float32Array {
  const samples = new Float32Array((ms * rate) / 1000);
  for (let i = 0; i < samples.length; i += 1)
    samples[i] = 0.5 * Math.sin((2 * Math.PI * hz * i) / rate);
  return samples;
}

/** Feeds `parts` in blocks of 128 (as the capture worklet does); answers what was reported. */
async function detect(
  parts: Float32Array[],
  options: Parameters<typeof loadSpeechDetector>[0] = {},
): Promise<SpeechEvent[]> {
  const events: SpeechEvent[] = [];
  const detector = await loadSpeechDetector(options, (event) => events.push(event));
  for (const part of parts)
    for (let at = 0; at < part.length; at += 128) detector.push(part.slice(at, at + 128));
  await detector.close();
  return events;
}

// Bounds of 60 s detect a hang, not a speed: the first load compiles ONNX Runtime's 14 MB of
// WebAssembly, which took over 30 s on a loaded 2-core machine.
describe('loadSpeechDetector (Silero VAD)', () => {
  it('hears a spoken sentence: its start, then its end after the pause, whole', async () => {
    const speech = await sentence();
    const events = await detect([silence(500), speech, silence(1000)]);
    expect(events.map((event) => event.type)).toEqual(['start', 'end']);
    const { samples } = events[1] as Extract<SpeechEvent, { type: 'end' }>;
    // The sentence, with up to the pre-roll before it and the pause after it.
    expect(samples.length).toBeGreaterThan(speech.length * 0.8);
    expect(samples.length).toBeLessThan(speech.length + ((300 + 700 + 100) * DETECTOR_RATE) / 1000);
  }, 60_000);

  it('never takes silence, a low hum or a whistle for speech', async () => {
    expect(await detect([silence(2000), tone(2000, 50), tone(2000, 2000)])).toEqual([]);
  }, 60_000);

  it('a tunable pause: a longer one keeps the turn open', async () => {
    const speech = await sentence();
    const events = await detect([speech, silence(900)], { pauseMs: 1500 });
    expect(events.map((event) => event.type)).toEqual(['start']);
  }, 60_000);

  it('hears at 48 kHz too (resampled to 16 kHz)', async () => {
    const speech = await sentence(48_000);
    const events = await detect([silence(300, 48_000), speech, silence(1000, 48_000)], {
      sampleRate: 48_000,
    });
    expect(events.map((event) => event.type)).toEqual(['start', 'end']);
  }, 60_000);

  it('ends an utterance at its longest; the speech going on starts the next', async () => {
    const speech = await sentence();
    const events = await detect([speech, silence(1000)], { maxSpeechMs: 600 });
    expect(events.filter((event) => event.type === 'end').length).toBeGreaterThanOrEqual(2);
    expect(events[0]?.type).toBe('start');
  }, 60_000);

  it('reset drops the speech in progress', async () => {
    const events: SpeechEvent[] = [];
    const detector = await loadSpeechDetector({}, (event) => events.push(event));
    const speech = await sentence();
    detector.push(speech.slice(0, speech.length / 2));
    detector.reset();
    detector.push(silence(1500));
    await detector.close();
    expect(events.filter((event) => event.type === 'end')).toEqual([]);
  }, 60_000);
});
