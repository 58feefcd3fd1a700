import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, environmentSchema, loadConfig } from '../src/config';
import { accountVariables, signInVariables } from '../src/config/accounts';
import { databaseVariables } from '../src/config/database';
import { imageVariables } from '../src/config/images';
import { llmVariables } from '../src/config/llm';
import { logVariables } from '../src/config/logging';
import { mailVariables } from '../src/config/mail';
import { metricsVariables } from '../src/config/metrics';
import { paymentVariables } from '../src/config/payments';
import { redisVariables } from '../src/config/redis';
import { serverVariables } from '../src/config/server';
import { speechVariables } from '../src/config/speech';
import { storageVariables } from '../src/config/storage';
import { transcriptionVariables } from '../src/config/transcription';

describe('configuration', () => {
  it('has embedded defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
    expect(config.mailOutboxDir).toBe(path.resolve('./data/outbox'));
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it.each([
    [{ PORT: 'eighty' }, /^Invalid PORT: .*"eighty"/],
    [
      { DATABASE_URL: 'mysql://x' },
      /^Invalid DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/,
    ],
    [{ SMTP_URL: 'http://mail' }, /^Invalid SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/],
    [{ PUBLIC_URL: 'not a url' }, /^Invalid PUBLIC_URL/],
    [
      { ADMIN_EMAILS: 'admin@example.com, not-an-address' },
      /^Invalid ADMIN_EMAILS: must be e-mail addresses separated by commas/,
    ],
  ])('names the variable of a bad value: %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each([
    [{ IMAGE_PROVIDER: 'midjourney' }, /^Invalid IMAGE_PROVIDER: .*"midjourney"/],
    [
      { IMAGE_BASE_URL: 'http://127.0.0.1:7860' },
      /^Invalid IMAGE_PROVIDER: IMAGE_BASE_URL is set but IMAGE_PROVIDER is not/,
    ],
    [
      { IMAGE_PROVIDER: 'comfyui', IMAGE_BASE_URL: 'comfy box' },
      /^Invalid IMAGE_BASE_URL: .*"comfy box"/,
    ],
    [{ IMAGE_PROVIDER: 'automatic1111', IMAGE_COST: 'free' }, /^Invalid IMAGE_COST: .*"free"/],
    [{ IMAGE_PROVIDER: 'automatic1111', IMAGE_COST: '-1' }, /^Invalid IMAGE_COST/],
    [{ IMAGE_PROVIDER: 'automatic1111', IMAGE_TIMEOUT: '0' }, /^Invalid IMAGE_TIMEOUT: .*"0"/],
    [{ IMAGE_PROVIDER: 'openai' }, /^Invalid IMAGE_API_KEY: OpenAI needs a key/],
    [
      { IMAGE_PROVIDER: 'openai', IMAGE_BASE_URL: 'http://localai:8080/v1' },
      /^Invalid IMAGE_MODEL: an OpenAI-compatible server other than OpenAI needs/,
    ],
  ])('stops on a bad picture setting, naming it: %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads the picture engine: absent means not set up; defaults per engine', () => {
    expect(loadConfig({}).image).toBeNull();
    expect(loadConfig({ IMAGE_PROVIDER: 'automatic1111' }).image).toEqual({
      provider: 'automatic1111',
      baseUrl: 'http://127.0.0.1:7860',
      model: undefined,
      apiKey: undefined,
      cost: 5,
      timeoutMs: 300_000,
      concurrency: 1,
    });
    expect(
      loadConfig({
        IMAGE_PROVIDER: 'comfyui',
        IMAGE_BASE_URL: 'http://gpu-box:8188/',
        IMAGE_MODEL: 'sd_xl_base_1.0.safetensors',
        IMAGE_COST: '12',
        IMAGE_TIMEOUT: '2.5',
        IMAGE_CONCURRENCY: '3',
      }).image,
    ).toEqual({
      provider: 'comfyui',
      baseUrl: 'http://gpu-box:8188',
      model: 'sd_xl_base_1.0.safetensors',
      apiKey: undefined,
      cost: 12,
      timeoutMs: 2500,
      concurrency: 3,
    });
    expect(loadConfig({ IMAGE_PROVIDER: 'openai', IMAGE_API_KEY: 'sk-x' }).image).toMatchObject({
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-image-1',
      concurrency: 2,
    });
    expect(() => loadConfig({ IMAGE_PROVIDER: 'comfyui', IMAGE_CONCURRENCY: '0' })).toThrow(
      /^Invalid IMAGE_CONCURRENCY: .*"0"/,
    );
  });

  it.each([
    [{ SPEECH_PROVIDER: 'openai' }, /^Invalid SPEECH_API_KEY: OpenAI needs a key/],
    [
      { SPEECH_PROVIDER: 'openai', SPEECH_BASE_URL: 'http://127.0.0.1:8880/v1' },
      /^Invalid SPEECH_MODEL: an OpenAI-compatible server other than OpenAI needs/,
    ],
    [
      { SPEECH_BASE_URL: 'http://127.0.0.1:8880/v1' },
      /^Invalid SPEECH_PROVIDER: SPEECH_BASE_URL is set but SPEECH_PROVIDER is not openai/,
    ],
    [
      { SPEECH_PROVIDER: 'openai', SPEECH_API_KEY: 'sk-x', SPEECH_BASE_URL: 'kokoro box' },
      /^Invalid SPEECH_BASE_URL: .*"kokoro box"/,
    ],
    [
      { SPEECH_PROVIDER: 'openai', SPEECH_API_KEY: 'sk-x', SPEECH_VOICES: 'nova, two words' },
      /^Invalid SPEECH_VOICES: must be voice ids separated by commas .*"nova, two words"/,
    ],
    [
      { SPEECH_PROVIDER: 'openai', SPEECH_API_KEY: 'sk-x', SPEECH_VOICES: ' , ' },
      /^Invalid SPEECH_VOICES: must name at least one voice/,
    ],
    [
      { SPEECH_PROVIDER: 'openai', SPEECH_API_KEY: 'sk-x', SPEECH_FORMAT: 'ogg' },
      /^Invalid SPEECH_FORMAT: .*"ogg"/,
    ],
    [
      { SPEECH_PROVIDER: 'openai', SPEECH_API_KEY: 'sk-x', SPEECH_TIMEOUT: 'soon' },
      /^Invalid SPEECH_TIMEOUT: .*"soon"/,
    ],
    [{ TRANSCRIBE_PROVIDER: 'whisper.cpp' }, /^Invalid TRANSCRIBE_PROVIDER: .*"whisper.cpp"/],
    [
      { TRANSCRIBE_PROVIDER: 'none', TRANSCRIBE_API_KEY: 'sk-x' },
      /^Invalid TRANSCRIBE_PROVIDER: TRANSCRIBE_API_KEY is set but TRANSCRIBE_PROVIDER is none/,
    ],
    [
      { TRANSCRIBE_MODEL: 'whisper-1' },
      /^Invalid TRANSCRIBE_PROVIDER: TRANSCRIBE_MODEL is set but TRANSCRIBE_PROVIDER is not/,
    ],
    [{ TRANSCRIBE_PROVIDER: 'openai' }, /^Invalid TRANSCRIBE_API_KEY: OpenAI needs a key/],
    [
      { TRANSCRIBE_PROVIDER: 'openai', TRANSCRIBE_BASE_URL: 'localai:8080' },
      /^Invalid TRANSCRIBE_BASE_URL: must be an http:\/\/ or https:\/\/ URL .*"localai:8080"/,
    ],
    [
      { TRANSCRIBE_PROVIDER: 'openai', TRANSCRIBE_API_KEY: 'sk-x', TRANSCRIBE_TIMEOUT: '0' },
      /^Invalid TRANSCRIBE_TIMEOUT: .*"0"/,
    ],
  ])('stops on a bad speech or transcription setting, naming it: %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads the remote speech engine only with SPEECH_PROVIDER=openai; OpenAI defaults', () => {
    expect(loadConfig({}).speechRemote).toBeNull();
    expect(loadConfig({ SPEECH_PROVIDER: 'embedded' }).speechRemote).toBeNull();
    expect(loadConfig({ SPEECH_PROVIDER: 'openai', SPEECH_API_KEY: 'sk-x' }).speechRemote).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-4o-mini-tts',
      apiKey: 'sk-x',
      voices: undefined,
      format: 'mp3',
      timeoutMs: 120_000,
    });
    expect(
      loadConfig({
        SPEECH_PROVIDER: 'openai',
        SPEECH_BASE_URL: 'http://127.0.0.1:8880/v1/',
        SPEECH_MODEL: 'kokoro',
        SPEECH_VOICES: 'af_bella, am_adam,,',
        SPEECH_FORMAT: 'wav',
        SPEECH_TIMEOUT: '30',
      }).speechRemote,
    ).toEqual({
      baseUrl: 'http://127.0.0.1:8880/v1',
      model: 'kokoro',
      apiKey: undefined,
      voices: ['af_bella', 'am_adam'],
      format: 'wav',
      timeoutMs: 30_000,
    });
  });

  it('reads speech to text: absent means embedded, none turns it off; whisper-1 by default', () => {
    expect(loadConfig({}).transcription).toEqual({
      provider: 'embedded',
      threads: 2,
      timeoutMs: 60_000,
    });
    expect(
      loadConfig({ TRANSCRIBE_PROVIDER: 'embedded', TRANSCRIBE_THREADS: '1' }).transcription,
    ).toEqual({ provider: 'embedded', threads: 1, timeoutMs: 60_000 });
    expect(loadConfig({ TRANSCRIBE_PROVIDER: 'none' }).transcription).toBeNull();
    expect(
      loadConfig({ TRANSCRIBE_PROVIDER: 'openai', TRANSCRIBE_API_KEY: 'sk-x' }).transcription,
    ).toEqual({
      provider: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      model: 'whisper-1',
      apiKey: 'sk-x',
      timeoutMs: 60_000,
    });
    expect(
      loadConfig({
        TRANSCRIBE_PROVIDER: 'openai',
        TRANSCRIBE_BASE_URL: 'http://127.0.0.1:8000/v1',
        TRANSCRIBE_MODEL: 'Systran/faster-whisper-small',
      }).transcription,
    ).toMatchObject({
      baseUrl: 'http://127.0.0.1:8000/v1',
      model: 'Systran/faster-whisper-small',
      apiKey: undefined,
    });
  });

  it('reads the local transcription engine: Whisper tiny.en from the hub into the voices folder', () => {
    const local = loadConfig({ TRANSCRIBE_PROVIDER: 'local' }).transcription;
    expect(local).toMatchObject({
      provider: 'local',
      model: 'csukuangfj/sherpa-onnx-whisper-tiny.en',
      hubUrl: 'https://huggingface.co',
      threads: 2,
      timeoutMs: 60_000,
    });
    expect(local && 'modelsDir' in local && local.modelsDir).toMatch(/voices$/);
    expect(() => loadConfig({ TRANSCRIBE_PROVIDER: 'local', TRANSCRIBE_MODEL: '../x' })).toThrow(
      /^Invalid TRANSCRIBE_MODEL: TRANSCRIBE_PROVIDER=local takes a Hugging Face repository/,
    );
    expect(() => loadConfig({ TRANSCRIBE_PROVIDER: 'local', TRANSCRIBE_API_KEY: 'sk-x' })).toThrow(
      /^Invalid TRANSCRIBE_PROVIDER: TRANSCRIBE_API_KEY is set but TRANSCRIBE_PROVIDER is local/,
    );
  });

  it('reads the speech engine: embedded by default at 1 gold coin a message; none turns it off', () => {
    expect(loadConfig({}).speech).toEqual({
      provider: 'embedded',
      cost: 1,
      threads: 2,
      tempDir: path.resolve('data', 'tmp', 'speech'),
      local: null,
    });
    // Its temporary folders are in the data folder, nowhere else.
    expect(
      loadConfig({ SPEECH_COST: '0', SPEECH_THREADS: '4', DATA_DIR: '/srv/mates' }).speech,
    ).toEqual({
      provider: 'embedded',
      cost: 0,
      threads: 4,
      tempDir: '/srv/mates/tmp/speech',
      local: null,
    });
    // The local engine: a Hugging Face repository, downloaded into $DATA_DIR/voices.
    expect(loadConfig({ SPEECH_PROVIDER: 'local', DATA_DIR: '/srv/mates' }).speech?.local).toEqual({
      model: 'csukuangfj/kokoro-en-v0_19',
      hubUrl: 'https://huggingface.co',
      voicesDir: '/srv/mates/voices',
    });
    expect(() => loadConfig({ SPEECH_PROVIDER: 'local', SPEECH_MODEL: '../../etc' })).toThrow(
      /^Invalid SPEECH_MODEL: SPEECH_PROVIDER=local takes a Hugging Face repository/,
    );
    expect(loadConfig({ SPEECH_PROVIDER: 'none' }).speech).toBeNull();
    expect(() => loadConfig({ SPEECH_PROVIDER: 'festival' })).toThrow(/^Invalid SPEECH_PROVIDER/);
    expect(() => loadConfig({ SPEECH_COST: 'free' })).toThrow(/^Invalid SPEECH_COST: .*"free"/);
  });

  it('reads Stripe: both keys or none; a lone key or a bad one stops the start', () => {
    expect(loadConfig({}).payments).toBeNull();
    expect(
      loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_def' }).payments,
    ).toEqual({ secretKey: 'sk_test_abc', webhookSecret: 'whsec_def', apiUrl: undefined });
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc' })).toThrow(
      /^Invalid STRIPE_WEBHOOK_SECRET: without it no payment can be confirmed/,
    );
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_def' })).toThrow(
      /^Invalid STRIPE_SECRET_KEY/,
    );
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'pk_test_abc' })).toThrow(
      /^Invalid STRIPE_SECRET_KEY: must be a Stripe secret key/,
    );
    expect(() => loadConfig({ STRIPE_API_URL: 'http://127.0.0.1:12111' })).toThrow(
      /^Invalid STRIPE_API_URL: it is set but STRIPE_SECRET_KEY is not/,
    );
  });

  it('reads the bucket of stored files: absent means DATA_DIR; S3_* checked together', () => {
    expect(loadConfig({})).toMatchObject({ s3: null, linkSecret: null });
    const secret = 'x'.repeat(32);
    expect(loadConfig({ S3_BUCKET: 'mates-media', LINK_SECRET: secret })).toMatchObject({
      s3: {
        bucket: 'mates-media',
        endpoint: undefined,
        region: 'us-east-1',
        credentials: undefined,
        forcePathStyle: false,
        prefix: '',
      },
      linkSecret: secret,
    });
    expect(
      loadConfig({
        S3_BUCKET: 'mates-media',
        S3_ENDPOINT: 'http://127.0.0.1:9000/',
        S3_REGION: 'eu-central-1',
        S3_ACCESS_KEY_ID: 'minio',
        S3_SECRET_ACCESS_KEY: 'minio-secret',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: 'prod/mates/',
        LINK_SECRET: secret,
      }).s3,
    ).toEqual({
      bucket: 'mates-media',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-central-1',
      credentials: { accessKeyId: 'minio', secretAccessKey: 'minio-secret' },
      forcePathStyle: true,
      prefix: 'prod/mates/',
    });
    const bucket = { S3_BUCKET: 'mates-media', LINK_SECRET: secret };
    for (const [env, message] of [
      [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, /^Invalid S3_BUCKET: S3_ENDPOINT is set but/],
      [{ S3_BUCKET: 'Mates_Media', LINK_SECRET: secret }, /^Invalid S3_BUCKET: must be a bucket/],
      [{ S3_BUCKET: 'mates-media' }, /^Invalid LINK_SECRET: with S3_BUCKET set/],
      [{ ...bucket, LINK_SECRET: 'short' }, /^Invalid LINK_SECRET: must be at least 32/],
      [{ ...bucket, S3_ACCESS_KEY_ID: 'minio' }, /^Invalid S3_SECRET_ACCESS_KEY: give both/],
      [{ ...bucket, S3_SECRET_ACCESS_KEY: 'minio-secret' }, /^Invalid S3_ACCESS_KEY_ID/],
      [{ ...bucket, S3_ENDPOINT: 'ftp://store' }, /^Invalid S3_ENDPOINT: must be an http/],
      [{ ...bucket, S3_FORCE_PATH_STYLE: 'maybe' }, /^Invalid S3_FORCE_PATH_STYLE/],
      [{ ...bucket, S3_PREFIX: '../up' }, /^Invalid S3_PREFIX: must be folder names/],
    ] as const)
      expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads PACKAGES_FILE, naming what is wrong in it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-packages-'));
    const file = (name: string, text: string) => {
      fs.writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    expect(loadConfig({}).packages).toBeNull();
    const good = file(
      'good.json',
      JSON.stringify([
        {
          id: 'chats-100',
          name: '100 chats',
          price: { amount: 199, currency: 'eur' },
          period: 'once',
          chats: 100,
        },
      ]),
    );
    expect(loadConfig({ PACKAGES_FILE: good }).packages).toEqual([
      {
        id: 'chats-100',
        name: '100 chats',
        description: '',
        price: { amount: 199, currency: 'EUR' },
        period: 'once',
        chats: 100,
        goldCoins: 0,
        features: [],
      },
    ]);
    expect(() => loadConfig({ PACKAGES_FILE: path.join(dir, 'missing.json') })).toThrow(
      /^Invalid PACKAGES_FILE: cannot read it \(ENOENT\)/,
    );
    expect(() => loadConfig({ PACKAGES_FILE: file('bad.json', '[{') })).toThrow(
      /^Invalid PACKAGES_FILE: not JSON/,
    );
    expect(() =>
      loadConfig({
        PACKAGES_FILE: file(
          'weekly.json',
          JSON.stringify([
            { id: 'x', name: 'X', price: { amount: 1, currency: 'USD' }, period: 'week' },
          ]),
        ),
      }),
    ).toThrow(/^Invalid PACKAGES_FILE: .* at 0\.period/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('has every environment variable it reads in the README table', () => {
    const names = Object.keys(environmentSchema.shape);
    expect(names.length).toBeGreaterThan(50);
    const readme = fs.readFileSync(path.join(import.meta.dirname, '../README.md'), 'utf8');
    const table = readme.split('\n').filter((line) => line.startsWith('| `'));
    expect(names.filter((name) => !table.some((row) => row.includes(`\`${name}\``)))).toEqual([]);
  });

  it('reads every variable a concern of config/ defines, each once', () => {
    const defined = [
      serverVariables,
      databaseVariables,
      mailVariables,
      signInVariables,
      accountVariables,
      llmVariables,
      imageVariables,
      speechVariables,
      transcriptionVariables,
      storageVariables,
      redisVariables,
      logVariables,
      metricsVariables,
      paymentVariables,
    ].flatMap((variables) => Object.keys(variables));
    expect(Object.keys(environmentSchema.shape).sort()).toEqual(defined.sort());
  });

  it.each([
    [{ PUBLIC_URL: 'not a url', DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ ADMIN_EMAILS: 'nobody', PORT: 'eighty' }, 'PORT'],
    [{ GOOGLE_JWKS_URL: 'jwks', MAIL_FROM: 'a' }, 'MAIL_FROM'],
    [{ GOOGLE_JWKS_URL: 'jwks', LLM_PROVIDER: 'gpt' }, 'GOOGLE_JWKS_URL'],
    [{ SHUTDOWN_TIMEOUT: 'soon', LOG_LEVEL: 'loud' }, 'SHUTDOWN_TIMEOUT'],
    [{ WELCOME_CHATS: '-1', STRIPE_SECRET_KEY: 'pk_test_abc' }, 'STRIPE_SECRET_KEY'],
    [{ S3_BUCKET: 'mates-media', IMAGE_BASE_URL: 'http://127.0.0.1:7860' }, 'LINK_SECRET'],
    [{ IMAGE_MODEL: 'sdxl', SPEECH_PROVIDER: 'openai' }, 'IMAGE_PROVIDER'],
    [{ SPEECH_PROVIDER: 'local', SPEECH_MODEL: '../x', SPEECH_API_KEY: 'sk-x' }, 'SPEECH_MODEL'],
    [{ SPEECH_BASE_URL: 'http://127.0.0.1:8880/v1', TRANSCRIBE_MODEL: 'w' }, 'SPEECH_PROVIDER'],
    [{ TRANSCRIBE_MODEL: 'w', TRUST_PROXY: 'not-an-address' }, 'TRANSCRIBE_PROVIDER'],
    [{ TRUST_PROXY: 'not-an-address', S3_ENDPOINT: 'http://store' }, 'S3_BUCKET'],
    [{ TRUST_PROXY: 'not-an-address', METRICS_PATH: 'off', METRICS_PORT: '9464' }, 'TRUST_PROXY'],
    [{ METRICS_PORT: '3000', STRIPE_API_URL: 'http://127.0.0.1:12111' }, 'METRICS_PORT'],
    [{ STRIPE_WEBHOOK_SECRET: 'whsec_x', PACKAGES_FILE: '/nowhere.json' }, 'STRIPE_SECRET_KEY'],
  ])('names the first of several bad variables, in the order they are checked: %j', (env, name) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid ${name}: `));
  });

  it('reads Redis only with REDIS_URL: a prefix and a room lock lifetime by default', () => {
    expect(loadConfig({}).redis).toBeNull();
    expect(loadConfig({ REDIS_URL: 'redis://:secret@cache:6379/2' }).redis).toEqual({
      url: 'redis://:secret@cache:6379/2',
      prefix: 'mates:',
      roomLockTtlMs: 30_000,
    });
    expect(
      loadConfig({ REDIS_URL: 'rediss://cache', REDIS_PREFIX: 'staging:', ROOM_LOCK_TTL: '5' })
        .redis,
    ).toMatchObject({ prefix: 'staging:', roomLockTtlMs: 5000 });
    expect(() => loadConfig({ REDIS_URL: 'http://cache:6379' })).toThrow(
      'Invalid REDIS_URL: must be a redis:// or rediss:// URL (got "http://cache:6379")',
    );
    expect(() => loadConfig({ REDIS_URL: 'redis://cache', ROOM_LOCK_TTL: '0' })).toThrow(
      /^Invalid ROOM_LOCK_TTL: /,
    );
    expect(() => loadConfig({ REDIS_PREFIX: 'has space' })).toThrow(/^Invalid REDIS_PREFIX: /);
  });

  it('reads ADMIN_EMAILS as lowercased addresses, blanks between commas ignored', () => {
    expect(loadConfig({}).adminEmails.size).toBe(0);
    expect([
      ...loadConfig({ ADMIN_EMAILS: ' Ana@Example.com,, bo@example.org ' }).adminEmails,
    ]).toEqual(['ana@example.com', 'bo@example.org']);
  });

  it('stops the start with one clear line', () => {
    const main = path.join(import.meta.dirname, '..', 'src', 'main.ts');
    let stderr = '';
    try {
      execFileSync(process.execPath, ['--conditions=@mates/source', '--import', 'tsx', main], {
        env: { ...process.env, PORT: 'eighty' },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      stderr = (error as { stderr: string }).stderr;
      expect((error as { status: number }).status).toBe(1);
    }
    expect(stderr.trim().split('\n')).toEqual([
      '[mates] Invalid PORT: Invalid input: expected number, received NaN (got "eighty")',
    ]);
  });

  describe('a DATA_DIR it cannot use', () => {
    let scratch: string;
    beforeEach(() => void (scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-config-'))));
    afterEach(() => fs.rmSync(scratch, { recursive: true, force: true }));

    it('is named in one line with what to do', () => {
      // A path under a regular file cannot be created, even by root (tests run as root,
      // whom a chmod 555 would not stop).
      fs.writeFileSync(path.join(scratch, 'a-file'), '');
      const dataDir = path.join(scratch, 'a-file', 'data');
      const { status, stderr } = startMain({ PORT: '0', DATA_DIR: dataDir });
      expect(status).toBe(1);
      expect(stderr.trim().split('\n')).toEqual([
        `[mates] Cannot use DATA_DIR ${dataDir}: a part of the path is a file, not a directory. Set DATA_DIR to a directory this process may write to (it holds the SQLite database, media and mail).`,
      ]);
    });

    it('names the SQLite file that cannot be opened', () => {
      fs.mkdirSync(path.join(scratch, 'mates.db'));
      const { status, stderr } = startMain({ PORT: '0', DATA_DIR: scratch });
      expect(status).toBe(1);
      expect(stderr.trim().split('\n')).toEqual([
        `[mates] Cannot open the SQLite database ${path.join(scratch, 'mates.db')}: unable to open database file. Make it a database file this process may read and write, or set DATA_DIR to another directory.`,
      ]);
    });
  });
});

/** Runs the server's entry point with `env` added; answers its exit status and stderr. */
function startMain(env: Record<string, string>) {
  const main = path.join(import.meta.dirname, '..', 'src', 'main.ts');
  const { DATABASE_URL: _unused, ...inherited } = process.env;
  try {
    execFileSync(process.execPath, ['--conditions=@mates/source', '--import', 'tsx', main], {
      env: { ...inherited, ...env },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    return { status: 0, stderr: '' };
  } catch (error) {
    const { status, stderr } = error as { status: number; stderr: string };
    return { status, stderr };
  }
}
