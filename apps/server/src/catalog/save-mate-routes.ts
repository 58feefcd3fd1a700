import { Hono } from 'hono';
import { z } from 'zod';
import {
  ALTERNATE_GREETINGS_LIMIT,
  GENDERS,
  MATE_TAGS_LIMIT,
  MATE_TEXT_LIMITS,
  MATE_VISIBILITIES,
} from '@mates/api-client';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { mediaOf } from '../media/media-of';
import { saveMate } from './save-mate-service';
import { hidesInMateName } from '../accounts/nicknames';

const text = (max: number) => z.string().max(max).default('');
const limit = MATE_TEXT_LIMITS;

// Imported cards are fitted to these limits (cards/fit-card.ts), so that they save as they are.
const payload = z.object({
  mateId: z.string().min(1).max(100).optional(),
  name: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(limit.name)
    .refine((name) => !hidesInMateName(name), {
      message: 'must not hold control or invisible characters',
    }),
  tagline: z.string().trim().max(limit.tagline).default(''),
  description: text(limit.description),
  personality: text(limit.personality),
  scenario: text(limit.scenario),
  // Needed for private and public mates (checkVisibility); a draft may be saved without one.
  first_mes: text(limit.first_mes).transform((greeting) => greeting.trim()),
  mes_example: text(limit.mes_example),
  creator_notes: text(limit.creator_notes),
  system_prompt: text(limit.system_prompt),
  alternate_greetings: z
    .array(z.string().max(ALTERNATE_GREETINGS_LIMIT.length))
    .max(ALTERNATE_GREETINGS_LIMIT.count)
    .default([]),
  tags: z.array(z.string().min(1).max(40)).max(MATE_TAGS_LIMIT).default([]),
  gender: z.enum(GENDERS),
  nsfw: z.boolean().default(false),
  // Absent keeps an existing mate's; a new mate is private.
  visibility: z.enum(MATE_VISIBILITIES).optional(),
  voice: z.string().min(1).max(100).nullable().optional(),
});

/** `/mate/saveMate`: creates a mate of the caller's, or updates one of theirs. */
export function saveMateRoutes(deps: Deps): Hono<ApiEnv> {
  const save = { ...deps, media: mediaOf(deps.config) };
  const routes = new Hono<ApiEnv>();
  contract(routes, '/mate').post('/mate/saveMate', payload, async (c, read) => {
    const user = requireUser(c);
    return saveMate({ ...save, log: c.get('log') }, user, await read());
  });
  return routes;
}
