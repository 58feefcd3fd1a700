import { describe, expect, it } from 'vitest';
import { createEnergyVad, type EnergyVadEvent } from './energy-vad';

const RATE = 16000;
const FRAME = 160; // 10 ms

/** `ms` of a tone at `amplitude` (0 for silence), as 10 ms frames. */
function frames(ms: number, amplitude: number): Float32Array[] {
  return Array.from({ length: ms / 10 }, (_, f) =>
    Float32Array.from({ length: FRAME }, (_, i) =>
      amplitude === 0 ? 0 : amplitude * Math.sin(((f * FRAME + i) * 2 * Math.PI * 220) / RATE),
    ),
  );
}

function run(parts: [ms: number, amplitude: number][], options = {}) {
  const vad = createEnergyVad({
    sampleRate: RATE,
    pauseMs: 300,
    minSpeechMs: 100,
    preRollMs: 50,
    ...options,
  });
  const events: EnergyVadEvent[] = [];
  for (const [ms, amplitude] of parts) {
    for (const frame of frames(ms, amplitude)) {
      const event = vad.push(frame);
      if (event) events.push(event);
    }
  }
  return events;
}

describe('createEnergyVad', () => {
  it('tells speech at its first loud frame and ends it after the pause, with the pre-roll', () => {
    const events = run([
      [200, 0],
      [400, 0.3],
      [400, 0],
    ]);
    expect(events.map((event) => event.type)).toEqual(['start', 'end']);
    const end = events[1] as Extract<EnergyVadEvent, { type: 'end' }>;
    // 50 ms before, 400 ms of speech, 300 ms of pause.
    expect(end.samples.length).toBe((50 + 400 + 300) * 16);
  });

  it('a short pause inside speech does not end it (hysteresis: quiet must be below stopDb)', () => {
    const events = run([
      [300, 0.3],
      [150, 0],
      [300, 0.3],
      [200, 0.004], // about -51 dBFS: under startDb, above stopDb, so still speech
      [400, 0],
    ]);
    expect(events.map((event) => event.type)).toEqual(['start', 'end']);
  });

  it('speech shorter than minSpeechMs is a misfire', () => {
    expect(
      run([
        [50, 0.3],
        [400, 0],
      ]).map((event) => event.type),
    ).toEqual(['start', 'misfire']);
  });

  it('quiet room noise is never speech', () => {
    expect(run([[2000, 0.001]])).toEqual([]);
  });

  it('a tunable pause: a longer one keeps the turn open', () => {
    expect(
      run(
        [
          [300, 0.3],
          [400, 0],
        ],
        { pauseMs: 600 },
      ).map((e) => e.type),
    ).toEqual(['start']);
  });

  it('ends an utterance at its longest', () => {
    const events = run([[800, 0.3]], { maxSpeechMs: 500 });
    // The first ends at 500 ms; the speech going on starts the next.
    expect(events.map((event) => event.type)).toEqual(['start', 'end', 'start']);
    expect((events[1] as Extract<EnergyVadEvent, { type: 'end' }>).samples.length).toBe(500 * 16);
  });

  it('reset drops speech in progress', () => {
    const vad = createEnergyVad({ sampleRate: RATE, pauseMs: 100, minSpeechMs: 10 });
    for (const frame of frames(100, 0.3)) vad.push(frame);
    vad.reset();
    const after = frames(200, 0).map((frame) => vad.push(frame));
    expect(after.filter(Boolean)).toEqual([]);
  });
});
