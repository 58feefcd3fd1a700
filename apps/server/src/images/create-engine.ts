import type { Config } from '../config';
import { createAutomatic1111Engine } from './automatic1111';
import { createComfyUiEngine } from './comfyui';
import type { ImageEngine } from './image-engine';
import { createOpenAiImageEngine } from './openai-images';
import type { Logger } from '../logging/logger';

/** The picture engine `IMAGE_PROVIDER` names, or `null` when pictures are not set up. */
export function createImageEngine(
  config: Config['image'],
  fetch: typeof globalThis.fetch,
  log: Logger,
  /** For tests: how often A1111 is asked for progress. */
  tuning: { pollIntervalMs?: number } = {},
): ImageEngine | null {
  if (!config) return null;
  const options = { config, fetch, log, ...tuning };
  switch (config.provider) {
    case 'openai':
      return createOpenAiImageEngine(options);
    case 'automatic1111':
      return createAutomatic1111Engine(options);
    case 'comfyui':
      return createComfyUiEngine(options);
  }
}
