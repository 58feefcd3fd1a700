import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WaveFile } from 'wavefile';
import { loadConfig } from '../src/config';
import { ProviderError } from '../src/domain/provider-error';
import { createLocalTranscription, WHISPER_PICK } from '../src/voice/local-transcription';
import { wavSamples } from '../src/voice/recordings';
import { wavFile } from '../src/voice/local-speech';
import { startHubDouble, type HubDouble } from './hub-double';
import { captureLog } from './log-capture';

// A real Whisper model (tens of MB from Hugging Face) is out of this machine's reach: these
// tests cover choosing, downloading and loading the files (sherpa-onnx-node really loads them
// and must refuse corrupt ones in plain words), and reading the recordings a call sends.

const REPO = 'mates-test/sherpa-onnx-whisper-tiny.en';

/** A sherpa-onnx Whisper repository's layout, with random bytes for networks. */
const FILES: Record<string, Buffer> = {
  'tiny.en-encoder.onnx': crypto.randomBytes(40_000),
  'tiny.en-encoder.int8.onnx': crypto.randomBytes(10_000),
  'tiny.en-decoder.onnx': crypto.randomBytes(60_000),
  'tiny.en-decoder.int8.onnx': crypto.randomBytes(15_000),
  'tiny.en-tokens.txt': Buffer.from('!= 0\n"= 1\n'),
  'test_wavs/0.wav': crypto.randomBytes(3_000),
  'export-onnx.py': Buffer.from('print(1)'),
  'README.md': Buffer.from('# whisper'),
};

const signal = () => new AbortController().signal;

describe('the local transcription model', () => {
  it('takes the int8 encoder and decoder and the tokens, nothing else', () => {
    expect(WHISPER_PICK.select(Object.keys(FILES))).toEqual({
      files: ['tiny.en-encoder.int8.onnx', 'tiny.en-decoder.int8.onnx', 'tiny.en-tokens.txt'],
      chosen: {
        encoder: 'tiny.en-encoder.int8.onnx',
        decoder: 'tiny.en-decoder.int8.onnx',
        tokens: 'tiny.en-tokens.txt',
      },
    });
    // Without int8 twins, the full networks.
    expect(
      WHISPER_PICK.select(['base-encoder.onnx', 'base-decoder.onnx', 'base-tokens.txt'])?.files,
    ).toEqual(['base-encoder.onnx', 'base-decoder.onnx', 'base-tokens.txt']);
    // A speech (Kokoro) repository is not a Whisper model.
    expect(WHISPER_PICK.select(['model.onnx', 'tokens.txt', 'voices.bin'])).toBeNull();
  });
});

describe('the local transcription engine', () => {
  let hub: HubDouble;
  const modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-whisper-'));
  const config = (model = REPO) => {
    const read = loadConfig({
      TRANSCRIBE_PROVIDER: 'local',
      TRANSCRIBE_MODEL: model,
      TRANSCRIBE_HUB_URL: hub.url,
      TRANSCRIBE_THREADS: '1',
    }).transcription;
    if (read?.provider !== 'local') throw new Error('not the local engine');
    return { ...read, modelsDir };
  };
  beforeAll(async () => {
    hub = await startHubDouble(REPO, FILES);
  });
  afterAll(async () => {
    await hub.close();
    fs.rmSync(modelsDir, { recursive: true, force: true });
  });

  it('is busy while its model downloads, then says plainly that a corrupt model cannot be loaded', async () => {
    const release = hub.hold();
    const lines: string[] = [];
    const engine = createLocalTranscription({
      config: config(),
      fetch: globalThis.fetch,
      log: captureLog('debug', lines).logger,
    });
    const wav = wavFile(new Float32Array(1600), 16_000);
    const busy = await engine
      .transcribe(wav, 'audio/wav', { signal: signal() })
      .catch((error: unknown) => error);
    expect(busy).toBeInstanceOf(ProviderError);
    expect(busy).toMatchObject({ provider: 'speech', failure: 'busy' });
    release();
    await engine.ready;

    // Only the three files it reads came down.
    const folder = path.join(modelsDir, 'mates-test--sherpa-onnx-whisper-tiny.en');
    expect(fs.readdirSync(folder).sort()).toEqual([
      'complete.json',
      'tiny.en-decoder.int8.onnx',
      'tiny.en-encoder.int8.onnx',
      'tiny.en-tokens.txt',
    ]);
    const failed = await engine
      .transcribe(wav, 'audio/wav', { signal: signal() })
      .catch((error: unknown) => error);
    expect(failed).toMatchObject({ provider: 'speech', failure: 'failed' });
    expect((failed as Error).message).toMatch(/cannot be loaded/);
    expect(lines.join('\n')).toMatch(
      /No local transcription model is available: the transcription model in .*mates-test--sherpa-onnx-whisper-tiny\.en cannot be loaded \(.+\); delete that folder to download it again/,
    );
  });

  it('refuses a repository that is not a Whisper model, and a recording that is not WAV', async () => {
    const lines: string[] = [];
    const engine = createLocalTranscription({
      config: config('mates-test/not-there'),
      fetch: globalThis.fetch,
      log: captureLog('debug', lines).logger,
    });
    await engine.ready;
    expect(lines.join('\n')).toMatch(
      /the model hub has no transcription model mates-test\/not-there/,
    );
    const webm = await engine
      .transcribe(new Uint8Array([0x1a, 0x45, 0xdf, 0xa3]), 'audio/webm;codecs=opus', {
        signal: signal(),
      })
      .catch((error: unknown) => error);
    expect(webm).toMatchObject({ failure: 'rejected' });
    expect((webm as Error).message).toBe(
      'the local transcription takes WAV recordings, not audio/webm',
    );
  });
});

describe('reading a recording', () => {
  it('reads 16-bit mono WAV as the samples it holds', () => {
    const samples = new Float32Array([0, 0.5, -0.5, 0.25]);
    const read = wavSamples(wavFile(samples, 16_000));
    expect(read.sampleRate).toBe(16_000);
    expect([...read.samples].map((value) => Math.round(value * 1000) / 1000)).toEqual([
      0, 0.5, -0.5, 0.25,
    ]);
  });

  it('mixes a stereo recording down to one channel, at its own rate', () => {
    const wav = new WaveFile();
    wav.fromScratch(2, 44_100, '16', [
      [16384, 16384, 0],
      [0, -16384, 0],
    ]);
    const read = wavSamples(wav.toBuffer());
    expect(read.sampleRate).toBe(44_100);
    expect([...read.samples].map((value) => Math.round(value * 100) / 100)).toEqual([0.25, 0, 0]);
  });

  it('refuses bytes that are not a WAV file in plain words', () => {
    const error = (() => {
      try {
        wavSamples(new Uint8Array(crypto.randomBytes(64)));
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ failure: 'rejected' });
    expect((error as Error).message).toMatch(/^not a readable WAV recording/);
  });
});
