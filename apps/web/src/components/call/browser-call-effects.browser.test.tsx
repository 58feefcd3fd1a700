import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallMicrophoneHandlers } from '@mates/state-machines';
import { browserMicrophone } from './browser-call-effects';

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
    const tone = toneStream(0.5);
    vi.spyOn(navigator.mediaDevices, 'getUserMedia').mockResolvedValue(tone.stream);
    const addModule = vi.spyOn(AudioWorklet.prototype, 'addModule');
    const events = handlers();
    const microphone = browserMicrophone().start(events);
    // Bounds that detect a hang, not a speed: an AudioContext and its worklet start slowly on a
    // loaded machine.
    await vi.waitFor(() => expect(events.onReady).toHaveBeenCalled(), { timeout: 15_000 });
    // A file of the app's own origin: what `script-src 'self'` lets a worklet load (a `blob:`
    // address shares the page's origin, but only a `blob:` source would allow it).
    const url = new URL(String(addModule.mock.calls[0]![0]), location.href);
    expect(url.protocol).toBe(location.protocol);
    expect(url.origin).toBe(location.origin);
    await vi.waitFor(() => expect(events.onSpeechStart).toHaveBeenCalled(), { timeout: 15_000 });
    microphone.stop();
    expect(tone.stream.getTracks().every((track) => track.readyState === 'ended')).toBe(true);
    await tone.close();
  });

  it('fails the microphone (not waits forever) when its worklet cannot load, and lets go of it', async () => {
    const tone = toneStream(0);
    vi.spyOn(navigator.mediaDevices, 'getUserMedia').mockResolvedValue(tone.stream);
    const refusal = new DOMException('blocked by the Content-Security-Policy', 'AbortError');
    vi.spyOn(AudioWorklet.prototype, 'addModule').mockRejectedValue(refusal);
    const events = handlers();
    browserMicrophone().start(events);
    await vi.waitFor(() => expect(events.onDenied).toHaveBeenCalledWith(refusal), {
      timeout: 15_000,
    });
    expect(events.onReady).not.toHaveBeenCalled();
    expect(tone.stream.getTracks().every((track) => track.readyState === 'ended')).toBe(true);
    await tone.close();
  });
});
