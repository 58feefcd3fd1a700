import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { GENDERS, type Gender } from '@mates/api-client';
import { badInput } from '../http/envelope';
import type { Database } from '../db/schema';
import { insertMates, type NewMate } from '../catalog/new-mate';
import { removePortrait, writePortrait } from '../catalog/portrait-files';
import { renderPortrait } from '../seed/portraits';
import {
  CardFormatError,
  cardSpecOf,
  parseCard,
  readMatesExtension,
  tagKey,
  PNG_CARD_KEYWORD,
  PNG_CARD_V3_KEYWORD,
  type CardData,
} from './character-card';
import { cardTagline } from './card-tagline';
import { PngFormatError, readPngText, withoutPngText } from './png-text';

const MODELED = [
  'name',
  'description',
  'personality',
  'scenario',
  'first_mes',
  'mes_example',
  'creator_notes',
  'system_prompt',
  'alternate_greetings',
  'extensions',
] as const;
// Character Card V2 keeps the card in `chara`, V3 in `ccv3`: neither stays in the portrait.
const CARD_KEYWORDS = [PNG_CARD_V3_KEYWORD, PNG_CARD_KEYWORD];

/** Whether a card's own gender is one the contract knows; any other reads as nonbinary. */
const isGender = (value: unknown): value is Gender =>
  (GENDERS as readonly unknown[]).includes(value);

/** What `/mate/importCard` receives: a card as JSON, or a PNG (base64) that carries one. */
export interface CardUpload {
  card?: unknown;
  png?: string;
}

function pngFormat<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof PngFormatError) throw badInput(`png: ${error.message}`);
    throw error;
  }
}

// `ccv3` first, as SillyTavern reads it: a V3 card keeps its V2 copy in `chara` for older readers.
function readCardFromPng(png: Buffer): unknown {
  const text = pngFormat(
    () => readPngText(png, PNG_CARD_V3_KEYWORD) ?? readPngText(png, PNG_CARD_KEYWORD),
  );
  if (!text) throw badInput('png: this image holds no character card (no "chara" text chunk).');
  try {
    return JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    throw badInput('png: the character card in this image is not readable JSON.');
  }
}

// Everything about the card is checked here, before any file is written.
function readUpload(upload: CardUpload, knownTags: string[]) {
  const png = upload.png === undefined ? undefined : Buffer.from(upload.png, 'base64');
  try {
    const document = png ? readCardFromPng(png) : upload.card;
    const data = parseCard(document);
    const ours = readMatesExtension(data);
    const portrait = png && pngFormat(() => withoutPngText(png, CARD_KEYWORDS));
    return { data, ours, portrait, spec: cardSpecOf(document), tags: tagKeys(data, knownTags) };
  } catch (error) {
    if (error instanceof CardFormatError) throw badInput(error.message);
    throw error;
  }
}

function tagKeys(data: CardData, knownTags: string[]): string[] {
  const keys = data.tags.map(tagKey);
  return [...new Set(keys)].filter((key) => knownTags.includes(key));
}

function mateFromCard(
  data: CardData,
  ours: ReturnType<typeof readMatesExtension>,
): Omit<NewMate, 'id' | 'creator_id' | 'avatar' | 'tags'> {
  const extra = Object.fromEntries(
    Object.entries(data).filter(([key]) => !(MODELED as readonly string[]).includes(key)),
  );
  return {
    name: data.name,
    tagline: (ours.tagline ?? cardTagline(data.name, data.description)).slice(0, 200),
    description: data.description,
    personality: data.personality,
    scenario: data.scenario,
    first_mes: data.first_mes,
    mes_example: data.mes_example,
    creator_notes: data.creator_notes,
    system_prompt: data.system_prompt,
    alternate_greetings: data.alternate_greetings,
    extensions: data.extensions,
    card_extra: extra,
    gender: isGender(ours.gender) ? ours.gender : 'nonbinary',
    nsfw: ours.nsfw === true || data.tags.some((tag) => tag.toLowerCase() === 'nsfw'),
    visibility: 'private',
  };
}

/**
 * Imports a Character Card (V1, V2 or V3; JSON or PNG) as a private mate of `userId` and
 * returns its id. The card is checked in full first; the portrait is stored without the
 * card inside it, under a random name, and removed again when the mate cannot be saved.
 */
export async function importCard(
  db: Kysely<Database>,
  mediaDir: string,
  userId: string,
  upload: CardUpload,
): Promise<string> {
  const known = (await db.selectFrom('tags').select('key').execute()).map((row) => row.key);
  const { data, ours, portrait, spec, tags } = readUpload(upload, known);
  const id = randomUUID();
  const avatar = portrait
    ? await writePortrait(mediaDir, portrait, '.png')
    : await renderPortrait(mediaDir, randomUUID(), 'notionists', data.name);
  try {
    await insertMates(db, [
      { ...mateFromCard(data, ours), card_spec: spec, id, creator_id: userId, avatar, tags },
    ]);
  } catch (error) {
    await removePortrait(mediaDir, avatar);
    throw error;
  }
  return id;
}
