import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createOpenAiSpeechEngine, OPENAI_VOICES } from '../src/voice/openai-speech';
import { createTranscriptionEngine } from '../src/voice/create-transcription';
import { ProviderError } from '../src/domain/provider-error';
import {
  type SpeechEngine,
  type SpeechFailure,
  type TranscriptionEngine,
} from '../src/voice/speech-engine';
import {
  closedUrl,
  makeWav,
  speechErrors,
  startSpeechDouble,
  type SpeechBehaviour,
} from './speech-doubles';
import { captureLog } from './log-capture';

// Issue #16: the OpenAI-compatible speech and transcription engines against a local double of
// `/v1/audio/speech`, `/v1/audio/voices` (Kokoro-FastAPI) and `/v1/audio/transcriptions`.

type Double = Awaited<ReturnType<typeof startSpeechDouble>>;

function speechEngine(env: Record<string, string>, logs: string[] = []): SpeechEngine {
  const config = loadConfig({ SPEECH_PROVIDER: 'openai', ...env }).speechRemote;
  if (!config) throw new Error('no speech config');
  return createOpenAiSpeechEngine({
    config,
    fetch: globalThis.fetch,
    log: captureLog('debug', logs).logger,
  });
}

function transcriber(env: Record<string, string>): TranscriptionEngine {
  const engine = createTranscriptionEngine(
    loadConfig({ TRANSCRIBE_PROVIDER: 'openai', ...env }).transcription,
    globalThis.fetch,
    captureLog('debug', []).logger,
  );
  if (!engine) throw new Error('no transcription engine');
  return engine;
}

const never = () => new AbortController().signal;

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const all: Uint8Array[] = [];
  for await (const chunk of chunks) all.push(chunk);
  return Buffer.concat(all);
}

/** What a promise rejected with, checked to be a speech engine's ProviderError. */
async function failureOf(promise: Promise<unknown>): Promise<ProviderError<SpeechFailure>> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProviderError);
  expect(error).toMatchObject({ provider: 'speech' });
  return error as ProviderError<SpeechFailure>;
}

describe('OpenAI-compatible speech', () => {
  let double: Double;
  let kokoro: Double;
  beforeAll(async () => {
    double = await startSpeechDouble();
    kokoro = await startSpeechDouble({ voices: ['af_bella', 'bm_george', 'jf_alpha', 'xx'] });
  });
  afterAll(async () => {
    await double.close();
    await kokoro.close();
  });
  const at = (d: Double, env: Record<string, string> = {}, logs?: string[]) =>
    speechEngine({ SPEECH_BASE_URL: `${d.url}/v1`, SPEECH_MODEL: 'kokoro', ...env }, logs);

  it('passes the audio on while the engine is still sending it', async () => {
    double.queue.push({ kind: 'gated' });
    const engine = at(double, { SPEECH_FORMAT: 'wav' });
    const audio = await engine.synthesize(
      { text: 'Hello there.', voice: 'af_bella' },
      { signal: never() },
    );
    expect(audio.mimeType).toBe('audio/wav');
    const iterator = audio.chunks[Symbol.asyncIterator]();
    const first = await iterator.next();
    // The double has sent only its first part and waits: the rest cannot have arrived.
    await double.gated();
    expect(double.state.waiting).toBe(true);
    expect(first.done).toBe(false);
    expect(
      Buffer.from(first.value as Uint8Array)
        .subarray(0, 4)
        .toString('ascii'),
    ).toBe('RIFF');
    double.release();
    const rest: Uint8Array[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      rest.push(next.value);
    const whole = Buffer.concat([first.value as Uint8Array, ...rest]);
    expect(whole.equals(makeWav(0.5))).toBe(true);
    expect(double.requests.at(-1)).toMatchObject({
      method: 'POST',
      url: '/v1/audio/speech',
      json: { model: 'kokoro', voice: 'af_bella', input: 'Hello there.', response_format: 'wav' },
    });
    // No key: no Authorization header at all.
    expect(double.requests.at(-1)?.headers.authorization).toBeUndefined();
  });

  it('asks for MP3 by default and sends the key', async () => {
    const engine = at(double, { SPEECH_API_KEY: 'sk-local' });
    const audio = await engine.synthesize({ text: 'Hi.', voice: 'nova' }, { signal: never() });
    expect(audio.mimeType).toBe('audio/mpeg');
    const bytes = await collect(audio.chunks);
    expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xfb]);
    expect(bytes.length).toBe(417 * 20);
    expect(double.requests.at(-1)?.json).toMatchObject({ response_format: 'mp3' });
    expect(double.requests.at(-1)?.headers.authorization).toBe('Bearer sk-local');
  });

  const answers: [string, SpeechBehaviour, SpeechFailure][] = [
    ['401', { kind: 'status', ...speechErrors.unauthorized }, 'unauthorized'],
    ['429', { kind: 'status', ...speechErrors.rateLimited }, 'busy'],
    ['400 (unknown voice)', { kind: 'status', ...speechErrors.badVoice }, 'rejected'],
    ['404 (unknown model)', { kind: 'status', ...speechErrors.unknownModel }, 'rejected'],
    ['422 (FastAPI)', { kind: 'status', ...speechErrors.unprocessable }, 'rejected'],
    ['500', { kind: 'status', ...speechErrors.serverError }, 'failed'],
    ['a dropped connection before an answer', { kind: 'drop' }, 'cut'],
    ['JSON instead of audio', { kind: 'garbage' }, 'malformed'],
  ];
  it.each(answers)('maps %s to its failure', async (_name, behaviour, failure) => {
    double.queue.push(behaviour);
    const error = await failureOf(
      at(double).synthesize({ text: 'Hi.', voice: 'alloy' }, { signal: never() }),
    );
    expect(error.failure).toBe(failure);
    if (behaviour.kind === 'status') expect(error.status).toBe(behaviour.status);
  });

  it('is cut when the connection drops mid-file, after the audio so far was passed on', async () => {
    double.queue.push({ kind: 'cut' });
    const audio = await at(double).synthesize({ text: 'Hi.', voice: 'alloy' }, { signal: never() });
    const received: Uint8Array[] = [];
    const error = await failureOf(
      (async () => {
        for await (const chunk of audio.chunks) received.push(chunk);
      })(),
    );
    expect(error.failure).toBe('cut');
    expect(received.length).toBeGreaterThan(0);
  });

  it('is unreachable where nothing listens', async () => {
    const engine = speechEngine({
      SPEECH_BASE_URL: `${await closedUrl()}/v1`,
      SPEECH_MODEL: 'kokoro',
    });
    const error = await failureOf(
      engine.synthesize({ text: 'Hi.', voice: 'alloy' }, { signal: never() }),
    );
    expect(error.failure).toBe('unreachable');
  });

  it('times out after SPEECH_TIMEOUT when the engine never answers', async () => {
    double.queue.push({ kind: 'hang' });
    const error = await failureOf(
      at(double, { SPEECH_TIMEOUT: '0.2' }).synthesize(
        { text: 'Hi.', voice: 'alloy' },
        { signal: never() },
      ),
    );
    expect(error.failure).toBe('timeout');
  });

  it('is cancelled when the listener leaves mid-file', async () => {
    double.queue.push({ kind: 'gated' });
    const listener = new AbortController();
    const audio = await at(double).synthesize(
      { text: 'Hi.', voice: 'alloy' },
      { signal: listener.signal },
    );
    const iterator = audio.chunks[Symbol.asyncIterator]();
    expect((await iterator.next()).done).toBe(false);
    await double.gated();
    listener.abort();
    const error = await failureOf(iterator.next());
    expect(error.failure).toBe('cancelled');
    double.release();
  });

  it("offers Kokoro-FastAPI's own voices, described from their ids", async () => {
    expect(await at(kokoro).voices()).toEqual([
      { voiceId: 'af_bella', name: 'Bella', gender: 'female', language: 'en-US', engine: 'openai' },
      { voiceId: 'bm_george', name: 'George', gender: 'male', language: 'en-GB', engine: 'openai' },
      { voiceId: 'jf_alpha', name: 'Alpha', gender: 'female', language: 'ja', engine: 'openai' },
      { voiceId: 'xx', name: 'xx', gender: 'neutral', language: 'und', engine: 'openai' },
    ]);
    expect(kokoro.requests.at(-1)).toMatchObject({ method: 'GET', url: '/v1/audio/voices' });
  });

  it("offers OpenAI's voices where the server lists none, and asks only once", async () => {
    const logs: string[] = [];
    const engine = at(double, {}, logs);
    const before = double.requests.length;
    const voices = await engine.voices();
    expect(voices.map((voice) => voice.voiceId)).toEqual(OPENAI_VOICES.map(([id]) => id));
    expect(voices.find((voice) => voice.voiceId === 'nova')).toEqual({
      voiceId: 'nova',
      name: 'Nova',
      gender: 'female',
      language: 'en-US',
      engine: 'openai',
    });
    expect(voices.find((voice) => voice.voiceId === 'onyx')?.gender).toBe('male');
    await engine.voices();
    expect(double.requests.length - before).toBe(1);
    expect(logs.join('\n')).toMatch(/answered 404/);
  });

  it('offers exactly SPEECH_VOICES when given, without asking the server', async () => {
    const before = kokoro.requests.length;
    const voices = await at(kokoro, { SPEECH_VOICES: 'ef_dora, onyx ,custom-1' }).voices();
    expect(voices).toEqual([
      { voiceId: 'ef_dora', name: 'Dora', gender: 'female', language: 'es', engine: 'openai' },
      { voiceId: 'onyx', name: 'Onyx', gender: 'male', language: 'en-US', engine: 'openai' },
      {
        voiceId: 'custom-1',
        name: 'custom-1',
        gender: 'neutral',
        language: 'und',
        engine: 'openai',
      },
    ]);
    expect(kokoro.requests.length).toBe(before);
  });
});

describe('OpenAI-compatible transcription', () => {
  let double: Double;
  beforeAll(async () => {
    double = await startSpeechDouble({ transcript: '  I would like a cup of tea. ' });
  });
  afterAll(() => double.close());
  const at = (env: Record<string, string> = {}) =>
    transcriber({ TRANSCRIBE_BASE_URL: `${double.url}/v1`, ...env });

  it('sends the recording as a file with the model and language, and answers its text', async () => {
    const recording = makeWav(0.1);
    const text = await at({ TRANSCRIBE_API_KEY: 'sk-t' }).transcribe(
      new Uint8Array(recording),
      'audio/webm;codecs=opus',
      { language: 'en', signal: never() },
    );
    expect(text).toBe('I would like a cup of tea.');
    const seen = double.requests.at(-1)!;
    expect(seen.url).toBe('/v1/audio/transcriptions');
    expect(seen.headers.authorization).toBe('Bearer sk-t');
    expect(seen.form?.fields).toMatchObject({ model: 'whisper-1', language: 'en' });
    expect(seen.form?.file).toMatchObject({ name: 'recording.webm', type: 'audio/webm' });
    expect(seen.form?.file?.bytes.equals(recording)).toBe(true);
  });

  it('names the file by its type and leaves the language out when unknown', async () => {
    await at({ TRANSCRIBE_MODEL: 'Systran/faster-whisper-small' }).transcribe(
      new Uint8Array(makeWav(0.1)),
      'audio/mp4',
      { signal: never() },
    );
    const seen = double.requests.at(-1)!;
    expect(seen.form?.file?.name).toBe('recording.mp4');
    expect(seen.form?.fields).toEqual({ model: 'Systran/faster-whisper-small' });
  });

  const answers: [string, SpeechBehaviour, SpeechFailure][] = [
    ['401', { kind: 'status', ...speechErrors.unauthorized }, 'unauthorized'],
    ['429', { kind: 'status', ...speechErrors.rateLimited }, 'busy'],
    ['500', { kind: 'status', ...speechErrors.serverError }, 'failed'],
    ['a dropped connection', { kind: 'drop' }, 'cut'],
    ['an answer without text', { kind: 'garbage' }, 'malformed'],
  ];
  it.each(answers)('maps %s to its failure', async (_name, behaviour, failure) => {
    double.queue.push(behaviour);
    const error = await failureOf(
      at().transcribe(new Uint8Array(makeWav(0.1)), 'audio/wav', { signal: never() }),
    );
    expect(error.failure).toBe(failure);
  });

  it('is unreachable where nothing listens, and times out after TRANSCRIBE_TIMEOUT', async () => {
    const down = transcriber({ TRANSCRIBE_BASE_URL: `${await closedUrl()}/v1` });
    expect(
      (await failureOf(down.transcribe(new Uint8Array(4), 'audio/wav', { signal: never() })))
        .failure,
    ).toBe('unreachable');
    double.queue.push({ kind: 'hang' });
    const slow = at({ TRANSCRIBE_TIMEOUT: '0.2' });
    expect(
      (await failureOf(slow.transcribe(new Uint8Array(4), 'audio/wav', { signal: never() })))
        .failure,
    ).toBe('timeout');
  });
});
