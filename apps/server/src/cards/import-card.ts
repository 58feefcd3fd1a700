import { GENDERS, MATE_TEXT_LIMITS, type CardSourceSpec, type Gender } from '@mates/api-client';
import { invalid } from '../domain/errors';
import type { SentenceKey } from '../i18n/texts';
import { nulField } from '../domain/nul-field';
import type { NewMate } from '../catalog/mate-repository';
import { MATE_TEXT_FIELDS } from '../catalog/mate-fields';
import {
  cardSpecOf,
  parseCard,
  readMatesExtension,
  tagKey,
  PNG_CARD_KEYWORD,
  PNG_CARD_V3_KEYWORD,
  type CardData,
} from './character-card';
import { cardTagline } from './card-tagline';
import { cardTagKeys, fitCard } from './fit-card';
import { PngFormatError, readPngText, withoutPngText } from './png-text';
import { entriesByPattern } from './lorebook';

// The card fields a mate holds: its text fields (a card has no tagline: one in a card is
// kept for export like any other field Mates does not use), greetings and extensions.
const MODELED = [
  ...MATE_TEXT_FIELDS.filter((field) => field !== 'tagline'),
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

// The sentence that says what is wrong with a PNG.
const PNG_PROBLEMS = {
  notPng: 'notices.cards.notPng',
  pngCut: 'notices.cards.pngCut',
  pngNoEnd: 'notices.cards.pngNoEnd',
} as const satisfies Record<PngFormatError['problem'], SentenceKey>;

function pngFormat<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof PngFormatError) throw invalid(PNG_PROBLEMS[error.problem]);
    throw error;
  }
}

// `ccv3` first, as SillyTavern reads it: a V3 card keeps its V2 copy in `chara` for older readers.
function readCardFromPng(png: Buffer): unknown {
  const text = pngFormat(
    () => readPngText(png, PNG_CARD_V3_KEYWORD) ?? readPngText(png, PNG_CARD_KEYWORD),
  );
  if (!text) throw invalid('notices.cards.noCard');
  try {
    return JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    throw invalid('notices.cards.unreadable');
  }
}

/**
 * The card of `upload`, read and checked in full before any file is written (bad input names
 * what is wrong), with its picture when it came in a PNG, and its known tags.
 */
export function readUpload(upload: CardUpload, knownTags: string[]) {
  const png = upload.png === undefined ? undefined : Buffer.from(upload.png, 'base64');
  const document = png ? readCardFromPng(png) : upload.card;
  // A card in a picture is read here, not with the request's body: the same rule.
  const nul = png ? nulField(document, ['png']) : null;
  if (nul !== null) throw invalid('notices.cards.nul', { field: nul });
  const data = parseCard(document);
  const ours = readMatesExtension(data);
  const portrait = png && pngFormat(() => withoutPngText(png, CARD_KEYWORDS));
  return {
    data,
    ours,
    portrait,
    spec: cardSpecOf(document),
    sourceSpec: sourceSpecOf(document),
    tags: tagKeys(data, knownTags),
  };
}

// V1 cards are the bare fields; V2 and V3 name themselves in `spec`.
function sourceSpecOf(document: unknown): CardSourceSpec {
  const spec = (document as { spec?: unknown }).spec;
  return spec === 'chara_card_v3' ? 'v3' : spec === 'chara_card_v2' ? 'v2' : 'v1';
}

// At most ten, as the studio saves them; the others stay in the card (see droppedTags).
function tagKeys(data: CardData, knownTags: string[]): string[] {
  return cardTagKeys(data.tags, (key) => knownTags.includes(key)).kept;
}

/** The mate a card makes: its fields fitted to what saveMate accepts, a private mate or a draft. */
export function mateFromCard(
  data: CardData,
  ours: ReturnType<typeof readMatesExtension>,
): Omit<NewMate, 'id' | 'creator_id' | 'avatar' | 'tags'> {
  const extra = Object.fromEntries(
    Object.entries(data).filter(([key]) => !(MODELED as readonly string[]).includes(key)),
  );
  // Fitted to what saveMate accepts; the whole text of what did not fit stays for export.
  const { fitted, originals } = fitCard(data);
  return {
    name: data.name,
    tagline: (ours.tagline ?? cardTagline(data.name, data.description)).slice(
      0,
      MATE_TEXT_LIMITS.tagline,
    ),
    ...fitted,
    extensions: data.extensions,
    card_extra: { ...extra, ...originals },
    gender: isGender(ours.gender) ? ours.gender : 'nonbinary',
    nsfw: ours.nsfw === true || data.tags.some((tag) => tag.toLowerCase() === 'nsfw'),
    // A card without a greeting cannot open a chat yet: it arrives as a draft to finish.
    visibility: data.first_mes.trim() ? 'private' : 'draft',
  };
}

// What SillyTavern and other apps keep under `extensions`, in words a creator knows.
const EXTENSION_WORDS: Record<string, (value: unknown) => string | null> = {
  depth_prompt: (value) => {
    const prompt = value as { prompt?: unknown; depth?: unknown } | null;
    if (!prompt || typeof prompt.prompt !== 'string' || !prompt.prompt.trim()) return null;
    return typeof prompt.depth === 'number'
      ? `Character note (inserted at depth ${prompt.depth})`
      : 'Character note';
  },
  regex_scripts: (value) =>
    Array.isArray(value) && value.length ? `Regex scripts (${value.length})` : null,
  // Group chats use it: how readily the mate speaks (see chat/group-service.ts).
  talkativeness: () => null,
  fav: () => null,
  world: (value) => (typeof value === 'string' && value ? `Link to the world "${value}"` : null),
};

// Card fields that describe the card rather than hold anything to use.
const CARD_METADATA = new Set([
  'tags',
  'creator',
  'character_version',
  'creation_date',
  'modification_date',
  'spec',
  'spec_version',
  // SillyTavern's own bookkeeping in V1 files.
  'create_date',
  'avatar',
  'chat',
]);

const count = (value: unknown) => (Array.isArray(value) ? value.length : 0);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function describeField(key: string, value: unknown): string | null {
  switch (key) {
    case 'character_book': {
      // Its entries go into the prompt when the chat calls for them (see lorebook.ts), but
      // those found by patterns only.
      const byPattern = entriesByPattern(value);
      return byPattern
        ? `Lorebook entries found by patterns (${plural(byPattern, 'entry', 'entries')})`
        : null;
    }
    case 'post_history_instructions':
      // The prompt puts them after the history (see chat/prompt.ts).
      return null;
    case 'group_only_greetings':
      // Group chats open with them (see chat/group-service.ts).
      return null;
    case 'assets':
      return count(value) ? `Card assets (${plural(count(value), 'file', 'files')})` : null;
    case 'nickname':
      return typeof value === 'string' && value.trim() ? `Nickname "${value}"` : null;
    case 'creator_notes_multilingual': {
      const languages = Object.keys((value as object | null) ?? {});
      return languages.length ? `Creator notes in other languages (${languages.join(', ')})` : null;
    }
    case 'source':
      return count(value) ? `Source links (${count(value)})` : null;
    default:
      return value === undefined || value === null || value === '' ? null : `Card field "${key}"`;
  }
}

/** What a card carries that Mates keeps for export but does not use, in plain words. */
export function unusedParts(data: CardData): string[] {
  const fields = Object.entries(data)
    .filter(([key]) => !(MODELED as readonly string[]).includes(key) && !CARD_METADATA.has(key))
    .map(([key, value]) => describeField(key, value));
  const extensions = Object.entries(data.extensions)
    .filter(([key]) => key !== 'mates')
    .map(([key, value]) =>
      // Own keys only: a card may name an extension `constructor` or `__proto__`.
      Object.hasOwn(EXTENSION_WORDS, key) ? EXTENSION_WORDS[key]!(value) : `Extension "${key}"`,
    );
  return [...fields, ...extensions].filter((part): part is string => part !== null);
}

/**
 * Tags of the card, as written, that the mate will not carry: those Mates has no tag for (an
 * `nsfw` tag marks the mate instead) and known ones past the first ten.
 */
export function droppedTags(data: CardData, knownTags: string[]): string[] {
  const seen = new Set<string>();
  const { over } = cardTagKeys(data.tags, (key) => knownTags.includes(key));
  return data.tags.filter((tag) => {
    const key = tagKey(tag);
    if (!key || key === 'nsfw' || seen.has(key)) return false;
    if (knownTags.includes(key) && !over.has(key)) return false;
    seen.add(key);
    return true;
  });
}
