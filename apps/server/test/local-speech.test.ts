import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLocalSpeech, localVoices, wavFile } from '../src/voice/local-speech';
import { ProviderError } from '../src/domain/provider-error';
import { downloadVoiceModel } from '../src/voice/voice-model-download';
import { VOICES_UNAVAILABLE } from '../src/voice/voices';
import { startTestServer } from './harness';
import { startHubDouble, type HubDouble } from './hub-double';
import { captureLog } from './log-capture';

// Real synthesis needs a real Kokoro or Piper model (hundreds of MB from Hugging Face), which the
// test machine does not have: these tests cover the download and the loading of the files
// (sherpa-onnx-node really loads them, and must refuse corrupt ones with a plain error).

const REPO = 'mates-test/kokoro-en-v0_19';

/** A sherpa-onnx Kokoro repository's layout, with fake contents (the network is random bytes). */
const FILES: Record<string, Buffer> = {
  'model.onnx': crypto.randomBytes(300_000),
  'voices.bin': Buffer.alloc(11 * 510 * 256 * 4),
  'tokens.txt': Buffer.from('$ 0\n; 1\n: 2\n'),
  'espeak-ng-data/phontab': Buffer.from('phontab'),
  'espeak-ng-data/phonindex': Buffer.from('phonindex'),
  'espeak-ng-data/phondata': crypto.randomBytes(5_000),
  'espeak-ng-data/intonations': Buffer.from('intonations'),
  'espeak-ng-data/en_dict': crypto.randomBytes(2_000),
  'README.md': Buffer.from('# not needed'),
  'export-onnx.py': Buffer.from('print(1)'),
};
const NEEDED = Object.keys(FILES).filter((name) => !/\.(md|py)$/.test(name));
/** Whether `file` holds exactly `bytes` (compared as bytes: a deep equality of megabytes crawls). */
const sameBytes = (file: string, bytes: Buffer) => fs.readFileSync(file).equals(bytes);
const NEEDED_BYTES = NEEDED.reduce((sum, name) => sum + FILES[name]!.length, 0);

describe('the local speech model download', () => {
  let hub: HubDouble;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-voices-'));
  let dir: string;
  beforeAll(async () => {
    hub = await startHubDouble(REPO, FILES);
  });
  afterEach(() => {
    hub.faults.clear();
    hub.requests.length = 0;
  });
  afterAll(async () => {
    await hub.close();
    fs.rmSync(root, { recursive: true, force: true });
  });
  const download = (onProgress?: (done: number, total: number) => void) =>
    downloadVoiceModel({
      hubUrl: hub.url,
      repo: REPO,
      dir,
      fetch: globalThis.fetch,
      progressBar: false,
      onProgress,
    });

  it('fetches the files synthesis needs once, with progress up to the total', async () => {
    dir = fs.mkdtempSync(path.join(root, 'once-'));
    const progress: [number, number][] = [];
    const files = await download((done, total) => progress.push([done, total]));

    expect(files.kind).toBe('kokoro');
    expect(files.model).toBe(path.join(dir, 'model.onnx'));
    expect(files.voices).toBe(path.join(dir, 'voices.bin'));
    expect(files.dataDir).toBe(path.join(dir, 'espeak-ng-data'));
    for (const name of NEEDED)
      expect(sameBytes(path.join(dir, name), FILES[name]!), name).toBe(true);
    expect(fs.existsSync(path.join(dir, 'README.md'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'export-onnx.py'))).toBe(false);

    expect(progress.length).toBeGreaterThan(0);
    for (let index = 1; index < progress.length; index += 1)
      expect(progress[index]![0]).toBeGreaterThanOrEqual(progress[index - 1]![0]);
    expect(progress.at(-1)).toEqual([NEEDED_BYTES, NEEDED_BYTES]);

    hub.requests.length = 0;
    const again = await download();
    expect(again).toEqual(files);
    expect(hub.requests).toEqual([]);
  });

  it('says plainly when the hub has no such model', async () => {
    dir = fs.mkdtempSync(path.join(root, 'unknown-'));
    await expect(
      downloadVoiceModel({
        hubUrl: hub.url,
        repo: 'mates-test/nothing-here',
        dir,
        fetch: globalThis.fetch,
        progressBar: false,
      }),
    ).rejects.toThrow('the model hub has no speech model mates-test/nothing-here (HTTP 404)');
  });

  it('fails on a missing file, keeps nothing as complete, and finishes on the next start', async () => {
    dir = fs.mkdtempSync(path.join(root, 'missing-'));
    hub.faults.set('voices.bin', 'missing');
    await expect(download()).rejects.toThrow(/speech model mates-test\/kokoro-en-v0_19/);
    expect(fs.existsSync(path.join(dir, 'complete.json'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'voices.bin'))).toBe(false);

    hub.faults.clear();
    const files = await download();
    expect(sameBytes(files.voices!, FILES['voices.bin']!)).toBe(true);
    expect(fs.existsSync(path.join(dir, 'complete.json'))).toBe(true);
  });

  it('fails when the hub hangs up mid-file, and never keeps the half file as whole', async () => {
    dir = fs.mkdtempSync(path.join(root, 'cut-'));
    hub.faults.set('model.onnx', 'cut');
    await expect(download()).rejects.toThrow(/speech model mates-test\/kokoro-en-v0_19/);
    expect(fs.existsSync(path.join(dir, 'complete.json'))).toBe(false);
    const model = path.join(dir, 'model.onnx');
    if (fs.existsSync(model)) expect(sameBytes(model, FILES['model.onnx']!)).toBe(true);

    hub.faults.clear();
    const files = await download();
    expect(sameBytes(files.model, FILES['model.onnx']!)).toBe(true);
  });
});

describe('the local speech engine', () => {
  let hub: HubDouble;
  const voicesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-voices-'));
  beforeAll(async () => {
    hub = await startHubDouble(REPO, FILES);
  });
  afterAll(async () => {
    await hub.close();
    fs.rmSync(voicesDir, { recursive: true, force: true });
  });

  it('is busy while the model downloads, then refuses corrupt files with a plain error', async () => {
    const release = hub.hold();
    const lines: string[] = [];
    const engine = createLocalSpeech({
      model: REPO,
      hubUrl: hub.url,
      voicesDir,
      threads: 1,
      fetch: globalThis.fetch,
      log: captureLog('debug', lines).logger,
    });
    const busy = await engine.voices().catch((error: unknown) => error);
    expect(busy).toBeInstanceOf(ProviderError);
    expect(busy).toMatchObject({ provider: 'speech', failure: 'busy' });
    release();
    await engine.ready;

    const failed = await engine.voices().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ProviderError);
    expect(failed).toMatchObject({ provider: 'speech', failure: 'failed' });
    expect((failed as Error).message).toMatch(/cannot be loaded/);
    expect(lines.join('\n')).toMatch(
      /No local speech model is available: the speech model in .*mates-test--kokoro-en-v0_19 cannot be loaded \(.+\); delete that folder to download it again/,
    );
    const synthesis = await engine
      .synthesize(
        { text: 'Hello', voice: 'local-af_bella' },
        { signal: new AbortController().signal },
      )
      .catch((error: unknown) => error);
    expect(synthesis).toMatchObject({ provider: 'speech', failure: 'failed' });
    await engine.close();
  });
});

describe('local voices and audio', () => {
  it('names the Kokoro v0.19 speakers by their ids, in speaker order', () => {
    const voices = localVoices('csukuangfj/kokoro-en-v0_19', 'kokoro', 11);
    expect(voices.map((voice) => voice.voiceId)).toEqual([
      'local-af',
      'local-af_bella',
      'local-af_nicole',
      'local-af_sarah',
      'local-af_sky',
      'local-am_adam',
      'local-am_michael',
      'local-bf_emma',
      'local-bf_isabella',
      'local-bm_george',
      'local-bm_lewis',
    ]);
    expect(voices[1]).toMatchObject({ name: 'Bella', gender: 'female', language: 'en-US', sid: 1 });
    expect(voices[9]).toMatchObject({ name: 'George', gender: 'male', language: 'en-GB', sid: 9 });
    expect(voices.every((voice) => voice.engine === 'local')).toBe(true);
  });

  it('gives a Piper model one voice named from its repository', () => {
    expect(localVoices('csukuangfj/vits-piper-en_US-amy-low', 'vits', 1)).toEqual([
      {
        voiceId: 'local',
        name: 'Amy',
        gender: 'neutral',
        language: 'en-US',
        engine: 'local',
        sid: 0,
      },
    ]);
  });

  it('writes 16-bit mono WAV at the model sample rate', () => {
    const wav = Buffer.from(wavFile(new Float32Array([0, 0.5, -1, 2]), 24_000));
    expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(wav.readUInt32LE(24)).toBe(24_000);
    expect(wav.readUInt16LE(22)).toBe(1);
    expect(wav.readUInt32LE(40)).toBe(8);
    expect([0, 1, 2, 3].map((index) => wav.readInt16LE(44 + index * 2))).toEqual([
      0, 16384, -32767, 32767,
    ]);
  });
});

describe('a server on the local engine whose model cannot be had', () => {
  it('answers the voice calls with a plain 5007, not a server error', async () => {
    // Nothing listens on port 9: the hub cannot be reached, so the model never loads.
    const app = await startTestServer('sqlite', {
      env: { SPEECH_PROVIDER: 'local', SPEECH_HUB_URL: 'http://127.0.0.1:9' },
    });
    try {
      await (app.deps.speech as unknown as { ready: Promise<void> }).ready;
      const failure = await app
        .client()
        .voice.voices()
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 5007, message: VOICES_UNAVAILABLE });
    } finally {
      await app.close();
    }
  });
});
