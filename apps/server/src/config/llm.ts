import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { VariableValues } from './environment';

/**
 * The embedded model used when LLM_MODEL is not set: Qwen2.5 1.5B Instruct, Q4_K_M
 * (about 1.1 GB), small enough for a laptop's CPU and able to answer in many languages.
 */
export const DEFAULT_EMBEDDED_MODEL = 'hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M';

/** The language model's variables: the embedded engine, or an OpenAI-compatible service. */
export const llmVariables = {
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
};

/** The language model that writes the replies (`LLM_*`). */
export interface LlmConfig {
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
}

/** The part of the configuration the language model's variables give. */
export interface LlmSettings {
  llm: LlmConfig;
}

/** Reads the language model's settings; its models are kept in `$DATA_DIR/models` by default. */
export function readLlmSettings(
  values: VariableValues<typeof llmVariables>,
  dataDir: string,
): LlmSettings {
  return {
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
  };
}
