import type { AigcModel } from '@mates/api-client';
import type { Config, ImageConfig } from '../config';
import type { Logger } from '../logging/logger';
import { refused } from '../domain/errors';
import { isProviderError } from '../domain/provider-error';
import type { ImageEngine, ImageModel } from './image-engine';
import { IMAGE_SIZES } from './image-schemas';

/** How long a listed set of models is reused before the engine is asked again. */
const MODELS_FRESH_MS = 60_000;

/** The engine's last list of models and when it was made (a cache that says so: one per app). */
export interface ModelListCache {
  listed: { at: number; models: ImageModel[] } | null;
}

/** What the model list needs. */
export interface ImageModelDeps {
  /** The picture engine, or `null` when pictures are not set up. */
  engine: ImageEngine | null;
  image: ImageConfig | null;
  llm: Config['llm'];
  log: Logger;
  cache: ModelListCache;
}

/** The chat model's display name: the file or repository part of its name. */
function chatModelName(model: string): string {
  return (
    model
      .replace(/^hf:/, '')
      .split(/[/\\]/)
      .pop()!
      .replace(/\.gguf$/i, '') || model
  );
}

/**
 * The picture models: the engine's list (reused for a minute), else `IMAGE_MODEL` while the
 * engine does not answer. Refuses (5007) without a picture engine, or when neither is there.
 */
async function imageModels({ engine, image, log, cache }: ImageModelDeps): Promise<ImageModel[]> {
  if (!engine || !image) throw refused('notices.pictures.notSetUp');
  if (cache.listed && Date.now() - cache.listed.at < MODELS_FRESH_MS) return cache.listed.models;
  try {
    const models = await engine.listModels();
    cache.listed = { at: Date.now(), models };
    return models;
  } catch (error) {
    if (!isProviderError(error, 'image')) throw error;
    log.warn(`image models: ${error.message}`);
    // The configured model still works when the engine is back; without one, say so.
    if (image.model) return [{ id: image.model, name: image.model }];
    throw refused('notices.pictures.engineDown');
  }
}

/**
 * `GET /aigc/models`: the picture models with their cost and sizes (the default one marked),
 * then the chat model.
 */
export async function aigcModels(deps: ImageModelDeps): Promise<AigcModel[]> {
  const listed = await imageModels(deps);
  const image = deps.image!;
  const defaultId = image.model ?? listed[0]?.id;
  const pictures = listed.map((model): AigcModel => ({
    modelId: model.id,
    name: model.name,
    kind: 'image',
    cost: image.cost,
    isDefault: model.id === defaultId,
    engine: image.provider,
    sizes: [...IMAGE_SIZES],
  }));
  const { llm } = deps;
  return [
    ...pictures,
    {
      modelId: llm.model,
      name: chatModelName(llm.model),
      kind: 'chat',
      cost: 0,
      isDefault: true,
      engine: llm.provider,
    },
  ];
}
