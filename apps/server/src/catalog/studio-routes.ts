import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { sql } from 'kysely';
import { z } from 'zod';
import {
  MATE_TEXT_LIMITS,
  MATE_VISIBILITIES,
  type OwnMateSummary,
  type PortraitChoice,
  type SetPortraitPayload,
} from '@mates/api-client';
import { badInput } from '../http/envelope';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { fromJson, now, toBool } from '../db/dialect';
import {
  isPortraitStyle,
  portraitSvg,
  renderPortrait,
  type PortraitStyle,
} from '../seed/portraits';
import { matesWithCreators, paging, toMate, toPage } from './mate-rows';
import { insertMates } from './new-mate';
import { checkVisibility, findOwnMate, toOwnMateSummary } from './own-mates';
import { changeOwnMate, mateConflict } from './own-mate-change';
import { copyPortrait, removePortrait, writePortrait } from './portrait-files';
import { MAX_PORTRAIT_BYTES, portraitFromUpload } from './portrait-upload';
import { id, pageFields } from './query-schemas';
import { consume } from '../accounts/rate-limits';
import { mediaOf } from '../media/media-of';
import { checkMateQuota, withinMateQuota } from './mate-quota';

/** How many portraits `GET /mate/portraitChoices` offers for one seed. */
export const PORTRAIT_CHOICES = 6;

// Choices alternate between the two styles; the drawing seed is the caller's seed and a number.
const CHOICE_STYLES: PortraitStyle[] = ['lorelei', 'notionists'];
const CHOICE_ID = /^([a-z]+):(.{1,100})#(\d)$/su;

/** The style and drawing seed of a choice id, or a 4000 error naming `choiceId`. */
function readChoice(choiceId: string): { style: PortraitStyle; seed: string } {
  const match = CHOICE_ID.exec(choiceId);
  if (!match || Number(match[3]) >= PORTRAIT_CHOICES)
    throw badInput('choiceId: is not one of the portraits of /mate/portraitChoices.');
  const [, style, seed, n] = match;
  if (!isPortraitStyle(style!)) throw badInput(`choiceId: unknown portrait style "${style}".`);
  return { style, seed: `${seed}#${n}` };
}

/** What a copy of `name` is called, within the characters a name may have. */
function copyName(name: string): string {
  const suffix = ' (copy)';
  return `${name.slice(0, MATE_TEXT_LIMITS.name - suffix.length).trimEnd()}${suffix}`;
}

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

/**
 * The creation studio's calls on the caller's own mates: `/mate/myMates`, `setVisibility`,
 * `duplicateMate`, `deleteMate`, `portraitChoices` and `setPortrait`. Every call on a mate
 * answers 4004 for a mate that is not the caller's or is deleted, and changes nothing.
 */
export function studioRoutes(deps: Deps): Hono<ApiEnv> {
  const { db, config } = deps;
  const media = mediaOf(config);
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/mate');
  const wholeMate = async (mateId: string) =>
    toMate(await matesWithCreators(db).where('mates.id', '=', mateId).executeTakeFirstOrThrow());

  const myMatesQuery = z.object({
    visibility: z.enum(MATE_VISIBILITIES).optional(),
    ...pageFields,
  });
  api.get('/mate/myMates', myMatesQuery, async (c, read) => {
    const user = requireUser(c);
    const input = await read();
    const pages = paging(input);
    let own = matesWithCreators(db)
      .where('mates.creator_id', '=', user.id)
      .where('mates.deleted_at', 'is', null);
    if (input.visibility) own = own.where('mates.visibility', '=', input.visibility);
    const [total, rows] = await Promise.all([
      own
        .clearSelect()
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirstOrThrow(),
      own
        .orderBy('mates.updated_at', 'desc')
        .orderBy('mates.id')
        .limit(pages.pageSize)
        .offset(pages.offset)
        .execute(),
    ]);
    const list: OwnMateSummary[] = rows.map(toOwnMateSummary);
    return toPage(list, pages, total.n);
  });

  const visibilityPayload = z.object({ mateId: id, visibility: z.enum(MATE_VISIBILITIES) });
  api.post('/mate/setVisibility', visibilityPayload, async (c, read) => {
    const user = requireUser(c);
    const input = await read();
    // Leaving public, the portrait moves to a new secret address.
    await changeOwnMate(db, media, user.id, input.mateId, (own) => {
      checkVisibility(own, input.visibility);
      if (own.visibility === input.visibility) return null;
      return {
        set: { visibility: input.visibility, updated_at: now() },
        hidePortrait: own.visibility === 'public',
      };
    });
    return wholeMate(input.mateId);
  });

  const mateQuery = z.object({ mateId: id });
  api.post('/mate/duplicateMate', mateQuery, async (c, read) => {
    const user = requireUser(c);
    await consume(deps.limits.duplicateMate, user.id);
    const own = await findOwnMate(db, user.id, (await read()).mateId);
    await checkMateQuota(db, user.id);
    const copyId = randomUUID();
    const avatar = await copyPortrait(media, own.avatar, own.name);
    try {
      await withinMateQuota(db, deps.dialect, user.id, async (trx) => {
        await insertMates(trx, [
          {
            id: copyId,
            creator_id: user.id,
            avatar,
            name: copyName(own.name),
            tagline: own.tagline,
            description: own.description,
            personality: own.personality,
            scenario: own.scenario,
            first_mes: own.first_mes,
            mes_example: own.mes_example,
            creator_notes: own.creator_notes,
            system_prompt: own.system_prompt,
            alternate_greetings: fromJson<string[]>(own.alternate_greetings, []),
            tags: fromJson<string[]>(own.tags, []),
            gender: own.gender as OwnMateSummary['gender'],
            nsfw: toBool(own.nsfw),
            // A copy is the creator's alone; a draft without a greeting stays a draft.
            visibility: own.first_mes.trim() ? 'private' : 'draft',
            extensions: fromJson<Record<string, unknown>>(own.extensions, {}),
            card_extra: fromJson<Record<string, unknown>>(own.card_extra, {}),
            card_spec: own.card_spec === 'v3' ? 'v3' : 'v2',
          },
        ]);
        // A copy of a mate moderators hid is hidden for the same reason: copying is no way out.
        if (own.hidden_at)
          await trx
            .updateTable('mates')
            .set({
              hidden_at: own.hidden_at,
              hidden_reason: own.hidden_reason,
              hidden_note: own.hidden_note,
              hidden_by: own.hidden_by,
            })
            .where('id', '=', copyId)
            .execute();
      });
    } catch (error) {
      if (avatar !== own.avatar) await removePortrait(media, avatar);
      throw error;
    }
    return wholeMate(copyId);
  });

  api.post('/mate/deleteMate', mateQuery, async (c, read) => {
    const user = requireUser(c);
    const { mateId } = await read();
    const own = await findOwnMate(db, user.id, mateId);
    // The row stays (other people's rooms keep their messages, read-only) with a drawn face
    // at a new address; its portrait file goes once no other mate shows it, so the address
    // people saw while it was public stops answering and the disk gets its space back.
    const drawn = await renderPortrait(media, randomUUID(), 'notionists', own.name);
    const at = now();
    let old: string | null = null;
    try {
      await changeOwnMate(db, media, user.id, mateId, (current) => {
        old = current.avatar;
        return {
          set: { deleted_at: at, updated_at: at, avatar: drawn },
          hidePortrait: false,
        };
      });
    } catch (error) {
      await removePortrait(media, drawn);
      throw error;
    }
    if (old !== null) await removeIfUnused(old);
    return null;
  });

  const choicesQuery = z.object({ seed: z.string().trim().min(1, 'is required').max(100) });
  api.get('/mate/portraitChoices', choicesQuery, async (_c, read) => {
    const { seed } = await read();
    return Promise.all(
      Array.from({ length: PORTRAIT_CHOICES }, async (_, n): Promise<PortraitChoice> => {
        const style = CHOICE_STYLES[n % CHOICE_STYLES.length]!;
        const svg = await portraitSvg(style, `${seed}#${n}`);
        return {
          choiceId: `${style}:${seed}#${n}`,
          url: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
        };
      }),
    );
  });

  /** Removes a portrait file of ours once nothing refers to it (seeded faces are shared). */
  async function removeIfUnused(url: string): Promise<void> {
    const [mate, user, persona] = await Promise.all([
      db.selectFrom('mates').select('id').where('avatar', '=', url).limit(1).executeTakeFirst(),
      db.selectFrom('users').select('id').where('avatar', '=', url).limit(1).executeTakeFirst(),
      db.selectFrom('personas').select('id').where('avatar', '=', url).limit(1).executeTakeFirst(),
    ]);
    if (!mate && !user && !persona) await removePortrait(media, url);
  }

  api.post('/mate/setPortrait', portraitPayload, async (c, read) => {
    const user = requireUser(c);
    await consume(deps.limits.setPortrait, user.id);
    const input = await read();
    const own = await findOwnMate(db, user.id, input.mateId);
    // Checked in full before anything is written.
    const file =
      input.choiceId !== undefined
        ? await (async ({ style, seed }) => ({
            bytes: await portraitSvg(style, seed),
            extension: '.svg' as const,
          }))(readChoice(input.choiceId))
        : {
            bytes: await portraitFromUpload(
              Buffer.from(input.image.replace(/^data:[^,]*,/, ''), 'base64'),
            ),
            extension: '.webp' as const,
          };
    const avatar = await writePortrait(media, file.bytes, file.extension);
    try {
      // Only while the mate is as read: a portrait moved or a mate deleted meanwhile is a 4009.
      const written = await db
        .updateTable('mates')
        .set({ avatar, updated_at: now() })
        .where('id', '=', own.id)
        .where('avatar', '=', own.avatar)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (written.numUpdatedRows === 0n) throw mateConflict();
    } catch (error) {
      await removePortrait(media, avatar);
      throw error;
    }
    await removeIfUnused(own.avatar);
    return wholeMate(own.id);
  });

  return routes;
}
