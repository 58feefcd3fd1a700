import { z } from 'zod';
import { MATE_TEXT_LIMITS, type CardSpec } from '@mates/api-client';
import { withoutHiddenInMateName } from '../accounts/nicknames';
import { invalid } from '../domain/errors';

const text = z.string().max(50_000).default('');

// The fields Character Card V2 defines on `data`; V1 cards carry the first six at the top.
const cardData = z.looseObject({
  // Characters that draw nothing or turn text around are dropped, not refused: the card was
  // made elsewhere, and its name is shown to everyone once published.
  name: z
    .string()
    .transform(withoutHiddenInMateName)
    .pipe(z.string().trim().min(1, 'the card has no name').max(MATE_TEXT_LIMITS.name)),
  description: text,
  personality: text,
  scenario: text,
  first_mes: text,
  mes_example: text,
  creator_notes: text,
  system_prompt: text,
  post_history_instructions: text,
  alternate_greetings: z.array(z.string().max(50_000)).max(50).default([]),
  tags: z.array(z.string().max(100)).max(100).default([]),
  creator: z.string().max(200).default(''),
  character_version: z.string().max(100).default(''),
  character_book: z.unknown().optional(),
  extensions: z.record(z.string(), z.unknown()).default({}),
});

/** The `data` of a Character Card V2. */
export type CardData = z.infer<typeof cardData>;

/** A Character Card V2 document. */
export interface CharacterCardV2 {
  spec: 'chara_card_v2';
  spec_version: '2.0';
  data: CardData;
}

/** A Character Card V3 document: V2's fields plus V3's own (`group_only_greetings`, `assets`…). */
export interface CharacterCardV3 {
  spec: 'chara_card_v3';
  spec_version: '3.0';
  data: CardData & { group_only_greetings: unknown };
}

/** How deep a card's JSON may nest: real cards stay under ten; storing and exporting recurse. */
export const MAX_CARD_DEPTH = 32;

// Walked with a stack of its own, so that a hostile depth cannot overflow the call stack.
function deeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length) {
    const [next, depth] = pending.pop()!;
    if (typeof next !== 'object' || next === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(next)) pending.push([child, depth + 1]);
  }
  return false;
}

const matesExtension = z
  .object({
    gender: z.string().max(40).optional(),
    tagline: z.string().max(2000).optional(),
    nsfw: z.boolean().optional(),
  })
  .default({});

/** What Mates writes under `extensions.mates` so its own fields survive a round trip. */
export type MatesExtension = z.infer<typeof matesExtension>;

/** The card's `extensions.mates`, checked: a field of the wrong type is bad input. */
export function readMatesExtension(data: CardData): MatesExtension {
  const parsed = matesExtension.safeParse(data.extensions.mates);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw invalid('notices.cards.notValid', {
    field: ['extensions', 'mates', ...issue.path].join('.'),
    problem: issue.message,
  });
}

/** Reads a card: V2 (`spec: "chara_card_v2"`), V3 (same fields under `data`), or a V1 flat card. */
export function parseCard(value: unknown): CardData {
  if (typeof value !== 'object' || value === null) throw invalid('notices.cards.notObject');
  if (deeperThan(value, MAX_CARD_DEPTH))
    throw invalid('notices.cards.tooDeep', { depth: MAX_CARD_DEPTH });
  const document = value as { spec?: unknown; data?: unknown };
  const data =
    document.spec === 'chara_card_v2' || document.spec === 'chara_card_v3' ? document.data : value;
  const parsed = cardData.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid('notices.cards.notValid', {
      field: issue.path.join('.') || 'card',
      problem: issue.message,
    });
  }
  return parsed.data;
}

/** The key Mates files a card's tag under: `Slice of Life` → `slice-of-life`. */
export function tagKey(tag: string): string {
  return tag.trim().toLowerCase().replace(/\s+/g, '-');
}

/** The spec a card document was written in: `v3` for `chara_card_v3`, else `v2` (V1 reads as V2). */
export function cardSpecOf(value: unknown): CardSpec {
  return (value as { spec?: unknown } | null)?.spec === 'chara_card_v3' ? 'v3' : 'v2';
}

/** Wraps card data as a V2 document. */
export function toCardV2(data: CardData): CharacterCardV2 {
  return { spec: 'chara_card_v2', spec_version: '2.0', data };
}

/** Wraps card data as a V3 document (`group_only_greetings`, which V3 requires, defaults to none). */
export function toCardV3(data: CardData): CharacterCardV3 {
  return {
    spec: 'chara_card_v3',
    spec_version: '3.0',
    data: { ...data, group_only_greetings: data.group_only_greetings ?? [] },
  };
}

/** PNG cards carry the V2 JSON, base64-encoded, in a `tEXt` chunk with this keyword. */
export const PNG_CARD_KEYWORD = 'chara';

/** V3 PNG cards carry the V3 JSON, base64-encoded, in a `tEXt` chunk with this keyword. */
export const PNG_CARD_V3_KEYWORD = 'ccv3';
