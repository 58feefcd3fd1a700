import { z } from 'zod';
import { ConfigError, type Environment, type VariableValues } from './environment';

/** The picture engine's variables; none of them is needed while pictures are not set up. */
export const imageVariables = {
  IMAGE_PROVIDER: z.enum(['openai', 'automatic1111', 'comfyui']).optional(),
  IMAGE_BASE_URL: z.url().optional(),
  IMAGE_MODEL: z.string().min(1).optional(),
  IMAGE_API_KEY: z.string().min(1).optional(),
  IMAGE_COST: z.coerce.number().int().min(0).max(1_000_000).default(5),
  IMAGE_TIMEOUT: z.coerce.number().min(0.1).max(3600).default(300),
  IMAGE_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
};

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

/** The part of the configuration the picture engine's variables give. */
export interface ImageSettings {
  /** The picture engine (`IMAGE_PROVIDER`), or `null` when pictures are not set up. */
  image: ImageConfig | null;
}

/** Where each engine listens when `IMAGE_BASE_URL` is not given: its own default address. */
const IMAGE_DEFAULT_URLS: Record<ImageProvider, string> = {
  openai: 'https://api.openai.com/v1',
  automatic1111: 'http://127.0.0.1:7860',
  comfyui: 'http://127.0.0.1:8188',
};

/** Reads the picture engine; `env` names a variable set without `IMAGE_PROVIDER`. */
export function readImageSettings(
  values: VariableValues<typeof imageVariables>,
  env: Environment,
): ImageSettings {
  return { image: readImageConfig(values, env) };
}

function readImageConfig(
  values: VariableValues<typeof imageVariables>,
  env: Environment,
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
