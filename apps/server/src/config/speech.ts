import path from 'node:path';
import { z } from 'zod';
import {
  ConfigError,
  httpUrl,
  OPENAI_URL,
  type Environment,
  type VariableValues,
} from './environment';

/**
 * The speech model of `SPEECH_PROVIDER=local` when SPEECH_MODEL is not set: Kokoro v0.19 packed
 * for sherpa-onnx (11 English voices, 24 kHz; about 330 MB with its espeak-ng data).
 */
export const DEFAULT_LOCAL_SPEECH_MODEL = 'csukuangfj/kokoro-en-v0_19';

/** The text-to-speech variables: the embedded, local or OpenAI-compatible engine. */
export const speechVariables = {
  SPEECH_PROVIDER: z.enum(['embedded', 'local', 'openai', 'none']).default('embedded'),
  /** A voice call with nothing said for this long ends (`idle`); fractions for tests. */
  CALL_IDLE_MINUTES: z.coerce
    .number()
    .min(0.01)
    .max(24 * 60)
    .default(5),
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
};

type SpeechValues = VariableValues<typeof speechVariables>;

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

/** The part of the configuration the text-to-speech variables give. */
export interface SpeechSettings {
  /** The speech engine (`SPEECH_PROVIDER`), or `null` when it is `none`. */
  speech: SpeechConfig | null;
  /**
   * The OpenAI-compatible speech endpoint's settings (`SPEECH_BASE_URL`…), or `null` unless
   * `SPEECH_PROVIDER` is `openai`.
   */
  speechRemote: SpeechRemoteConfig | null;
  /** How long a voice call waits for the person to speak before it ends (`CALL_IDLE_MINUTES`), ms. */
  callIdleMs: number;
}

/**
 * Reads the speech engine, then the remote endpoint's settings; the local model is checked
 * first. `env` names a variable of the remote engine set for another engine.
 */
export function readSpeechSettings(
  values: SpeechValues,
  env: Environment,
  dataDir: string,
): SpeechSettings {
  return {
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
    callIdleMs: values.CALL_IDLE_MINUTES * 60_000,
  };
}

/** The local speech engine's model, when `SPEECH_PROVIDER` is `local`. */
function readLocalSpeechConfig(values: SpeechValues, dataDir: string): LocalSpeechConfig | null {
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

function readSpeechRemoteConfig(values: SpeechValues, env: Environment): SpeechRemoteConfig | null {
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
