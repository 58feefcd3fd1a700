import { Hono } from 'hono';
import type { AigcModel } from '@mates/api-client';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { notice } from '../http/envelope';
import { isProviderError } from '../domain/provider-error';
import type { ImageModel } from './image-engine';
import {
  IMAGE_SIZES,
  createImageSchema,
  jobStatusSchema,
  roomPicturesSchema,
  sharePictureSchema,
} from './image-schemas';
import { en } from '../i18n/en';

/** What every picture call answers (5007) when `IMAGE_PROVIDER` is not set. */
export const PICTURES_NOT_SET_UP = 'Pictures are not set up on this server.';

/** How long a listed set of models is reused before the engine is asked again. */
const MODELS_FRESH_MS = 60_000;

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
 * `GET /aigc/models`: the picture models (the engine's list where it can list them, else
 * `IMAGE_MODEL`) with their cost and sizes, then the chat model. With no picture engine it
 * answers 5007 {@link PICTURES_NOT_SET_UP}, and so do `/room/createImage`,
 * `/room/checkJobStatus`, `/room/cancelImage`, `/room/pictures` and `/room/sharePicture`
 * (registered here only then; `picture-routes.ts` serves them otherwise).
 */
export function imageModelRoutes(deps: Deps): { aigc: Hono<ApiEnv>; room: Hono<ApiEnv> } {
  const aigc = new Hono<ApiEnv>();
  const room = new Hono<ApiEnv>();
  const engine = deps.images;
  const image = deps.config.image;
  let cached: { at: number; models: ImageModel[] } | null = null;

  const imageModels = async (): Promise<ImageModel[]> => {
    if (!engine || !image) throw notice(PICTURES_NOT_SET_UP);
    if (cached && Date.now() - cached.at < MODELS_FRESH_MS) return cached.models;
    try {
      const models = await engine.listModels();
      cached = { at: Date.now(), models };
      return models;
    } catch (error) {
      if (!isProviderError(error, 'image')) throw error;
      deps.log.warn(`image models: ${error.message}`);
      // The configured model still works when the engine is back; without one, say so.
      if (image.model) return [{ id: image.model, name: image.model }];
      throw notice(en.notices.pictures.engineDown);
    }
  };

  contract(aigc, '/aigc').get('/aigc/models', async (): Promise<AigcModel[]> => {
    const listed = await imageModels();
    const defaultId = image?.model ?? listed[0]?.id;
    const pictures = listed.map((model): AigcModel => ({
      modelId: model.id,
      name: model.name,
      kind: 'image',
      cost: image!.cost,
      isDefault: model.id === defaultId,
      engine: image!.provider,
      sizes: [...IMAGE_SIZES],
    }));
    const { llm } = deps.config;
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
  });

  if (!engine) {
    const calls = contract(room, '/room');
    calls.post('/room/createImage', createImageSchema, (c) => {
      requireUser(c);
      throw notice(PICTURES_NOT_SET_UP);
    });
    calls.get('/room/checkJobStatus', jobStatusSchema, (c) => {
      requireUser(c);
      throw notice(PICTURES_NOT_SET_UP);
    });
    calls.post('/room/cancelImage', jobStatusSchema, (c) => {
      requireUser(c);
      throw notice(PICTURES_NOT_SET_UP);
    });
    calls.get('/room/pictures', roomPicturesSchema, (c) => {
      requireUser(c);
      throw notice(PICTURES_NOT_SET_UP);
    });
    calls.post('/room/sharePicture', sharePictureSchema, (c) => {
      requireUser(c);
      throw notice(PICTURES_NOT_SET_UP);
    });
  }
  return { aigc, room };
}
