import {
  ALTERNATE_GREETINGS_LIMIT,
  MATE_TAGS_LIMIT,
  MATE_TEXT_LIMITS,
  type MateTextField,
} from '@mates/api-client';
import { tagKey, type CardData } from './character-card';

/**
 * The card's text fields the studio edits with a limit shorter than a card may have (names
 * share the card's own limit of 100), and how the studio calls them.
 */
export const FITTED_FIELDS = {
  description: 'Description',
  personality: 'Personality',
  scenario: 'Scenario',
  first_mes: 'Greeting',
  mes_example: 'Example messages',
  creator_notes: 'Creator notes',
  system_prompt: 'System prompt',
} as const satisfies Record<Exclude<MateTextField, 'name' | 'tagline'>, string>;

/** A card text field the studio holds only the start of when it is long. */
export type FittedField = keyof typeof FITTED_FIELDS;

const FIELDS = Object.keys(FITTED_FIELDS) as FittedField[];

/** `text` cut to `max` UTF-16 units (as the limits count), never inside a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/u.test(text[max - 1]!) ? max - 1 : max;
  return text.slice(0, end);
}

/** Alternate greetings as the studio holds them: the first ten, each cut to its limit. */
export function fitGreetings(greetings: string[]): string[] {
  return greetings
    .slice(0, ALTERNATE_GREETINGS_LIMIT.count)
    .map((greeting) => cutText(greeting, ALTERNATE_GREETINGS_LIMIT.length));
}

const number = (n: number) => n.toLocaleString('en-US');

/**
 * A card's fields fitted to what `/mate/saveMate` accepts, so that an imported mate can be
 * edited and saved as it is. A field that did not fit keeps its whole text in `originals`
 * (stored with the card's other unused fields and exported instead of the studio's part for
 * as long as the creator leaves that part unchanged); `notes` say so in plain words.
 */
export function fitCard(data: CardData) {
  const fitted = {} as Record<FittedField, string>;
  const originals: Record<string, unknown> = {};
  const notes: string[] = [];
  for (const field of FIELDS) {
    const max = MATE_TEXT_LIMITS[field];
    fitted[field] = cutText(data[field], max);
    if (fitted[field] === data[field]) continue;
    originals[field] = data[field];
    notes.push(
      `${FITTED_FIELDS[field]} (${number(data[field].length)} characters): the studio and chats use the first ${number(max)}; the whole text stays in the card you export until you edit it`,
    );
  }
  const greetings = fitGreetings(data.alternate_greetings);
  const cut = greetings.filter((greeting, n) => greeting !== data.alternate_greetings[n]).length;
  if (greetings.length < data.alternate_greetings.length || cut) {
    originals.alternate_greetings = data.alternate_greetings;
    const parts = [
      greetings.length < data.alternate_greetings.length &&
        `the studio keeps the first ${ALTERNATE_GREETINGS_LIMIT.count} of ${data.alternate_greetings.length}`,
      cut &&
        `${cut === 1 ? 'one is' : `${cut} are`} cut to ${number(ALTERNATE_GREETINGS_LIMIT.length)} characters`,
    ].filter(Boolean);
    notes.push(
      `Alternate greetings: ${parts.join(' and ')}; all of them stay in the card you export until you edit them`,
    );
  }
  return { fitted: { ...fitted, alternate_greetings: greetings }, originals, notes };
}

/** The text a card export carries for `field`: the card's whole text while the mate holds its start unchanged. */
export function exportedText(field: FittedField, current: string, original: unknown): string {
  return typeof original === 'string' &&
    cutText(original, MATE_TEXT_LIMITS[field]).trim() === current.trim()
    ? original
    : current;
}

/** The alternate greetings a card export carries, by the same rule as {@link exportedText}. */
export function exportedGreetings(current: string[], original: unknown): string[] {
  if (!Array.isArray(original) || !original.every((item) => typeof item === 'string'))
    return current;
  const fitted = fitGreetings(original as string[]);
  const same =
    fitted.length === current.length &&
    fitted.every((greeting, n) => greeting.trim() === current[n]!.trim());
  return same ? (original as string[]) : current;
}

/**
 * The known tags of a card, as keys in the card's order without repeats: the first ten become
 * the mate's tags (`kept`), the others (`over`) are kept as written in the card and exported.
 */
export function cardTagKeys(tags: string[], isKnown: (key: string) => boolean) {
  const keys = [...new Set(tags.map(tagKey))].filter(isKnown);
  return { kept: keys.slice(0, MATE_TAGS_LIMIT), over: new Set(keys.slice(MATE_TAGS_LIMIT)) };
}
