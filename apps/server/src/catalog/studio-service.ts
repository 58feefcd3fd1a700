import { randomUUID } from 'node:crypto';
import {
  MATE_TEXT_LIMITS,
  type Mate,
  type MateVisibility,
  type OwnMateSummary,
  type Paged,
  type PortraitChoice,
  type SetPortraitPayload,
} from '@mates/api-client';
import { fromJson, now, toBool } from '../db/dialect';
import type { MateTable, UserTable } from '../db/schema';
import { invalid } from '../domain/errors';
import {
  isPortraitStyle,
  portraitSvg,
  renderPortrait,
  type PortraitStyle,
} from '../seed/portraits';
import type { StudioDeps } from './catalog-deps';
import { paging, toMate, toOwnMateSummary, toPage } from './mate-rows';
import { textFieldsOf } from './mate-fields';
import {
  findOwnMate,
  hideLike,
  insertMates,
  mateRow,
  ownMatesPage,
  portraitInUse,
  writeMateAsRead,
} from './mate-repository';
import {
  changeOwnMate,
  checkMateQuota,
  checkVisibility,
  mateConflict,
  withinMateQuota,
} from './own-mate-service';
import { copyPortrait, removePortrait, writePortrait } from './portrait-files';
import { portraitFromUpload } from './portrait-upload';
import { cutText } from '../cards/fit-card';

/** How many portraits `GET /mate/portraitChoices` offers for one seed. */
export const PORTRAIT_CHOICES = 6;

// Choices alternate between the two styles; the drawing seed is the caller's seed and a number.
const CHOICE_STYLES: PortraitStyle[] = ['lorelei', 'notionists'];
const CHOICE_ID = /^([a-z]+):(.{1,100})#(\d)$/su;

/** The style and drawing seed of a choice id, or bad input naming `choiceId`. */
function readChoice(choiceId: string): { style: PortraitStyle; seed: string } {
  const match = CHOICE_ID.exec(choiceId);
  if (!match || Number(match[3]) >= PORTRAIT_CHOICES)
    throw invalid('notices.portraits.unknownChoice');
  const [, style, seed, n] = match;
  if (!isPortraitStyle(style!)) throw invalid('notices.portraits.unknownStyle', { style: style! });
  return { style, seed: `${seed}#${n}` };
}

/** What a copy of `name` is called, within the characters a name may have. */
function copyName(name: string): string {
  const suffix = ' (copy)';
  // Cut between UTF-16 pairs: half an emoji would be stored as U+FFFD, and refused by a save.
  return `${cutText(name, MATE_TEXT_LIMITS.name - suffix.length).trimEnd()}${suffix}`;
}

/** The whole mate as its creator sees it after a change. */
const wholeMate = async (deps: StudioDeps, mateId: string): Promise<Mate> =>
  toMate(await mateRow(deps.db, mateId));

/** `/mate/myMates`: one page of the caller's own mates, most recently changed first. */
export async function myMates(
  deps: StudioDeps,
  user: UserTable,
  input: { visibility?: MateVisibility; page?: number; pageSize?: number },
): Promise<Paged<OwnMateSummary>> {
  const pages = paging(input);
  const { rows, total } = await ownMatesPage(deps.db, user.id, input.visibility, pages);
  return toPage(rows.map(toOwnMateSummary), pages, total);
}

/** `/mate/setVisibility`: leaving public, the portrait moves to a new secret address. */
export async function setVisibility(
  deps: StudioDeps,
  user: UserTable,
  input: { mateId: string; visibility: MateVisibility },
): Promise<Mate> {
  await changeOwnMate(deps.db, deps.media, user.id, input.mateId, (own) => {
    checkVisibility(own, input.visibility);
    if (own.visibility === input.visibility) return null;
    return {
      set: { visibility: input.visibility, updated_at: now() },
      hidePortrait: own.visibility === 'public',
    };
  });
  return wholeMate(deps, input.mateId);
}

/**
 * `/mate/duplicateMate`: a copy of one of the caller's mates, within their quota: the
 * creator's alone (private, or a draft while it has no greeting), with its own portrait file,
 * and hidden as the original is when moderators hid it (copying is no way out).
 */
export async function duplicateMate(
  deps: StudioDeps,
  user: UserTable,
  mateId: string,
): Promise<Mate> {
  const own = await findOwnMate(deps.db, user.id, mateId);
  await checkMateQuota(deps.db, user.id);
  const copyId = randomUUID();
  const avatar = await copyPortrait(deps.media, own.avatar, own.name);
  try {
    await withinMateQuota(deps.db, deps.dialect, user.id, async (trx) => {
      await insertMates(trx, [{ ...copyOf(own), id: copyId, creator_id: user.id, avatar }]);
      if (own.hidden_at) await hideLike(trx, copyId, own);
    });
  } catch (error) {
    if (avatar !== own.avatar) await removePortrait(deps.media, avatar);
    throw error;
  }
  return wholeMate(deps, copyId);
}

/** The fields of a copy of `own`, as a new mate takes them. */
function copyOf(own: MateTable) {
  return {
    ...textFieldsOf(own),
    name: copyName(own.name),
    alternate_greetings: fromJson<string[]>(own.alternate_greetings, []),
    tags: fromJson<string[]>(own.tags, []),
    gender: own.gender as OwnMateSummary['gender'],
    nsfw: toBool(own.nsfw),
    // A copy is the creator's alone; a draft without a greeting stays a draft.
    visibility: own.first_mes.trim() ? ('private' as const) : ('draft' as const),
    extensions: fromJson<Record<string, unknown>>(own.extensions, {}),
    card_extra: fromJson<Record<string, unknown>>(own.card_extra, {}),
    card_spec: own.card_spec === 'v3' ? ('v3' as const) : ('v2' as const),
  };
}

/**
 * `/mate/deleteMate`: the row stays (other people's rooms keep their messages, read-only)
 * with a drawn face at a new address; its portrait file goes once no other mate shows it, so
 * the address people saw while it was public stops answering and the disk gets its space back.
 */
export async function deleteMate(deps: StudioDeps, user: UserTable, mateId: string): Promise<null> {
  const own = await findOwnMate(deps.db, user.id, mateId);
  const drawn = await renderPortrait(deps.media, randomUUID(), 'notionists', own.name);
  const at = now();
  let old: string | null = null;
  try {
    await changeOwnMate(deps.db, deps.media, user.id, mateId, (current) => {
      old = current.avatar;
      return { set: { deleted_at: at, updated_at: at, avatar: drawn }, hidePortrait: false };
    });
  } catch (error) {
    await removePortrait(deps.media, drawn);
    throw error;
  }
  if (old !== null) await removeIfUnused(deps, old);
  return null;
}

/** `/mate/portraitChoices`: drawn portraits to choose from, for one seed. */
export function portraitChoices(seed: string): Promise<PortraitChoice[]> {
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
}

/** Removes a portrait file of ours once nothing refers to it (seeded faces are shared). */
async function removeIfUnused(deps: StudioDeps, url: string): Promise<void> {
  if (!(await portraitInUse(deps.db, url))) await removePortrait(deps.media, url);
}

/** The portrait file a `setPortrait` call asks for: a drawn choice, or an uploaded picture. */
async function portraitFile(input: SetPortraitPayload) {
  if (input.choiceId !== undefined) {
    const { style, seed } = readChoice(input.choiceId);
    return { bytes: await portraitSvg(style, seed), extension: '.svg' as const };
  }
  const upload = Buffer.from(input.image.replace(/^data:[^,]*,/, ''), 'base64');
  return { bytes: await portraitFromUpload(upload), extension: '.webp' as const };
}

/**
 * `/mate/setPortrait`: a drawn choice or an uploaded picture (checked in full before anything
 * is written) becomes the mate's portrait, only while the mate is as read (a portrait moved or
 * a mate deleted meanwhile is a 4009); the old file goes once nothing shows it.
 */
export async function setPortrait(
  deps: StudioDeps,
  user: UserTable,
  input: SetPortraitPayload,
): Promise<Mate> {
  const own = await findOwnMate(deps.db, user.id, input.mateId);
  const file = await portraitFile(input);
  const avatar = await writePortrait(deps.media, file.bytes, file.extension);
  try {
    const portrait = { avatar, updated_at: now() };
    if (!(await writeMateAsRead(deps.db, own, portrait, { visibility: false })))
      throw mateConflict();
  } catch (error) {
    await removePortrait(deps.media, avatar);
    throw error;
  }
  await removeIfUnused(deps, own.avatar);
  return wholeMate(deps, own.id);
}
