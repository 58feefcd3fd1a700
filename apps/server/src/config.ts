import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { compileTrustProxy, type TrustProxy } from './http/caller-address';
import { LOG_LEVELS, type LogConfig } from './logging/logger';

const optionalUrl = z.url().optional();
/** A base URL engines are called at: http or https only. */
const httpUrl = () =>
  z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional();

/**
 * The embedded model used when LLM_MODEL is not set: Qwen2.5 1.5B Instruct, Q4_K_M
 * (about 1.1 GB), small enough for a laptop's CPU and able to answer in many languages.
 */
export const DEFAULT_EMBEDDED_MODEL = 'hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M';

/**
 * The speech model of `SPEECH_PROVIDER=local` when SPEECH_MODEL is not set: Kokoro v0.19 packed
 * for sherpa-onnx (11 English voices, 24 kHz; about 330 MB with its espeak-ng data).
 */
export const DEFAULT_LOCAL_SPEECH_MODEL = 'csukuangfj/kokoro-en-v0_19';

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  MIGRATE: z.enum(['auto', 'new', 'off']).optional(),
  PUBLIC_URL: optionalUrl,
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_OUTBOX_DIR: z.string().min(1).optional(),
  MAIL_FROM: z.string().min(3).default('Mates <no-reply@mates.local>'),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_JWKS_URL: z.url().default('https://www.googleapis.com/oauth2/v3/certs'),
  DISCORD_CLIENT_ID: z.string().min(1).optional(),
  DISCORD_CLIENT_SECRET: z.string().min(1).optional(),
  DISCORD_API_URL: z.url().default('https://discord.com/api'),
  DISCORD_TIMEOUT: z.coerce.number().min(0.1).max(120).default(10),
  WEB_DIST_DIR: z.string().min(1).optional(),
  LLM_PROVIDER: z.enum(['embedded', 'openai']).default('embedded'),
  LLM_MODEL: z.string().min(1).optional(),
  LLM_BASE_URL: z.url().optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_THREADS: z.coerce.number().int().min(1).max(256).optional(),
  LLM_CONTEXT_SIZE: z.coerce.number().int().min(128).max(131_072).default(4096),
  LLM_PARALLEL: z.coerce.number().int().min(1).max(64).default(2),
  LLM_QUEUE: z.coerce.number().int().min(0).max(10_000).default(32),
  LLM_MAX_TOKENS: z.coerce.number().int().min(8).max(8192).default(320),
  LLM_CONNECT_TIMEOUT: z.coerce.number().min(0.1).max(3600).default(60),
  LLM_IDLE_TIMEOUT: z.coerce.number().min(0.1).max(3600).default(60),
  LLM_MODELS_DIR: z.string().min(1).optional(),
  LLM_HF_ENDPOINT: z.url().optional(),
  IMAGE_PROVIDER: z.enum(['openai', 'automatic1111', 'comfyui']).optional(),
  IMAGE_BASE_URL: z.url().optional(),
  IMAGE_MODEL: z.string().min(1).optional(),
  IMAGE_API_KEY: z.string().min(1).optional(),
  IMAGE_COST: z.coerce.number().int().min(0).max(1_000_000).default(5),
  IMAGE_TIMEOUT: z.coerce.number().min(0.1).max(3600).default(300),
  IMAGE_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  SPEECH_PROVIDER: z.enum(['embedded', 'local', 'openai', 'none']).default('embedded'),
  SPEECH_COST: z.coerce.number().int().min(0).max(1_000_000).default(1),
  SPEECH_THREADS: z.coerce.number().int().min(1).max(64).default(2),
  SPEECH_BASE_URL: httpUrl(),
  SPEECH_MODEL: z.string().min(1).optional(),
  SPEECH_HUB_URL: httpUrl().default('https://huggingface.co'),
  SPEECH_API_KEY: z.string().min(1).optional(),
  SPEECH_VOICES: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((voice) => voice.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.string().regex(/^[\w.+-]{1,64}$/, 'must be voice ids separated by commas'))
        .min(1, 'must name at least one voice')
        .max(500),
    )
    .optional(),
  SPEECH_FORMAT: z.enum(['mp3', 'wav', 'opus', 'aac', 'flac']).default('mp3'),
  SPEECH_TIMEOUT: z.coerce.number().min(0.1).max(3600).default(120),
  TRANSCRIBE_PROVIDER: z.enum(['openai']).optional(),
  TRANSCRIBE_BASE_URL: httpUrl(),
  TRANSCRIBE_MODEL: z.string().min(1).optional(),
  TRANSCRIBE_API_KEY: z.string().min(1).optional(),
  TRANSCRIBE_TIMEOUT: z.coerce.number().min(0.1).max(3600).default(60),
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens',
    )
    .optional(),
  S3_ENDPOINT: httpUrl(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z.stringbool().default(false),
  S3_PREFIX: z
    .string()
    .regex(
      /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*\/?$/,
      'must be folder names of letters, digits, _ and - separated by /',
    )
    .optional(),
  LINK_SECRET: z.string().min(32, 'must be at least 32 characters (random)').optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w.:-]{1,64}$/, 'must be letters, digits, _, ., : or -')
    .default('mates:'),
  ROOM_LOCK_TTL: z.coerce.number().int().min(1).max(3600).default(30),
  TRUST_PROXY: z.string().min(1).optional(),
  SHUTDOWN_TIMEOUT: z.coerce.number().min(0).max(600).default(10),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  METRICS_PATH: z
    .string()
    .regex(
      /^(off|\/[\w.~-]+(\/[\w.~-]+)*)$/,
      'must be a path such as /metrics (letters, digits, . _ ~ - between slashes), or off',
    )
    .default('/metrics'),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_test_…, sk_live_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, 'must be a Stripe webhook signing secret (whsec_…)')
    .optional(),
  STRIPE_API_URL: httpUrl(),
  PACKAGES_FILE: z.string().min(1).optional(),
  WELCOME_CHATS: z.coerce.number().int().min(0).default(50),
  WELCOME_GOLD_COINS: z.coerce.number().int().min(0).default(20),
  ADMIN_EMAILS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((address) => address.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.email('must be e-mail addresses separated by commas')).max(1000))
    .optional(),
});

/** The server's configuration, read from the environment once at start. */
export interface Config {
  port: number;
  dataDir: string;
  /**
   * Portraits served under `/media`: `$DATA_DIR/media` (their keys `media/…` in the media
   * store, a folder at `DATA_DIR` unless `s3` is set).
   */
  mediaDir: string;
  /** The S3-compatible bucket that holds every stored file (`S3_*`), or `null` for `DATA_DIR`. */
  s3: S3Config | null;
  /**
   * The key that signs picture and voice links (`LINK_SECRET`), or `null` to make one and keep
   * it in `$DATA_DIR/picture-secret`.
   */
  linkSecret: string | null;
  databaseUrl: string | undefined;
  /**
   * What start (and the commands) do with migrations the database has not run (`MIGRATE`):
   * `auto` runs them; `new` runs them only on a database that has none yet; `off` runs none.
   * Where one is left pending, start refuses. Default: `auto` on SQLite, `new` on PostgreSQL.
   */
  migrate: MigrateMode;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailOutboxDir: string;
  mailFrom: string;
  google: { clientId: string | undefined; jwksUrl: string };
  discord: {
    clientId: string | undefined;
    clientSecret: string | undefined;
    apiUrl: string;
    /** How long one call to Discord (its answer and body) may take. */
    timeoutMs: number;
  };
  webDistDir: string;
  llm: {
    provider: 'embedded' | 'openai';
    /** GGUF path or `hf:` URI (embedded), or a model name (openai). */
    model: string;
    baseUrl: string | undefined;
    apiKey: string | undefined;
    threads: number;
    contextSize: number;
    parallel: number;
    queue: number;
    maxTokens: number;
    /** How long a remote provider may take to start answering, in ms. */
    connectTimeoutMs: number;
    /** How long a remote provider may go silent mid-reply, in ms. */
    idleTimeoutMs: number;
    modelsDir: string;
    /** Where `hf:` URIs are fetched from (a Hugging Face mirror); default Hugging Face. */
    huggingFaceEndpoint: string | undefined;
  };
  /** The picture engine (`IMAGE_PROVIDER`), or `null` when pictures are not set up. */
  image: ImageConfig | null;
  /** The speech engine (`SPEECH_PROVIDER`), or `null` when it is `none`. */
  speech: SpeechConfig | null;
  /**
   * The OpenAI-compatible speech endpoint's settings (`SPEECH_BASE_URL`…), or `null` unless
   * `SPEECH_PROVIDER` is `openai`.
   */
  speechRemote: SpeechRemoteConfig | null;
  /** Speech to text (`TRANSCRIBE_PROVIDER`), or `null` when it is not set up. */
  transcription: TranscriptionConfig | null;
  welcome: { chats: number; goldCoins: number };
  /** Redis, shared by every server (`REDIS_URL`…), or `null` for one process on its own. */
  redis: RedisConfig | null;
  /** Which proxies may tell the caller's address (`TRUST_PROXY`). */
  trustProxy: TrustProxy;
  /** How long a stop waits for replies being written to save and end (`SHUTDOWN_TIMEOUT`). */
  shutdownTimeoutMs: number;
  /** How the server logs (`LOG_LEVEL`, `LOG_FORMAT`). */
  log: LogConfig;
  /**
   * Where Prometheus reads the metrics: `path` on the main port, or on a port of their own
   * when `port` is set (`METRICS_PATH`, `METRICS_PORT`); `null` when `METRICS_PATH=off`.
   */
  metrics: MetricsConfig | null;
  /** The lowercased addresses whose verified accounts moderate reports (`ADMIN_EMAILS`). */
  adminEmails: ReadonlySet<string>;
  /** Stripe (`STRIPE_*`), or `null` when payments are not set up: packages are shown only. */
  payments: PaymentsConfig | null;
  /** The packages on sale, from `PACKAGES_FILE`, or `null` to keep those in the database. */
  packages: PackageConfig[] | null;
}

/** The bucket of stored files (`S3_BUCKET`, `S3_ENDPOINT`…). */
export interface S3Config {
  bucket: string;
  /** An S3-compatible service's address (MinIO, R2, Ceph…); absent: AWS S3 of `region`. */
  endpoint: string | undefined;
  region: string;
  /** Both or neither: without them the AWS SDK's own chain (its env variables, a role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** `bucket` in the path (`https://host/bucket/key`), as most S3-compatible services want. */
  forcePathStyle: boolean;
  /** Put before every key (`mates/` → `mates/media/avatars/…`): `''` or ends with `/`. */
  prefix: string;
}

/**
 * Redis, when several servers share the work (`REDIS_URL`, `REDIS_PREFIX`, `ROOM_LOCK_TTL`):
 * rate limits, the per-room lock of a reply being written, and stop requests between servers.
 */
export interface RedisConfig {
  /** e.g. `redis://127.0.0.1:6379/0`; a password in it is never logged. */
  url: string;
  /** Put before every key and channel, so that several deployments may share one Redis. */
  prefix: string;
  /** How long a room stays locked by a server that died while writing its reply, in ms. */
  roomLockTtlMs: number;
}

/** What to do with pending migrations at start: see {@link Config.migrate}. */
export type MigrateMode = 'auto' | 'new' | 'off';

/** Stripe's settings (`STRIPE_SECRET_KEY`, `STRIPE_WEBHOOK_SECRET`, `STRIPE_API_URL`). */
export interface MetricsConfig {
  path: string;
  /** A port of their own (0: any free one), or `undefined` to answer on the main port. */
  port: number | undefined;
}

export interface PaymentsConfig {
  secretKey: string;
  /** Signs the events Stripe sends to `POST /api/stripe/webhook`. */
  webhookSecret: string;
  /** Where Stripe's API is called: Stripe itself unless a local double is named. */
  apiUrl: string | undefined;
}

/** One package of `PACKAGES_FILE`: what it costs and what it adds. */
export interface PackageConfig {
  id: string;
  name: string;
  description: string;
  /** In minor units (cents) of `currency`. */
  price: { amount: number; currency: string };
  /** `once` is a pack bought once; `month` and `year` are plans that renew. */
  period: 'once' | 'month' | 'year';
  chats: number;
  goldCoins: number;
  features: string[];
}

/** The speech engine's settings (`SPEECH_*`). */
export interface SpeechConfig {
  /**
   * `embedded` (Flite in worker threads, offline), `local` (a Kokoro or Piper model run by
   * sherpa-onnx, downloaded once from the hub) or `openai` (see `speechRemote`).
   */
  provider: 'embedded' | 'local' | 'openai';
  /** Gold coins one message's audio costs, charged once per (message, voice). */
  cost: number;
  /** Worker threads of the embedded engine; ONNX Runtime threads of the local one (`SPEECH_THREADS`). */
  threads: number;
  /** `$DATA_DIR/tmp/speech`: the embedded engine's temporary folders, inside the data folder. */
  tempDir: string;
  /** The local engine's model (`SPEECH_PROVIDER=local`), or `null` for the other engines. */
  local: LocalSpeechConfig | null;
}

/** Where the local speech engine's model comes from and goes (`SPEECH_MODEL`, `SPEECH_HUB_URL`). */
export interface LocalSpeechConfig {
  /** A sherpa-onnx Kokoro or Piper repository on the hub; default `csukuangfj/kokoro-en-v0_19`. */
  model: string;
  /** The model hub (or a mirror of it): `SPEECH_HUB_URL`, default `https://huggingface.co`. */
  hubUrl: string;
  /** `$DATA_DIR/voices`: each model downloaded once into its own folder. */
  voicesDir: string;
}

/** Which kind of picture engine serves `IMAGE_PROVIDER`. */
export type ImageProvider = 'openai' | 'automatic1111' | 'comfyui';

/** The picture engine's settings. */
export interface ImageConfig {
  provider: ImageProvider;
  /** e.g. `https://api.openai.com/v1`, `http://127.0.0.1:7860` (A1111), `http://127.0.0.1:8188` (ComfyUI). */
  baseUrl: string;
  /** The model used when none is named; absent: the engine's first listed model. */
  model: string | undefined;
  apiKey: string | undefined;
  /** Gold coins one picture costs. */
  cost: number;
  /** How long one picture may take, queue at the engine included, in ms. */
  timeoutMs: number;
  /**
   * Pictures one server process asks the engine for at once (`IMAGE_CONCURRENCY`): by default 1
   * for AUTOMATIC1111 and ComfyUI, which draw one at a time on their GPU, and 2 for an
   * OpenAI-compatible service. More wait in the job queue, not at the engine.
   */
  concurrency: number;
}

/** The audio an OpenAI-compatible speech endpoint is asked for (`SPEECH_FORMAT`). */
export type SpeechFormat = 'mp3' | 'wav' | 'opus' | 'aac' | 'flac';

/** An OpenAI-compatible `/audio/speech` endpoint (OpenAI, Kokoro-FastAPI, LocalAI…). */
export interface SpeechRemoteConfig {
  /** e.g. `https://api.openai.com/v1`, `http://127.0.0.1:8880/v1` (Kokoro-FastAPI). */
  baseUrl: string;
  /** The speech model: `gpt-4o-mini-tts` on OpenAI; named by `SPEECH_MODEL` elsewhere. */
  model: string;
  apiKey: string | undefined;
  /** The voices to offer (`SPEECH_VOICES`); absent: the server's own list, else OpenAI's. */
  voices: string[] | undefined;
  /** The audio asked for; default `mp3`. */
  format: SpeechFormat;
  /** How long one synthesis may take, its whole audio included, in ms. */
  timeoutMs: number;
}

/** An OpenAI-compatible `/audio/transcriptions` endpoint (OpenAI, LocalAI, faster-whisper servers…). */
export interface TranscriptionConfig {
  provider: 'openai';
  /** e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  /** The transcription model; default `whisper-1`. */
  model: string;
  apiKey: string | undefined;
  /** How long one transcription may take, in ms. */
  timeoutMs: number;
}

/** Where each engine listens when `IMAGE_BASE_URL` is not given: its own default address. */
const IMAGE_DEFAULT_URLS: Record<ImageProvider, string> = {
  openai: 'https://api.openai.com/v1',
  automatic1111: 'http://127.0.0.1:7860',
  comfyui: 'http://127.0.0.1:8188',
};

/** A configuration value that cannot be used; the message names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function readImageConfig(
  values: z.output<typeof schema>,
  env: Record<string, string | undefined>,
): ImageConfig | null {
  if (!values.IMAGE_PROVIDER) {
    const stray = ['IMAGE_BASE_URL', 'IMAGE_MODEL', 'IMAGE_API_KEY'].find((name) => env[name]);
    if (stray)
      throw new ConfigError(
        `Invalid IMAGE_PROVIDER: ${stray} is set but IMAGE_PROVIDER is not; give openai, automatic1111 or comfyui, or unset ${stray} (got ${JSON.stringify(env.IMAGE_PROVIDER)})`,
      );
    return null;
  }
  const provider = values.IMAGE_PROVIDER;
  if (provider === 'openai' && !values.IMAGE_BASE_URL && !values.IMAGE_API_KEY)
    throw new ConfigError(
      'Invalid IMAGE_API_KEY: OpenAI needs a key; give IMAGE_API_KEY, or IMAGE_BASE_URL for another OpenAI-compatible server (got undefined)',
    );
  // Other OpenAI-compatible servers (LocalAI…) name their models freely: no guess fits them.
  if (provider === 'openai' && values.IMAGE_BASE_URL && !values.IMAGE_MODEL)
    throw new ConfigError(
      'Invalid IMAGE_MODEL: an OpenAI-compatible server other than OpenAI needs the name of its image model (got undefined)',
    );
  return {
    provider,
    baseUrl: (values.IMAGE_BASE_URL ?? IMAGE_DEFAULT_URLS[provider]).replace(/\/+$/, ''),
    model: values.IMAGE_MODEL ?? (provider === 'openai' ? 'gpt-image-1' : undefined),
    apiKey: values.IMAGE_API_KEY,
    cost: values.IMAGE_COST,
    timeoutMs: values.IMAGE_TIMEOUT * 1000,
    concurrency: values.IMAGE_CONCURRENCY ?? (provider === 'openai' ? 2 : 1),
  };
}

/** The local speech engine's model, when `SPEECH_PROVIDER` is `local`. */
function readLocalSpeechConfig(
  values: z.output<typeof schema>,
  dataDir: string,
): LocalSpeechConfig | null {
  if (values.SPEECH_PROVIDER !== 'local') return null;
  const model = values.SPEECH_MODEL ?? DEFAULT_LOCAL_SPEECH_MODEL;
  // A hub repository is `owner/name`; it also names the model's folder, so nothing else passes.
  if (!/^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/.test(model))
    throw new ConfigError(
      `Invalid SPEECH_MODEL: SPEECH_PROVIDER=local takes a Hugging Face repository such as ${DEFAULT_LOCAL_SPEECH_MODEL} (got ${JSON.stringify(model)})`,
    );
  return {
    model,
    hubUrl: values.SPEECH_HUB_URL.replace(/\/+$/, ''),
    voicesDir: path.join(dataDir, 'voices'),
  };
}

/** Where OpenAI's API is: the default base URL of the remote speech and transcription engines. */
const OPENAI_URL = 'https://api.openai.com/v1';

function readSpeechRemoteConfig(
  values: z.output<typeof schema>,
  env: Record<string, string | undefined>,
): SpeechRemoteConfig | null {
  // SPEECH_PROVIDER itself is checked with the other speech settings; only `openai` is ours.
  if (env.SPEECH_PROVIDER?.trim() !== 'openai') {
    const stray = ['SPEECH_BASE_URL', 'SPEECH_API_KEY'].find((name) => env[name]);
    if (stray)
      throw new ConfigError(
        `Invalid SPEECH_PROVIDER: ${stray} is set but SPEECH_PROVIDER is not openai; give SPEECH_PROVIDER=openai, or unset ${stray} (got ${JSON.stringify(env.SPEECH_PROVIDER)})`,
      );
    return null;
  }
  if (!values.SPEECH_BASE_URL && !values.SPEECH_API_KEY)
    throw new ConfigError(
      'Invalid SPEECH_API_KEY: OpenAI needs a key; give SPEECH_API_KEY, or SPEECH_BASE_URL for another OpenAI-compatible server (got undefined)',
    );
  // Kokoro-FastAPI, LocalAI… name their models freely: no guess fits them.
  if (values.SPEECH_BASE_URL && !values.SPEECH_MODEL)
    throw new ConfigError(
      'Invalid SPEECH_MODEL: an OpenAI-compatible server other than OpenAI needs the name of its speech model (got undefined)',
    );
  return {
    baseUrl: (values.SPEECH_BASE_URL ?? OPENAI_URL).replace(/\/+$/, ''),
    model: values.SPEECH_MODEL ?? 'gpt-4o-mini-tts',
    apiKey: values.SPEECH_API_KEY,
    voices: values.SPEECH_VOICES,
    format: values.SPEECH_FORMAT,
    timeoutMs: values.SPEECH_TIMEOUT * 1000,
  };
}

function readTranscriptionConfig(
  values: z.output<typeof schema>,
  env: Record<string, string | undefined>,
): TranscriptionConfig | null {
  if (!values.TRANSCRIBE_PROVIDER) {
    const stray = ['TRANSCRIBE_BASE_URL', 'TRANSCRIBE_MODEL', 'TRANSCRIBE_API_KEY'].find(
      (name) => env[name],
    );
    if (stray)
      throw new ConfigError(
        `Invalid TRANSCRIBE_PROVIDER: ${stray} is set but TRANSCRIBE_PROVIDER is not; give openai, or unset ${stray} (got ${JSON.stringify(env.TRANSCRIBE_PROVIDER)})`,
      );
    return null;
  }
  if (!values.TRANSCRIBE_BASE_URL && !values.TRANSCRIBE_API_KEY)
    throw new ConfigError(
      'Invalid TRANSCRIBE_API_KEY: OpenAI needs a key; give TRANSCRIBE_API_KEY, or TRANSCRIBE_BASE_URL for another OpenAI-compatible server (got undefined)',
    );
  return {
    provider: values.TRANSCRIBE_PROVIDER,
    baseUrl: (values.TRANSCRIBE_BASE_URL ?? OPENAI_URL).replace(/\/+$/, ''),
    model: values.TRANSCRIBE_MODEL ?? 'whisper-1',
    apiKey: values.TRANSCRIBE_API_KEY,
    timeoutMs: values.TRANSCRIBE_TIMEOUT * 1000,
  };
}

function readS3Config(
  values: z.output<typeof schema>,
  env: Record<string, string | undefined>,
): S3Config | null {
  if (!values.S3_BUCKET) {
    const stray = [
      'S3_ENDPOINT',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
      'S3_FORCE_PATH_STYLE',
      'S3_PREFIX',
    ].find((name) => env[name]);
    if (stray)
      throw new ConfigError(
        `Invalid S3_BUCKET: ${stray} is set but S3_BUCKET is not; name the bucket, or unset ${stray} (got undefined)`,
      );
    return null;
  }
  const { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = values;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey))
    throw new ConfigError(
      `Invalid ${accessKeyId ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'}: give both S3 keys, or neither to use the AWS SDK's own credentials (got undefined)`,
    );
  // Links signed by one server are opened on another: they must all sign alike.
  if (!values.LINK_SECRET)
    throw new ConfigError(
      'Invalid LINK_SECRET: with S3_BUCKET set, servers share their files, and a picture or voice link made by one must open on every other; give each server the same random string of at least 32 characters (got undefined)',
    );
  const prefix = values.S3_PREFIX?.replace(/\/+$/, '');
  return {
    bucket: values.S3_BUCKET,
    endpoint: values.S3_ENDPOINT?.replace(/\/+$/, ''),
    region: values.S3_REGION,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: values.S3_FORCE_PATH_STYLE,
    prefix: prefix ? `${prefix}/` : '',
  };
}

function readTrustProxy(value: string | undefined): TrustProxy {
  try {
    return compileTrustProxy(value);
  } catch (error) {
    throw new ConfigError(
      `Invalid TRUST_PROXY: ${(error as Error).message}; give a number of proxies, or addresses, CIDR ranges, loopback, linklocal or uniquelocal, separated by commas (got ${JSON.stringify(value)})`,
    );
  }
}

/** Reads and checks the configuration; throws a {@link ConfigError} naming the bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'configuration');
    throw new ConfigError(`Invalid ${name}: ${issue.message} (got ${JSON.stringify(env[name])})`);
  }
  const values = parsed.data;
  const dataDir = path.resolve(values.DATA_DIR);
  return {
    port: values.PORT,
    dataDir,
    mediaDir: path.join(dataDir, 'media'),
    s3: readS3Config(values, env),
    linkSecret: values.LINK_SECRET ?? null,
    databaseUrl: values.DATABASE_URL,
    migrate: values.MIGRATE ?? (values.DATABASE_URL ? 'new' : 'auto'),
    publicUrl: (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, ''),
    smtpUrl: values.SMTP_URL,
    mailOutboxDir: path.resolve(values.MAIL_OUTBOX_DIR ?? path.join(dataDir, 'outbox')),
    mailFrom: values.MAIL_FROM,
    google: { clientId: values.GOOGLE_CLIENT_ID, jwksUrl: values.GOOGLE_JWKS_URL },
    discord: {
      clientId: values.DISCORD_CLIENT_ID,
      clientSecret: values.DISCORD_CLIENT_SECRET,
      apiUrl: values.DISCORD_API_URL.replace(/\/+$/, ''),
      timeoutMs: values.DISCORD_TIMEOUT * 1000,
    },
    webDistDir: path.resolve(
      values.WEB_DIST_DIR ?? path.join(import.meta.dirname, '..', '..', 'web', 'dist'),
    ),
    llm: {
      provider: values.LLM_PROVIDER,
      model:
        values.LLM_MODEL ??
        (values.LLM_PROVIDER === 'openai' ? 'gpt-4o-mini' : DEFAULT_EMBEDDED_MODEL),
      baseUrl: values.LLM_BASE_URL?.replace(/\/+$/, ''),
      apiKey: values.LLM_API_KEY,
      // Never the library's default of 4: on a 2-core machine it is 1,000 times slower.
      threads: values.LLM_THREADS ?? Math.max(1, os.availableParallelism() - 1),
      contextSize: values.LLM_CONTEXT_SIZE,
      parallel: values.LLM_PARALLEL,
      queue: values.LLM_QUEUE,
      maxTokens: values.LLM_MAX_TOKENS,
      connectTimeoutMs: values.LLM_CONNECT_TIMEOUT * 1000,
      idleTimeoutMs: values.LLM_IDLE_TIMEOUT * 1000,
      modelsDir: path.resolve(values.LLM_MODELS_DIR ?? path.join(dataDir, 'models')),
      huggingFaceEndpoint: values.LLM_HF_ENDPOINT,
    },
    image: readImageConfig(values, env),
    speech:
      values.SPEECH_PROVIDER === 'none'
        ? null
        : {
            provider: values.SPEECH_PROVIDER,
            cost: values.SPEECH_COST,
            threads: values.SPEECH_THREADS,
            tempDir: path.join(dataDir, 'tmp', 'speech'),
            local: readLocalSpeechConfig(values, dataDir),
          },
    speechRemote: readSpeechRemoteConfig(values, env),
    transcription: readTranscriptionConfig(values, env),
    welcome: { chats: values.WELCOME_CHATS, goldCoins: values.WELCOME_GOLD_COINS },
    redis: values.REDIS_URL
      ? {
          url: values.REDIS_URL,
          prefix: values.REDIS_PREFIX,
          roomLockTtlMs: values.ROOM_LOCK_TTL * 1000,
        }
      : null,
    trustProxy: readTrustProxy(values.TRUST_PROXY),
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT * 1000,
    log: { level: values.LOG_LEVEL, format: values.LOG_FORMAT },
    metrics: readMetricsConfig(values),
    adminEmails: new Set(values.ADMIN_EMAILS ?? []),
    payments: readPaymentsConfig(values),
    packages: values.PACKAGES_FILE ? readPackagesFile(values.PACKAGES_FILE) : null,
  };
}

function readMetricsConfig(values: z.output<typeof schema>): MetricsConfig | null {
  if (values.METRICS_PATH === 'off') {
    if (values.METRICS_PORT !== undefined)
      throw new ConfigError(
        `Invalid METRICS_PORT: it is set but METRICS_PATH is off; unset one of them (got ${JSON.stringify(String(values.METRICS_PORT))})`,
      );
    return null;
  }
  if (values.METRICS_PORT && values.METRICS_PORT === values.PORT)
    throw new ConfigError(
      `Invalid METRICS_PORT: it is the server's own PORT; give another port, or unset it to answer ${values.METRICS_PATH} on PORT (got ${JSON.stringify(String(values.METRICS_PORT))})`,
    );
  return { path: values.METRICS_PATH, port: values.METRICS_PORT };
}

function readPaymentsConfig(values: z.output<typeof schema>): PaymentsConfig | null {
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret } = values;
  if (!secretKey && !webhookSecret) {
    if (values.STRIPE_API_URL)
      throw new ConfigError(
        `Invalid STRIPE_API_URL: it is set but STRIPE_SECRET_KEY is not; give both Stripe keys, or unset STRIPE_API_URL (got ${JSON.stringify(values.STRIPE_API_URL)})`,
      );
    return null;
  }
  if (!secretKey)
    throw new ConfigError(
      'Invalid STRIPE_SECRET_KEY: STRIPE_WEBHOOK_SECRET is set, and payments need both (got undefined)',
    );
  if (!webhookSecret)
    throw new ConfigError(
      'Invalid STRIPE_WEBHOOK_SECRET: without it no payment can be confirmed; give the signing secret of the webhook endpoint (got undefined)',
    );
  return { secretKey, webhookSecret, apiUrl: values.STRIPE_API_URL?.replace(/\/+$/, '') };
}

const packageSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'must be lowercase letters, digits, - or _'),
  name: z.string().min(1).max(80),
  description: z.string().max(400).default(''),
  price: z.object({
    amount: z.number().int().min(0).max(100_000_000),
    currency: z.string().regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 code such as USD'),
  }),
  period: z.enum(['once', 'month', 'year']),
  chats: z.number().int().min(0).max(100_000_000).default(0),
  goldCoins: z.number().int().min(0).max(100_000_000).default(0),
  features: z.array(z.string().min(1).max(200)).max(20).default([]),
});
const packagesSchema = z
  .array(packageSchema)
  .min(1, 'must list at least one package')
  .max(100)
  .refine((list) => new Set(list.map((entry) => entry.id)).size === list.length, {
    message: 'must not repeat a package id',
  });

/** Reads `PACKAGES_FILE`: a JSON array of packages (docs/payments.md shows one). */
function readPackagesFile(file: string): PackageConfig[] {
  let text: string;
  try {
    text = fs.readFileSync(path.resolve(file), 'utf8');
  } catch (error) {
    throw new ConfigError(
      `Invalid PACKAGES_FILE: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}) (got ${JSON.stringify(file)})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `Invalid PACKAGES_FILE: not JSON (${(error as Error).message}) (got ${JSON.stringify(file)})`,
    );
  }
  const parsed = packagesSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new ConfigError(
      `Invalid PACKAGES_FILE: ${issue.message}${where} (got ${JSON.stringify(file)})`,
    );
  }
  return parsed.data.map((entry) => ({
    ...entry,
    price: { amount: entry.price.amount, currency: entry.price.currency.toUpperCase() },
  }));
}
