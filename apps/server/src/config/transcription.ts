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
  TRANSCRIBE_PROVIDER: z.enum(['openai']).optional(),
  TRANSCRIBE_BASE_URL: httpUrl(),
  TRANSCRIBE_MODEL: z.string().min(1).optional(),
  TRANSCRIBE_API_KEY: z.string().min(1).optional(),
  TRANSCRIBE_TIMEOUT: z.coerce.number().min(0.1).max(3600).default(60),
};

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

/** The part of the configuration the speech-to-text variables give. */
export interface TranscriptionSettings {
  /** Speech to text (`TRANSCRIBE_PROVIDER`), or `null` when it is not set up. */
  transcription: TranscriptionConfig | null;
}

/** Reads speech to text; `env` names a variable set without `TRANSCRIBE_PROVIDER`. */
export function readTranscriptionSettings(
  values: VariableValues<typeof transcriptionVariables>,
  env: Environment,
): TranscriptionSettings {
  return { transcription: readTranscriptionConfig(values, env) };
}

function readTranscriptionConfig(
  values: VariableValues<typeof transcriptionVariables>,
  env: Environment,
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
