import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { GENDERS, REGENERABLE_FIELDS, type InspirationKind } from '@mates/api-client';
import { languageTag } from '../accounts/account-routes';
import { consume } from '../accounts/rate-limits';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { draftPayload } from './role-draft';
import { getInspiration } from './inspiration-service';
import { generateRole } from './role-draft-service';

const inspirationPayload = z.object({
  roomId: z.string().min(1).max(100),
  kind: z.enum(['reply', 'picture'] as const satisfies InspirationKind[]).optional(),
});

const rolePayload = z.object({
  idea: z.string().trim().min(1, 'is required').max(1000),
  gender: z.enum(GENDERS).optional(),
  tags: z.array(z.string().min(1).max(40)).max(10).optional(),
  nsfw: z.boolean().optional(),
  language: languageTag.optional(),
  field: z.enum(REGENERABLE_FIELDS).optional(),
  draft: draftPayload.optional(),
});

/** The caller, counted against their limit of writing help (before their input is read). */
async function countedCaller(deps: Deps, c: Context<ApiEnv>) {
  const user = requireUser(c);
  await consume(deps.limits.generation, user.id);
  return { user, signal: c.req.raw.signal, log: c.get('log') };
}

/** `/girl/chat/getInspiration` and `/mate/generateRole`: the model helping the user write. */
export function generationRoutes(deps: Deps) {
  const girl = new Hono<ApiEnv>();
  const mate = new Hono<ApiEnv>();

  contract(girl, '/girl').post('/girl/chat/getInspiration', inspirationPayload, async (c, read) => {
    const caller = await countedCaller(deps, c);
    const { roomId, kind = 'reply' } = await read();
    const ask = { ...caller, roomId, kind, language: c.get('language') };
    return { suggestions: await getInspiration(deps, ask) };
  });

  contract(mate, '/mate').post('/mate/generateRole', rolePayload, async (c, read) => {
    const caller = await countedCaller(deps, c);
    const input = await read();
    return generateRole(deps, { ...caller, ...input, callerLanguage: c.get('language') });
  });
  return { girl, mate };
}
