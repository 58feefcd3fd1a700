import { randomUUID } from 'node:crypto';
import {
  MATE_TEXT_LIMITS,
  type Mate,
  type MateVisibility,
  type SaveMatePayload,
} from '@mates/api-client';
import { now, toJson } from '../db/dialect';
import type { UserTable } from '../db/schema';
import { invalid } from '../domain/errors';
import type { Logger } from '../logging/logger';
import { consume, type RateLimits } from '../accounts/rate-limits';
import { renderPortrait } from '../seed/portraits';
import type { SpeechEngine } from '../voice/speech-engine';
import { isVoice } from '../voice/voices';
import type { StudioDeps } from './catalog-deps';
import { toMate } from './mate-rows';
import { textFieldsOf } from './mate-fields';
import { insertMates, mateRow, replaceMateTags } from './mate-repository';
import {
  changeOwnMate,
  checkMateQuota,
  checkVisibility,
  withinMateQuota,
} from './own-mate-service';
import { removePortrait } from './portrait-files';
import { tagKeys } from './tag-repository';
import { resolveMacros } from '../cards/card-tagline';

/** What saving a mate works with: the studio's, the voices there are, and the creation limit. */
export interface SaveMateDeps extends StudioDeps {
  speech: SpeechEngine | null;
  /** The rate limits; `createMate` counts the new mates a user makes. */
  limits: RateLimits;
  log: Logger;
}

/** What `/mate/saveMate` receives once read: every field with its default. */
export type SaveMateInput = Required<Omit<SaveMatePayload, 'mateId' | 'voice' | 'visibility'>> &
  Pick<SaveMatePayload, 'mateId' | 'voice' | 'visibility'>;

/**
 * `/mate/saveMate`: creates a mate of the caller's, or updates one of theirs (4004 when it is
 * not), and answers it whole as its creator sees it. Creating is limited (a rate per hour and a
 * quota of mates); the visibility asked for is checked (a greeting for `private` and `public`,
 * no way to publish a mate moderators hid), tags must be known tags and a voice one of
 * `/voice/voices`. A new mate gets a drawn portrait at a random address.
 */
export async function saveMate(
  deps: SaveMateDeps,
  user: UserTable,
  input: SaveMateInput,
): Promise<Mate> {
  // A mate of the caller's is checked as it is inside the transaction that saves it.
  if (!input.mateId) {
    checkVisibility(
      { first_mes: input.first_mes, hidden_at: null, visibility: null },
      input.visibility ?? 'private',
    );
    await consume(deps.limits.createMate, user.id);
    await checkMateQuota(deps.db, user.id);
  }
  const known = await tagKeys(deps.db);
  const unknown = input.tags.find((tag) => !known.includes(tag));
  if (unknown) throw invalid('notices.mates.unknownTag', { tag: unknown });
  const tags = [...new Set(input.tags)];
  if (input.voice && !(await isVoice(deps.speech, input.voice, deps.log)))
    throw invalid('notices.voice.unknownVoice');
  const id = input.mateId ?? randomUUID();
  if (input.mateId) await updateMate(deps, user, { ...input, tags }, id);
  else await createMate(deps, user, { ...input, tags }, id);
  // Its creator still learns why moderators hid it, after an edit too.
  return toMate(await mateRow(deps.db, id), { userId: user.id, isAdmin: false });
}

/** The tagline a mate shows: the creator's, or the description's first sentence, macros filled. */
const taglineOf = (input: SaveMateInput) =>
  input.tagline ||
  resolveMacros(input.description.split(/(?<=[.!?])\s/)[0]!, input.name).slice(
    0,
    MATE_TEXT_LIMITS.tagline,
  );

/** Writes the fields of `input` over the caller's mate `id`, within the visibility rules. */
async function updateMate(deps: StudioDeps, user: UserTable, input: SaveMateInput, id: string) {
  const fields = {
    ...textFieldsOf(input),
    tagline: taglineOf(input),
    alternate_greetings: toJson(input.alternate_greetings),
    tags: toJson(input.tags),
    gender: input.gender,
    nsfw: input.nsfw,
    // Absent keeps the mate's voice; `null` goes back to the default.
    ...(input.voice !== undefined ? { voice: input.voice } : {}),
    updated_at: now(),
  };
  await changeOwnMate(deps.db, deps.media, user.id, id, (own) => {
    const visibility = input.visibility ?? (own.visibility as MateVisibility);
    checkVisibility(
      { first_mes: input.first_mes, hidden_at: own.hidden_at, visibility: own.visibility },
      visibility,
    );
    return {
      set: { ...fields, visibility },
      // Leaving public (for private or draft), the portrait moves to a new secret address.
      hidePortrait: own.visibility === 'public' && visibility !== 'public',
      alsoIn: (trx) => replaceMateTags(trx, id, input.tags),
    };
  });
}

/** Adds `input` as a new mate `id` of the caller's, within their quota. */
async function createMate(deps: StudioDeps, user: UserTable, input: SaveMateInput, id: string) {
  const { mateId: _ignored, ...draft } = input;
  // A random file name: the address of a private mate's portrait is its secret.
  const avatar = await renderPortrait(deps.media, randomUUID(), 'notionists', input.name);
  await withinMateQuota(deps.db, deps.dialect, user.id, (trx) =>
    insertMates(trx, [
      {
        ...draft,
        visibility: input.visibility ?? 'private',
        tagline: taglineOf(input),
        id,
        creator_id: user.id,
        avatar,
      },
    ]),
  ).catch(async (error: unknown) => {
    await removePortrait(deps.media, avatar);
    throw error;
  });
}
