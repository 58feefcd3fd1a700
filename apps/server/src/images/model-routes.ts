import { Hono, type Context } from 'hono';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { refused } from '../domain/errors';
import { aigcModels, type ModelListCache } from './image-model-service';
import {
  createImageSchema,
  jobStatusSchema,
  roomPicturesSchema,
  sharePictureSchema,
} from './image-schemas';

/** What a picture call answers without a picture engine: 5007, after the session check. */
function notSetUp(c: Context<ApiEnv>): never {
  requireUser(c);
  throw refused('notices.pictures.notSetUp');
}

/**
 * `GET /aigc/models`: the picture models (the engine's list where it can list them, else
 * `IMAGE_MODEL`) with their cost and sizes, then the chat model. With no picture engine it
 * answers 5007 (pictures are not set up), and so do `/room/createImage`,
 * `/room/checkJobStatus`, `/room/cancelImage`, `/room/pictures` and `/room/sharePicture`
 * (registered here only then; `picture-routes.ts` serves them otherwise).
 */
export function imageModelRoutes(deps: Deps): { aigc: Hono<ApiEnv>; room: Hono<ApiEnv> } {
  const aigc = new Hono<ApiEnv>();
  const room = new Hono<ApiEnv>();
  const cache: ModelListCache = { listed: null };
  const models = {
    engine: deps.images,
    image: deps.config.image,
    llm: deps.config.llm,
    log: deps.log,
    cache,
  };

  contract(aigc, '/aigc').get('/aigc/models', () => aigcModels(models));

  if (!deps.images) {
    const calls = contract(room, '/room');
    calls.post('/room/createImage', createImageSchema, notSetUp);
    calls.get('/room/checkJobStatus', jobStatusSchema, notSetUp);
    calls.post('/room/cancelImage', jobStatusSchema, notSetUp);
    calls.get('/room/pictures', roomPicturesSchema, notSetUp);
    calls.post('/room/sharePicture', sharePictureSchema, notSetUp);
  }
  return { aigc, room };
}
