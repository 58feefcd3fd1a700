import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallMicrophoneHandlers } from '@mates/state-machines';
import { browserMicrophone } from './browser-call-effects';
// "Tell me about your day at the lake.", spoken by Flite (see speech-detector's test).
import sentenceUrl from './spoken-sentence.wav?url&no-inline';

/** A live microphone-like stream: a 220 Hz tone at `amplitude`, made by Web Audio (no device). */
function toneStream(amplitude: number) {
  const context = new AudioContext();
  const tone = context.createOscillator();
  tone.frequency.value = 220;
  const gain = context.createGain();
  gain.gain.value = amplitude;
  const out = context.createMediaStreamDestination();
  tone.connect(gain).connect(out);
  tone.start();
  return { stream: out.stream, close: () => context.close() };
}

/**
 * A live stream of a person talking: the sentence, then a second of silence, in a loop. It is
 * silent until `play()`, so that a microphone slow to start hears the sentence from its start
 * rather than from wherever the loop was when it began listening.
 */
async function speechStream() {
  const context = new AudioContext();
  const bytes = await (await fetch(sentenceUrl)).arrayBuffer();
  const spoken = await context.decodeAudioData(bytes);
  const looped = context.createBuffer(1, spoken.length + context.sampleRate, context.sampleRate);
  looped.copyToChannel(spoken.getChannelData(0), 0);
  const source = context.createBufferSource();
  source.buffer = looped;
  source.loop = true;
  const out = context.createMediaStreamDestination();
  source.connect(out);
  return { stream: out.stream, play: () => source.start(), close: () => context.close() };
}

function handlers() {
  return {
    transcriber: 'server' as const,
    onReady: vi.fn(),
    onDenied: vi.fn(),
    onSpeechStart: vi.fn(),
    onSpeechEnd: vi.fn(),
    onMisfire: vi.fn(),
    onText: vi.fn(),
  } satisfies CallMicrophoneHandlers & { transcriber: 'server' };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('browserMicrophone', () => {
  it('loads its capture worklet from the app (not a blob: address) and hears speech through it', async () => {
    const speech = await speechStream();
    vi.spyOn(navigator.mediaDevices, 'getUserMedia').mockResolvedValue(speech.stream);
    const addModule = vi.spyOn(AudioWorklet.prototype, 'addModule');
    const events = handlers();
    const microphone = browserMicrophone().start(events);
    // Bounds that detect a hang, not a speed: an AudioContext, its worklet and the voice
    // detection's WebAssembly start slowly on a loaded machine.
    await vi.waitFor(() => expect(events.onReady).toHaveBeenCalled(), { timeout: 45_000 });
    // A file of the app's own origin: what `script-src 'self'` lets a worklet load (a `blob:`
    // address shares the page's origin, but only a `blob:` source would allow it).
    const url = new URL(String(addModule.mock.calls[0]![0]), location.href);
    expect(url.protocol).toBe(location.protocol);
    expect(url.origin).toBe(location.origin);
    speech.play();
    await vi.waitFor(() => expect(events.onSpeechStart).toHaveBeenCalled(), { timeout: 45_000 });
    // The sentence ends, and its utterance is handed over at 16 kHz: about its 2 s, and more
    // than the pre-roll and the pause.
    await vi.waitFor(() => expect(events.onSpeechEnd).toHaveBeenCalled(), { timeout: 45_000 });
    const utterance = events.onSpeechEnd.mock.calls[0]![0] as Float32Array;
    expect(utterance.length / 16_000).toBeGreaterThan(1.2);
    expect(utterance.length / 16_000).toBeLessThan(3.5);
    microphone.stop();
    expect(speech.stream.getTracks().every((track) => track.readyState === 'ended')).toBe(true);
    await speech.close();
  }, 150_000);

  /** Starts the microphone on a silent stream and answers what it was refused with. */
  async function refusal() {
    const silent = toneStream(0);
    vi.spyOn(navigator.mediaDevices, 'getUserMedia').mockResolvedValue(silent.stream);
    const events = handlers();
    browserMicrophone().start(events);
    await vi.waitFor(() => expect(events.onDenied).toHaveBeenCalled(), { timeout: 45_000 });
    expect(events.onReady).not.toHaveBeenCalled();
    // The device is let go.
    expect(silent.stream.getTracks().every((track) => track.readyState === 'ended')).toBe(true);
    await silent.close();
    return events.onDenied.mock.calls[0]![0] as unknown;
  }

  it('fails the microphone (not waits forever) when its worklet cannot load, and lets go of it', async () => {
    const refused = new DOMException('blocked by the Content-Security-Policy', 'AbortError');
    vi.spyOn(AudioWorklet.prototype, 'addModule').mockRejectedValue(refused);
    expect(await refusal()).toBe(refused);
  }, 60_000);

  it('fails the microphone when its voice detection model cannot be had', async () => {
    const real = window.fetch.bind(window);
    vi.spyOn(window, 'fetch').mockImplementation((input, init) =>
      String(input).includes('silero')
        ? Promise.resolve(new Response('gone', { status: 404 }))
        : real(input, init),
    );
    expect(String(await refusal())).toMatch(/voice detection model answered 404/);
  }, 60_000);
});
