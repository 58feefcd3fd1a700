import { Hono } from 'hono';
import { z } from 'zod';
import type { Persona } from '@mates/api-client';
import type { PersonaTable } from '../db/schema';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { toBool } from '../db/dialect';
import { deletePersona, listPersonas, makeDefaultPersona, savePersona } from './persona-service';
import { portraitKey } from '../catalog/portrait-files';
import { publicHttpsAddress } from './avatar-address';
import { en } from '../i18n/en';

/** The API shape of a persona row. */
export function toPersona(row: PersonaTable): Persona {
  return {
    uuid: row.id,
    name: row.name,
    description: row.description,
    avatar: row.avatar,
    isDefault: toBool(row.is_default),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * What is stored for `url` as a persona's avatar, which every viewer's browser loads, or `null`
 * when it may not be one: a picture uploaded here (`/media/avatars/…`, also under `publicUrl`),
 * kept as given, or a public `https:` address, normalised ({@link publicHttpsAddress}). Never
 * `javascript:`, `file:`, `data:`, a plain `http:` address, credentials or a host inside
 * someone's network.
 */
export function personaAvatar(url: string, publicUrl: string): string | null {
  const path = url.startsWith(`${publicUrl}/`) ? url.slice(publicUrl.length) : url;
  if (portraitKey(path) !== null) return url;
  return publicHttpsAddress(url);
}

/** Personas: list, save or update, set default, delete. Only ever the caller's own. */
export function personaRoutes(deps: Deps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/user');

  api.get('/user/personas', async (c) =>
    (await listPersonas(deps, requireUser(c).id)).map(toPersona),
  );

  const personaPayload = z.object({
    uuid: z.string().min(1).optional(),
    name: z.string().trim().min(1, 'is required').max(50),
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
