import path from 'node:path';
import { z } from 'zod';
import {
  ConfigError,
  httpUrl,
  OPENAI_URL,
  type Environment,
  type VariableValues,
} from './environment';

/** The speech-to-text variables; none of them is needed while it is not set up. */
export const transcriptionVariables = {
  TRANSCRIBE_PROVIDER: z.enum(['embedded', 'openai', 'local', 'none']).default('embedded'),
  TRANSCRIBE_BASE_URL: httpUrl(),
  TRANSCRIBE_HUB_URL: httpUrl().default('https://huggingface.co'),
  TRANSCRIBE_THREADS: z.coerce.number().int().min(1).max(64).default(2),
  TRANSCRIBE_MODEL: z.string().min(1).optional(),
  TRANSCRIBE_API_KEY: z.string().min(1).optional(),
  TRANSCRIBE_TIMEOUT: z.coerce.number().min(0.1).max(3600).default(60),
};

/**
 * The model of `TRANSCRIBE_PROVIDER=local` when `TRANSCRIBE_MODEL` is not set: Whisper tiny.en
 * exported for sherpa-onnx (English; its int8 encoder and decoder are what is downloaded).
 */
export const DEFAULT_LOCAL_TRANSCRIPTION_MODEL = 'csukuangfj/sherpa-onnx-whisper-tiny.en';

/**
 * Speech to text: the embedded Moonshine model (the default), an OpenAI-compatible endpoint, or
 * a Whisper model run here.
 */
export type TranscriptionConfig =
  EmbeddedTranscriptionConfig | RemoteTranscriptionConfig | LocalTranscriptionConfig;

/**
 * The embedded engine (`TRANSCRIBE_PROVIDER=embedded`, the default): Moonshine tiny, whose files
 * come with the server's packages, run by ONNX Runtime; nothing to download or set.
 */
export interface EmbeddedTranscriptionConfig {
  provider: 'embedded';
  /** ONNX Runtime threads of one transcription (`TRANSCRIBE_THREADS`). */
  threads: number;
  /** How long one transcription may take, in ms. */
  timeoutMs: number;
}

/**
 * A Whisper model run in the server by sherpa-onnx (`TRANSCRIBE_PROVIDER=local`), downloaded
 * once from the hub (`TRANSCRIBE_HUB_URL`) into `$DATA_DIR/voices`, as the local speech model is.
 */
export interface LocalTranscriptionConfig {
  provider: 'local';
  /** A sherpa-onnx Whisper repository on the hub (`TRANSCRIBE_MODEL`). */
  model: string;
  hubUrl: string;
  /** `$DATA_DIR/voices`: each model in its own folder. */
  modelsDir: string;
  /** ONNX Runtime threads of one transcription (`TRANSCRIBE_THREADS`). */
  threads: number;
  /** How long one transcription may take, in ms. */
  timeoutMs: number;
}

/** An OpenAI-compatible `/audio/transcriptions` endpoint (OpenAI, LocalAI, faster-whisper servers…). */
export interface RemoteTranscriptionConfig {
  provider: 'openai';
  /** e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  /** The transcription model; default `whisper-1`. */
  model: string;
  apiKey: string | undefined;
  /** How long one transcription may take, in ms. */
  timeoutMs: number;
}

/** The part of the configuration the speech-to-text variables give. */
export interface TranscriptionSettings {
  /** Speech to text (`TRANSCRIBE_PROVIDER`), or `null` when it is turned off (`none`). */
  transcription: TranscriptionConfig | null;
}

/** Reads speech to text; `env` names a variable set without `TRANSCRIBE_PROVIDER`. */
export function readTranscriptionSettings(
  values: VariableValues<typeof transcriptionVariables>,
  env: Environment,
  dataDir: string,
): TranscriptionSettings {
  return { transcription: readTranscriptionConfig(values, env, dataDir) };
}

function readTranscriptionConfig(
  values: VariableValues<typeof transcriptionVariables>,
  env: Environment,
  dataDir: string,
): TranscriptionConfig | null {
  if (values.TRANSCRIBE_PROVIDER === 'embedded' || values.TRANSCRIBE_PROVIDER === 'none') {
    const stray = ['TRANSCRIBE_BASE_URL', 'TRANSCRIBE_MODEL', 'TRANSCRIBE_API_KEY'].find(
      (name) => env[name],
    );
    if (stray)
      throw new ConfigError(
        `Invalid TRANSCRIBE_PROVIDER: ${stray} is set but TRANSCRIBE_PROVIDER is ${env.TRANSCRIBE_PROVIDER ? values.TRANSCRIBE_PROVIDER : 'not'}; give openai or local, or unset ${stray} (got ${JSON.stringify(env.TRANSCRIBE_PROVIDER)})`,
      );
    if (values.TRANSCRIBE_PROVIDER === 'none') return null;
    return {
      provider: 'embedded',
      threads: values.TRANSCRIBE_THREADS,
      timeoutMs: values.TRANSCRIBE_TIMEOUT * 1000,
    };
  }
  if (values.TRANSCRIBE_PROVIDER === 'local') {
    const stray = ['TRANSCRIBE_BASE_URL', 'TRANSCRIBE_API_KEY'].find((name) => env[name]);
    if (stray)
      throw new ConfigError(
        `Invalid TRANSCRIBE_PROVIDER: ${stray} is set but TRANSCRIBE_PROVIDER is local; give openai, or unset ${stray} (got "local")`,
      );
    const model = values.TRANSCRIBE_MODEL ?? DEFAULT_LOCAL_TRANSCRIPTION_MODEL;
    // A hub repository is `owner/name`; it also names the model's folder, so nothing else passes.
    if (!/^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/.test(model))
      throw new ConfigError(
        `Invalid TRANSCRIBE_MODEL: TRANSCRIBE_PROVIDER=local takes a Hugging Face repository such as ${DEFAULT_LOCAL_TRANSCRIPTION_MODEL} (got ${JSON.stringify(model)})`,
      );
    return {
      provider: 'local',
      model,
      hubUrl: values.TRANSCRIBE_HUB_URL.replace(/\/+$/, ''),
      modelsDir: path.join(dataDir, 'voices'),
      threads: values.TRANSCRIBE_THREADS,
      timeoutMs: values.TRANSCRIBE_TIMEOUT * 1000,
    };
  }
  if (!values.TRANSCRIBE_BASE_URL && !values.TRANSCRIBE_API_KEY)
    throw new ConfigError(
      'Invalid TRANSCRIBE_API_KEY: OpenAI needs a key; give TRANSCRIBE_API_KEY, or TRANSCRIBE_BASE_URL for another OpenAI-compatible server (got undefined)',
    );
  return {
    provider: 'openai',
    baseUrl: (values.TRANSCRIBE_BASE_URL ?? OPENAI_URL).replace(/\/+$/, ''),
    model: values.TRANSCRIBE_MODEL ?? 'whisper-1',
    apiKey: values.TRANSCRIBE_API_KEY,
    timeoutMs: values.TRANSCRIBE_TIMEOUT * 1000,
  };
}
