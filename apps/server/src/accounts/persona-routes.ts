import { Hono } from 'hono';
import { z } from 'zod';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import {
  deletePersona,
  listPersonas,
  makeDefaultPersona,
  personaAvatar,
  savePersona,
  toPersona,
  type GreetingsOf,
} from './persona-service';
import { en } from '../i18n/en';
import { hidesInMateName } from './nicknames';

/** Personas: list, save or update, set default, delete. Only ever the caller's own. */
export function personaRoutes(deps: Deps & { greetings?: GreetingsOf }): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/user');

  api.get('/user/personas', async (c) =>
    (await listPersonas(deps, requireUser(c).id)).map(toPersona),
  );

  const personaPayload = z.object({
    uuid: z.string().min(1).optional(),
    // A persona's name is the person's side in the prompt: no line of its own, nothing hidden
    // (as a mate's name; an emoji joined with U+200D is a name).
    name: z
      .string()
      .trim()
      .min(1, 'is required')
      .max(50)
      .refine((name) => !hidesInMateName(name), {
        message: 'must not hold control or invisible characters',
      }),
    description: z.string().max(2000).default(''),
    avatar: z
      .string()
      .max(2000)
      .refine((url) => personaAvatar(url, deps.config.publicUrl) !== null, en.fieldErrors.picture)
      .transform((url) => personaAvatar(url, deps.config.publicUrl)!)
      .nullable()
      .optional(),
  });
  const personaQuery = z.object({ uuid: z.string().min(1) });

  api.post('/user/saveOrUpdatePersona', personaPayload, async (c, read) => {
    const user = requireUser(c);
    const { uuid, avatar, ...fields } = await read();
    return toPersona(await savePersona(deps, user.id, uuid, { ...fields, avatar: avatar ?? null }));
  });

  api.get('/user/setDefaultPersona', personaQuery, async (c, read) => {
    const user = requireUser(c);
    return toPersona(await makeDefaultPersona(deps, user.id, (await read()).uuid));
  });

  api.get('/user/deleteDefaultPersona', personaQuery, async (c, read) => {
    const user = requireUser(c);
    await deletePersona(deps, user.id, (await read()).uuid);
    return null;
  });
  return routes;
}
