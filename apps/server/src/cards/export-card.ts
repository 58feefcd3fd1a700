import type { MateTable } from '../db/schema';
import { fromJson, toBool } from '../db/dialect';
import {
  tagKey,
  toCardV2,
  toCardV3,
  PNG_CARD_KEYWORD,
  PNG_CARD_V3_KEYWORD,
  type CardData,
} from './character-card';
import {
  cardTagKeys,
  exportedGreetings,
  exportedText,
  FITTED_FIELDS,
  type FittedField,
} from './fit-card';
import { withoutPngText, writePngText } from './png-text';

/**
 * The card's own tags as the mate has them now: a tag Mates knows stays (in the card's
 * spelling) only while the mate still has it, an `nsfw` tag only while the mate is NSFW, other
 * tags stay as written, and tags added in Mates follow under their labels.
 */
function currentTags(
  original: string[] | undefined,
  current: string[],
  labels: Map<string, string>,
  nsfw: boolean,
): string[] {
  // Known tags past the ten a mate carries never became the mate's: they stay as written.
  const { over } = cardTagKeys(original ?? [], (key) => labels.has(key));
  const kept = (original ?? []).filter((tag) => {
    const key = tagKey(tag);
    if (labels.has(key)) return current.includes(key) || over.has(key);
    return key !== 'nsfw' || nsfw;
  });
  const covered = new Set(kept.map(tagKey));
  return [
    ...kept,
    ...current.filter((key) => !covered.has(key)).map((key) => labels.get(key) ?? key),
  ];
}

/**
 * The card of a mate as it is now: every field Mates edits from the row, the card fields it
 * does not use (`card_extra`, `extensions`) as they were imported, Mates' own under
 * `extensions.mates`. `maker` is the creator of a mate that did not come from a card; `labels`
 * are the tags' labels by key.
 */
export function mateCardData(row: MateTable, maker: string, labels: Map<string, string>): CardData {
  const extra = fromJson<Record<string, unknown>>(row.card_extra, {});
  const extensions = fromJson<Record<string, unknown>>(row.extensions, {});
  const nsfw = toBool(row.nsfw);
  return {
    ...extra,
    name: row.name,
    // A field longer than the studio holds is exported whole while its start is unchanged.
    ...(Object.fromEntries(
      (Object.keys(FITTED_FIELDS) as FittedField[]).map((field) => [
        field,
        exportedText(field, row[field], extra[field]),
      ]),
    ) as Record<FittedField, string>),
    post_history_instructions: String(extra.post_history_instructions ?? ''),
    alternate_greetings: exportedGreetings(
      fromJson<string[]>(row.alternate_greetings, []),
      extra.alternate_greetings,
    ),
    tags: currentTags(
      extra.tags as string[] | undefined,
      fromJson<string[]>(row.tags, []),
      labels,
      nsfw,
    ),
    // An imported card keeps its own creator, even an empty one; a mate made here has its maker.
    creator: 'creator' in extra ? String(extra.creator) : maker,
    character_version: String(extra.character_version ?? ''),
    extensions: {
      ...extensions,
      mates: { ...(extensions.mates as object), gender: row.gender, tagline: row.tagline, nsfw },
    },
  };
}

const encode = (card: object) => Buffer.from(JSON.stringify(card)).toString('base64');

/**
 * The portrait carrying one current card: V2 in `chara` and V3 in `ccv3`, the same data in
 * each, so that a reader preferring either gets this card; any card already inside is dropped.
 */
export function cardPng(portrait: Buffer, data: CardData): Buffer {
  const bare = withoutPngText(portrait, [PNG_CARD_KEYWORD, PNG_CARD_V3_KEYWORD]);
  const v2 = writePngText(bare, PNG_CARD_KEYWORD, encode(toCardV2(data)));
  return writePngText(v2, PNG_CARD_V3_KEYWORD, encode(toCardV3(data)));
}
