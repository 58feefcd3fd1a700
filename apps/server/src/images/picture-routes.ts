import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import {
  createImageSchema,
  jobStatusSchema,
  roomPicturesSchema,
  sharePictureSchema,
} from './image-schemas';
import { isShareId } from './picture-links';
import { picturesOf } from './picture-messages';
import { definePictureJob } from './picture-job-service';
import {
  cancelOwnPicture,
  createPicture,
  pictureStatus,
  roomPictures,
  sharePicture,
  sharedPictureFile,
  signedPictureFile,
  type PictureDeps,
} from './picture-service';

const cancelSchema = z.object({ jobId: z.string().min(1).max(64) });
const sharedQuery = z.object({ id: z.string().refine(isShareId) });
const pictureQuery = z.object({
  messageId: z.string().min(1).max(100),
  expires: z.string().min(1).max(20),
  signature: z.string().min(1).max(100),
});

/**
 * Picture messages (#15): `POST /room/createImage`, `GET /room/checkJobStatus`,
 * `POST /room/cancelImage`, a room's finished pictures (`GET /room/pictures`) and sharing one
 * (`POST /room/sharePicture`), only with a picture engine (`model-routes.ts` answers 5007
 * otherwise); `GET /room/picture`, which serves a picture to whoever holds a link signed for
 * its room's owner; and `GET /room/sharedPicture`, which serves a shared picture to anyone
 * holding its random id (a deleted or unshared picture's id finds nothing). The rules are in
 * `picture-service.ts`; the job that draws pictures (its run, retry and refunds) in
 * `picture-job-service.ts`.
 */
export function pictureRoutes(deps: Deps): Hono<ApiEnv> {
  const { db, config } = deps;
  const routes = new Hono<ApiEnv>();
  const { store, links } = picturesOf(config);

  // Not through `contract`: it answers bytes, not an envelope, to an <img> that sends no token.
  routes.get('/picture', async (c) => {
    const parsed = pictureQuery.safeParse(c.req.query());
    if (!parsed.success) return c.text('Not found', 404);
    const file = await signedPictureFile({ db, links }, parsed.data);
    if (file === 'forbidden') return c.text('Forbidden', 403);
    if (!file) return c.text('Not found', 404);
    return store.serve(file, c.req.raw, {
      contentType: 'image/webp',
      cacheControl: 'private, max-age=3600',
    });
  });

  // Public: the id is the secret (144 random bits), held only while the owner shares it.
  routes.get('/sharedPicture', async (c) => {
    const parsed = sharedQuery.safeParse(c.req.query());
    if (!parsed.success) return c.text('Not found', 404);
    // Not while moderators hide its mate, nor once the mate is deleted.
    const file = await sharedPictureFile({ db, links }, parsed.data.id);
    if (!file) return c.text('Not found', 404);
    return store.serve(file, c.req.raw, {
      contentType: 'image/webp',
      // Short: an unshared picture stops being served by caches within minutes.
      cacheControl: 'public, max-age=300',
      headers: { 'x-content-type-options': 'nosniff' },
    });
  });

  const engine = deps.images;
  const image = config.image;
  if (!engine || !image) return routes;

  definePictureJob({ db, jobs: deps.jobs, log: deps.log, engine, image, store });

  const base = { db, links, engine, image, jobs: deps.jobs, limits: deps.limits };
  /** The services' dependencies, with the request's own logger and language. */
  const depsOf = (c: Context<ApiEnv>): PictureDeps => ({
    ...base,
    log: c.get('log'),
    language: c.get('language'),
  });
  const api = contract(routes, '/room');

  api.post('/room/createImage', createImageSchema, async (c, read) =>
    createPicture(depsOf(c), requireUser(c), await read()),
  );

  api.get('/room/checkJobStatus', jobStatusSchema, async (c, read) =>
    pictureStatus(depsOf(c), requireUser(c).id, (await read()).jobId),
  );

  api.post('/room/cancelImage', cancelSchema, async (c, read) =>
    cancelOwnPicture(depsOf(c), requireUser(c).id, (await read()).jobId),
  );

  api.get('/room/pictures', roomPicturesSchema, async (c, read) =>
    roomPictures(depsOf(c), requireUser(c).id, await read()),
  );

  api.post('/room/sharePicture', sharePictureSchema, async (c, read) =>
    sharePicture(depsOf(c), requireUser(c).id, await read()),
  );

  return routes;
}
