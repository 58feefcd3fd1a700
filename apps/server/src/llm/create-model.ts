import type { Config } from '../config';
import { createEmbeddedModel } from './embedded';
import { createOpenAiModel } from './openai';
import type { LanguageModel } from './language-model';
import type { Logger } from '../logging/logger';

/** The language model the configuration asks for. */
export function createLanguageModel(config: Config['llm'], log: Logger): LanguageModel {
  if (config.provider === 'openai') {
    return createOpenAiModel({
      baseUrl: config.baseUrl ?? 'https://api.openai.com/v1',
      apiKey: config.apiKey,
      model: config.model,
      contextSize: config.contextSize,
      connectTimeoutMs: config.connectTimeoutMs,
      idleTimeoutMs: config.idleTimeoutMs,
      log,
    });
  }
  return createEmbeddedModel({
    model: config.model,
    modelsDir: config.modelsDir,
    huggingFaceEndpoint: config.huggingFaceEndpoint,
    threads: config.threads,
    contextSize: config.contextSize,
    parallel: config.parallel,
    queue: config.queue,
    log,
  });
}
