import { randomInt } from 'node:crypto';
import { z } from 'zod';
import { NICKNAME_MAX_LENGTH } from '@mates/api-client';

const words = (list: string) => list.trim().split(/\s+/);

// Two short lists chosen by hand: every pair reads as a friendly name in a creator's byline or
// under a review, and none says anything about the person (a generator's stock lists hold
// words such as "naked" or "stupid", which nobody should be given).
const ADJECTIVES = words(`
  Amber Autumn Brave Bright Calm Clever Cloud Copper Cozy Curious Daring Dawn Dreamy Dusky
  Eager Early Fable Fern Gentle Glad Golden Hazel Honest Humble Ivory Jolly Kind Lively
  Lucky Lunar Maple Merry Misty Mossy Nimble Noble Patient Plucky Quiet Rainy Rosy
  Rustic Sage Silver Sleepy Snowy Solar Starry Steady Sunny Swift Tidy Velvet Wandering
  Warm Willow Windy Wise Witty
`);
const NOUNS = words(`
  Badger Bear Bee Birch Brook Cedar Comet Crane Deer Dolphin Dove Falcon Finch Fox Harbor
  Hare Heron Hill Island Kestrel Lantern Lark Lynx Meadow Moon Moth Oak Otter Owl Panda
  Pebble Pine Quill Rabbit Raven Reed River Robin Rook Seal Sparrow Spruce Star Stone Swan
  Thistle Tide Tiger Wave Wolf Wren Yak
`);

/**
 * A new account's nickname when the person has not chosen one: two friendly words and a
 * number, such as "Quiet Otter 417". It is shown to everyone (a creator's byline, a review's
 * author), so it is never made from the e-mail address; the person changes it on their profile.
 */
export function generatedNickname(): string {
  const adjective = ADJECTIVES[randomInt(ADJECTIVES.length)]!;
  const noun = NOUNS[randomInt(NOUNS.length)]!;
  return `${adjective} ${noun} ${randomInt(100, 1000)}`;
}

// Characters that draw nothing but are not marked as format characters: the combining
// grapheme joiner, Hangul and Khmer fillers, the blank Braille pattern.
const BLANKS = /[\u115F\u1160\u2800\u3164\uFFA0]|\u034F|\u17B4|\u17B5/u;
// Control, format (zero-width, bidirectional overrides), surrogate, private-use and unassigned
// code points, and line or paragraph separators.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u;
// The same in a mate's name, less the zero-width joiners (U+200C, U+200D): emoji sequences
// ("👩‍🚀") and several scripts (Persian, the Indic ones) need them, and a mate's name may
// hold them where a person's, shown beside everything they write, does not.
const HIDDEN_IN_MATE_NAMES =
  /(?![\u200C\u200D])[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|[\u115F\u1160\u2800\u3164\uFFA0]|\u034F|\u17B4|\u17B5/gu;

/**
 * Whether a mate's name holds characters that draw nothing or turn text around, with which a
 * public mate could pass for another in listings.
 */
export const hidesInMateName = (name: string): boolean => {
  HIDDEN_IN_MATE_NAMES.lastIndex = 0;
  return HIDDEN_IN_MATE_NAMES.test(name);
};

/** A mate's name without those characters (a card made elsewhere is not refused for them). */
export const withoutHiddenInMateName = (name: string): string =>
  name.replace(HIDDEN_IN_MATE_NAMES, '');
// More marks on one letter than any language writes: text that spills over its neighbours.
const STACKED_MARKS = /\p{M}{4}/u;

/**
 * A nickname someone chose, or a sign-in provider's display name: compatibility forms folded
 * (NFKC: a fullwidth "Ａ" or a mathematical bold "𝐀" is an "A"), surrounding spaces dropped
 * and runs of spaces made one; 1 to {@link NICKNAME_MAX_LENGTH} characters, at least one a
 * letter or a digit; no characters that draw nothing or turn text around (zero-width spaces,
 * fillers, bidirectional overrides) and no stacks of marks, with which a name could hide, pass
 * for another or spill over the page; and no e-mail address.
 */
export const chosenNickname = z
  .string()
  .transform((value) => value.normalize('NFKC').trim().replace(/\s+/g, ' '))
  .pipe(
    z
      .string()
      .min(1, 'is required')
      .max(NICKNAME_MAX_LENGTH, `must be at most ${NICKNAME_MAX_LENGTH} characters`)
      .refine((value) => !HIDDEN.test(value) && !BLANKS.test(value), {
        message: 'must not hold control or invisible characters',
      })
      .refine((value) => !STACKED_MARKS.test(value), {
        message: 'must not stack marks on one letter',
      })
      .refine((value) => /[\p{L}\p{N}]/u.test(value), {
        message: 'must hold a letter or a digit',
      })
      // A name shown to everyone is never a way to write to someone.
      .refine((value) => !/[^\s@]+@[^\s@]+\.[^\s@]+/u.test(value), {
        message: 'must not be an e-mail address',
      }),
  );

/**
 * Whether `nickname` is what new accounts used to be given: `email` up to the `@`, as it is
 * written there (whole, or its first 40 characters). Refused as a choice, so that a name shown
 * as it was (a form filled in before the change, say) is never published again; the same name
 * written otherwise ("Ada" for ada@…) is the person's own choice.
 */
export function isOldDefault(nickname: string, email: string): boolean {
  const localPart = email.split('@')[0]!;
  // Registration cut it at 40 characters; a sign-in without a name took it whole.
  return nickname === localPart || nickname === localPart.slice(0, 40);
}

/**
 * The nickname of a new account signed in through a provider: the display name it gave, where
 * that is a name the person could have chosen here (see `/user/updateNickname`), else a
 * generated one. So no stored nickname is ever an address or `email`'s part before the `@`.
 */
export function providedNickname(name: string, email: string): string {
  const parsed = chosenNickname.safeParse(name);
  return parsed.success && !isOldDefault(parsed.data, email) ? parsed.data : generatedNickname();
}
