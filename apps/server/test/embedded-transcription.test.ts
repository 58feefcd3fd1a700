import { describe, expect, it } from 'vitest';
import { createEmbeddedTranscription } from '../src/voice/embedded-transcription';
import { captureLog } from './log-capture';
import { spokenWav } from './spoken-wav';

// Issue #42: the embedded speech-to-text engine (Moonshine tiny on ONNX Runtime) as the server
// uses it: real speech (Flite's voice) in, its words out; no speech, bad input and a deadline.
const log = captureLog('info');
const engine = createEmbeddedTranscription({ threads: 2, timeoutMs: 60_000, log: log.logger });
const hear = (audio: Buffer, mimeType = 'audio/wav', signal = new AbortController().signal) =>
  engine.transcribe(audio, mimeType, { language: 'en', signal });

/** `Buffer` of a 16-bit mono WAV of `seconds` of noise at `amplitude` (of 1). */
function noiseWav(seconds: number, amplitude: number, sampleRate = 16_000): Buffer {
  const count = Math.round(seconds * sampleRate);
  const wav = Buffer.alloc(44 + count * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + count * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(count * 2, 40);
  for (let index = 0; index < count; index += 1)
    wav.writeInt16LE(Math.round((Math.random() * 2 - 1) * amplitude * 32_767), 44 + index * 2);
  return wav;
}

describe('the embedded transcription', () => {
  it('writes what was said, at any rate the recording has', async () => {
    // The sentence the model once ended on at its first token (it is not let to, on speech).
    expect(
      await hear(
        await spokenWav([0.2, 'I would like a cup of tea with honey, please.', 0.2], 16_000),
      ),
    ).toBe('I would like a cup of tea with honey, please.');
    expect(
      await hear(await spokenWav([0.5, 'Tell me about your day at the lake.', 0.5], 44_100)),
    ).toBe('Tell me about your day at the lake.');
    expect(log.lines).toContain('transcription model ready: Moonshine tiny (embedded)');
  }, 60_000);

  it('hears nothing in silence or noise', async () => {
    expect(await hear(noiseWav(2, 0))).toBe('');
    expect(await hear(noiseWav(1, 0.03))).toBe('');
  });

  it('writes a long dictation window by window, in order', async () => {
    const long = await spokenWav(
      [0.5, 'The weather was lovely this morning.', 33, 'Then it rained all afternoon.', 0.5],
      16_000,
    );
    expect(await hear(long)).toBe(
      'The weather was lovely this morning. Then it rained all afternoon.',
    );
  }, 60_000);

  it('refuses what is not a WAV recording, and a broken one, in plain words', async () => {
    await expect(hear(Buffer.from('OggS'), 'audio/ogg')).rejects.toMatchObject({
      name: 'ProviderError',
      failure: 'rejected',
      message: 'the embedded transcription takes WAV recordings, not audio/ogg',
    });
    await expect(hear(Buffer.from('RIFF....WAVE'))).rejects.toMatchObject({
      failure: 'rejected',
      message: expect.stringMatching(/^not a readable WAV recording/),
    });
  });

  it('stops when the request is cancelled, and past its deadline', async () => {
    const speech = await spokenWav([0.2, 'The weather was lovely this morning.', 0.2], 16_000);
    const cancelled = new AbortController();
    const heard = hear(speech, 'audio/wav', cancelled.signal);
    cancelled.abort();
    await expect(heard).rejects.toMatchObject({ name: 'AbortError' });
    const hurried = createEmbeddedTranscription({ threads: 1, timeoutMs: 1, log: log.logger });
    await expect(
      hurried.transcribe(speech, 'audio/wav', { signal: new AbortController().signal }),
    ).rejects.toMatchObject({ failure: 'timeout' });
    // The engine is free again for the next recording.
    expect(await hear(speech)).toBe('The weather was lovely this morning.');
  }, 60_000);
});
