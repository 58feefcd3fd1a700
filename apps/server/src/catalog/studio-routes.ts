import { Hono } from 'hono';
import { z } from 'zod';
import { MATE_VISIBILITIES, type SetPortraitPayload } from '@mates/api-client';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { consume } from '../accounts/rate-limits';
import type { StudioDeps } from './catalog-deps';
import { MAX_PORTRAIT_BYTES } from './portrait-upload';
import { id, pageFields } from './query-schemas';
import {
  deleteMate,
  duplicateMate,
  myMates,
  portraitChoices,
  setPortrait,
  setVisibility,
} from './studio-service';

// Base64 of an 8 MB picture is 4/3 as long; a data URL's prefix is allowed and dropped.
const MAX_IMAGE_BASE64 = Math.ceil((MAX_PORTRAIT_BYTES * 4) / 3) + 100;
const portraitPayload = z
  .object({
    mateId: id,
    image: z.string().max(MAX_IMAGE_BASE64, 'must be at most 8 MB').optional(),
    choiceId: z.string().min(1).max(200).optional(),
  })
  .transform(({ mateId, image, choiceId }, ctx): SetPortraitPayload => {
    if (image !== undefined && choiceId === undefined) return { mateId, image };
    if (choiceId !== undefined && image === undefined) return { mateId, choiceId };
    ctx.addIssue({
      code: 'custom',
      message: 'Send either "image" (base64) or "choiceId" (from /mate/portraitChoices), not both.',
    });
    return z.NEVER;
  });
const myMatesQuery = z.object({ visibility: z.enum(MATE_VISIBILITIES).optional(), ...pageFields });
const visibilityPayload = z.object({ mateId: id, visibility: z.enum(MATE_VISIBILITIES) });
const mateQuery = z.object({ mateId: id });
const choicesQuery = z.object({ seed: z.string().trim().min(1, 'is required').max(100) });

/**
 * The creation studio's calls on the caller's own mates: `/mate/myMates`, `setVisibility`,
 * `duplicateMate`, `deleteMate`, `portraitChoices` and `setPortrait`. Every call on a mate
 * answers 4004 for a mate that is not the caller's or is deleted, and changes nothing.
 */
export function studioRoutes(deps: Deps, studio: StudioDeps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/mate');

  api.get('/mate/myMates', myMatesQuery, async (c, read) => {
    const user = requireUser(c);
    return myMates(studio, user, await read());
  });
  api.post('/mate/setVisibility', visibilityPayload, async (c, read) => {
    const user = requireUser(c);
    return setVisibility(studio, user, await read());
  });
  api.post('/mate/duplicateMate', mateQuery, async (c, read) => {
    const user = requireUser(c);
    await consume(deps.limits.duplicateMate, user.id);
    return duplicateMate(studio, user, (await read()).mateId);
  });
  api.post('/mate/deleteMate', mateQuery, async (c, read) => {
    const user = requireUser(c);
    return deleteMate(studio, user, (await read()).mateId);
  });
  api.get('/mate/portraitChoices', choicesQuery, async (_c, read) =>
    portraitChoices((await read()).seed),
  );
  api.post('/mate/setPortrait', portraitPayload, async (c, read) => {
    const user = requireUser(c);
    await consume(deps.limits.setPortrait, user.id);
    return setPortrait(studio, user, await read());
  });
  return routes;
}
