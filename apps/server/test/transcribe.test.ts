import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, createTestApp, postgresAvailable, signUp, type TestApp } from './harness';
import { closedUrl, makeWav, speechErrors, startSpeechDouble } from './speech-doubles';
import { TRANSCRIBE_MAX_BYTES } from '../src/voice/transcribe-routes';
import { TRANSCRIPTION_NOT_SET_UP } from '../src/voice/transcription-service';
import { en } from '../src/i18n/en';
import { createRateLimits } from '../src/accounts/rate-limits';
import { spokenWav } from './spoken-wav';

// Issue #16: `POST /voice/transcribe` turns a signed-in person's recording into text through
// the OpenAI-compatible transcription double; bad recordings and engine faults answer clearly.
const withPostgres = await postgresAvailable();

const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe.each(DIALECTS)('POST /voice/transcribe on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let double: Awaited<ReturnType<typeof startSpeechDouble>>;
  let app: TestApp;
  beforeAll(async () => {
    if (skip) return;
    double = await startSpeechDouble({ transcript: 'Tell me about the night market.' });
    app = await createTestApp(dialect, {
      env: { TRANSCRIBE_PROVIDER: 'openai', TRANSCRIBE_BASE_URL: `${double.url}/v1` },
    });
  });
  afterAll(async () => {
    await app?.close();
    await double?.close();
  });

  const recording = makeWav(0.2);
  const payload = { audio: recording.toString('base64'), mimeType: 'audio/webm;codecs=opus' };

  it.skipIf(skip)('answers what was said, sending the recording to the engine', async () => {
    const { client } = await signUp(app);
    expect(await client.voice.transcribe({ ...payload, language: 'en-US' })).toEqual({
      text: 'Tell me about the night market.',
    });
    const seen = double.requests.at(-1)!;
    expect(seen.form?.file?.bytes.equals(recording)).toBe(true);
    expect(seen.form?.file?.type).toBe('audio/webm');
    expect(seen.form?.fields).toEqual({ model: 'whisper-1', language: 'en' });
  });

  it.skipIf(skip)('asks for a session first', async () => {
    expect(await errorOf(app.client().voice.transcribe(payload))).toMatchObject({ code: 5002 });
  });

  it.skipIf(skip)(
    'refuses a recording over 2 MB, or empty, or not base64, sending nothing',
    async () => {
      const { client } = await signUp(app);
      const before = double.requests.length;
      const big = Buffer.alloc(TRANSCRIBE_MAX_BYTES + 1).toString('base64');
      expect(await errorOf(client.voice.transcribe({ ...payload, audio: big }))).toMatchObject({
        code: 4000,
        message: 'audio: the recording must be at most 2 MB. Record a shorter message.',
      });
      expect(await errorOf(client.voice.transcribe({ ...payload, audio: '' }))).toMatchObject({
        code: 4000,
        message: 'audio: the recording is empty.',
      });
      expect(
        await errorOf(client.voice.transcribe({ ...payload, audio: 'not base64!' })),
      ).toMatchObject({ code: 4000, message: 'audio: must be the recording, base64-encoded.' });
      // Exactly 2 MB is taken.
      double.queue.push({ kind: 'ok' });
      await client.voice.transcribe({
        ...payload,
        audio: Buffer.alloc(TRANSCRIBE_MAX_BYTES).toString('base64'),
      });
      expect(double.requests.length - before).toBe(1);
    },
  );

  it.skipIf(skip)('refuses a type no recorder makes', async () => {
    const { client } = await signUp(app);
    for (const mimeType of ['video/webm', 'audio/flac', 'audio/webm;rate=8000', 'text/plain'])
      expect(await errorOf(client.voice.transcribe({ ...payload, mimeType }))).toMatchObject({
        code: 4000,
        message:
          'mimeType: must be audio/webm, audio/ogg, audio/mp4, audio/mpeg or audio/wav (optionally with ;codecs=…).',
      });
    for (const mimeType of ['audio/ogg; codecs=opus', 'audio/mp4;codecs="mp4a.40.2"', 'audio/WAV'])
      expect(await client.voice.transcribe({ ...payload, mimeType })).toHaveProperty('text');
  });

  it.skipIf(skip)(
    "tells the engine's failures in plain words, its detail kept for the log",
    async () => {
      const { client } = await signUp(app);
      double.queue.push({ kind: 'status', ...speechErrors.unauthorized });
      expect(await errorOf(client.voice.transcribe(payload))).toMatchObject({
        code: 5007,
        message: 'The speech-to-text engine refused this server. Tell the server’s owner.',
      });
      expect(app.logs.join('\n')).toMatch(/answered 401 \(invalid_api_key\)/);
      double.queue.push({ kind: 'status', ...speechErrors.serverError });
      expect(await errorOf(client.voice.transcribe(payload))).toMatchObject({
        code: 5007,
        message: en.notices.transcription.failed,
      });
    },
  );

  it.skipIf(skip)(
    'with nothing set, writes what a voice said with the embedded engine',
    async () => {
      const bare = await createTestApp(dialect);
      try {
        const { client } = await signUp(bare);
        const spoken = await spokenWav([0.3, 'I would like a cup of tea with honey, please.', 0.3]);
        const { text } = await client.voice.transcribe({
          audio: spoken.toString('base64'),
          mimeType: 'audio/wav',
          language: 'en-US',
        });
        expect(text).toBe('I would like a cup of tea with honey, please.');
      } finally {
        await bare.close();
      }
    },
  );

  it.skipIf(skip)('answers 5007 "not set up" with TRANSCRIBE_PROVIDER=none', async () => {
    const bare = await createTestApp(dialect, { env: { TRANSCRIBE_PROVIDER: 'none' } });
    try {
      const { client } = await signUp(bare);
      expect(await errorOf(client.voice.transcribe(payload))).toMatchObject({
        code: 5007,
        message: TRANSCRIPTION_NOT_SET_UP,
      });
      expect(TRANSCRIPTION_NOT_SET_UP).toBe('Speech to text is not set up on this server.');
    } finally {
      await bare.close();
    }
  });

  it.skipIf(skip)('says the engine cannot be reached when it is down', async () => {
    const down = await createTestApp(dialect, {
      env: { TRANSCRIBE_PROVIDER: 'openai', TRANSCRIBE_BASE_URL: `${await closedUrl()}/v1` },
    });
    try {
      const { client } = await signUp(down);
      expect(await errorOf(client.voice.transcribe(payload))).toMatchObject({
        code: 5007,
        message:
          'The speech-to-text engine could not be reached. Try again later, or type your message.',
      });
    } finally {
      await down.close();
    }
  });

  it.skipIf(skip)('stops a user after a day of recordings', async () => {
    const { client } = await signUp(app);
    const daily = app.deps.limits.transcribeDaily;
    app.deps.limits.transcribeDaily = createRateLimits(0.01).transcribeDaily;
    try {
      for (let i = 0; i < 3; i++) await client.voice.transcribe(payload);
      expect(await errorOf(client.voice.transcribe(payload))).toMatchObject({
        code: 5007,
        message: expect.stringMatching(/^Too many attempts\. Please try again in /),
      });
    } finally {
      app.deps.limits.transcribeDaily = daily;
    }
  });

  it.skipIf(skip)('stops a user after 20 recordings a minute', async () => {
    const { client } = await signUp(app);
    app.deps.limits.transcribe = createRateLimits().transcribe;
    try {
      for (let i = 0; i < 20; i++) await client.voice.transcribe(payload);
      expect(await errorOf(client.voice.transcribe(payload))).toMatchObject({
        code: 5007,
        message: expect.stringMatching(/^Too many attempts\. Please try again in \d+ seconds?\.$/),
      });
    } finally {
      app.deps.limits.transcribe = createRateLimits(1000).transcribe;
    }
  });
});
