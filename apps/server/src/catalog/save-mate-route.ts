import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import {
  ALTERNATE_GREETINGS_LIMIT,
  GENDERS,
  MATE_TAGS_LIMIT,
  MATE_TEXT_LIMITS,
  MATE_VISIBILITIES,
  type MateVisibility,
} from '@mates/api-client';
import { badInput } from '../http/envelope';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { now, toJson } from '../db/dialect';
import { renderPortrait } from '../seed/portraits';
import { mediaOf } from '../media/media-of';
import { matesWithCreators, toMate } from './mate-rows';
import { insertMates } from './new-mate';
import { removePortrait } from './portrait-files';
import { consume } from '../accounts/rate-limits';
import { checkMateQuota, withinMateQuota } from './mate-quota';
import { changeOwnMate } from './own-mate-change';
import { checkVisibility } from './own-mates';
import { isVoice } from '../voice/voices';
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
export function saveMateRoute(deps: Deps): Hono<ApiEnv> {
  const { db, config } = deps;
  const media = mediaOf(config);
  const routes = new Hono<ApiEnv>();
  contract(routes, '/mate').post('/mate/saveMate', payload, async (c, read) => {
    const user = requireUser(c);
    const input = await read();
    // A mate of the caller's is checked as it is inside the transaction that saves it.
    if (!input.mateId) {
      checkVisibility(
        { first_mes: input.first_mes, hidden_at: null, visibility: null },
        input.visibility ?? 'private',
      );
      // Creating (not editing) is limited: a rate per hour and a quota of mates.
      await consume(deps.limits.createMate, user.id);
      await checkMateQuota(db, user.id);
    }
    const known = await db.selectFrom('tags').select('key').execute();
    const unknown = input.tags.find((tag) => !known.some((row) => row.key === tag));
    if (unknown) throw badInput(`tags: unknown tag "${unknown}"`);
    const tags = [...new Set(input.tags)];
    if (input.voice && !(await isVoice(deps.speech, input.voice, c.get('log'))))
      throw badInput('voice: not one of the voices of /voice/voices');
    const at = now();
    const fields = {
      name: input.name,
      tagline: input.tagline || input.description.split(/(?<=[.!?])\s/)[0]!.slice(0, limit.tagline),
      description: input.description,
      personality: input.personality,
      scenario: input.scenario,
      first_mes: input.first_mes,
      mes_example: input.mes_example,
      creator_notes: input.creator_notes,
      system_prompt: input.system_prompt,
      alternate_greetings: toJson(input.alternate_greetings),
      tags: toJson(tags),
      gender: input.gender,
      nsfw: input.nsfw,
      // Absent keeps the mate's voice; `null` goes back to the default.
      ...(input.voice !== undefined ? { voice: input.voice } : {}),
      updated_at: at,
    };
    let id: string;
    if (input.mateId) {
      id = input.mateId;
      await changeOwnMate(db, media, user.id, id, (own) => {
        const visibility = input.visibility ?? (own.visibility as MateVisibility);
        checkVisibility(
          { first_mes: input.first_mes, hidden_at: own.hidden_at, visibility: own.visibility },
          visibility,
        );
        return {
          set: { ...fields, visibility },
          // Leaving public (for private or draft), the portrait moves to a new secret address.
          hidePortrait: own.visibility === 'public' && visibility !== 'public',
          alsoIn: async (trx) => {
            await trx.deleteFrom('mate_tags').where('mate_id', '=', id).execute();
            if (tags.length)
              await trx
                .insertInto('mate_tags')
                .values(tags.map((tag_key) => ({ mate_id: id, tag_key })))
                .execute();
          },
        };
      });
    } else {
      id = randomUUID();
      const { mateId: _ignored, ...draft } = input;
      // A random file name: the address of a private mate's portrait is its secret.
      const avatar = await renderPortrait(media, randomUUID(), 'notionists', input.name);
      await withinMateQuota(db, deps.dialect, user.id, (trx) =>
        insertMates(trx, [
          {
            ...draft,
            visibility: input.visibility ?? 'private',
            tagline: fields.tagline,
            tags,
            id,
            creator_id: user.id,
            avatar,
          },
        ]),
      ).catch(async (error: unknown) => {
        await removePortrait(media, avatar);
        throw error;
      });
    }
    const saved = await matesWithCreators(db).where('mates.id', '=', id).executeTakeFirstOrThrow();
    // Its creator still learns why moderators hid it, after an edit too.
    return toMate(saved, { userId: user.id, isAdmin: false });
  });
  return routes;
}
