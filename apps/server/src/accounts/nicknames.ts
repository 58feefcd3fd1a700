import { randomInt } from 'node:crypto';
import { z } from 'zod';

/** The longest nickname, in characters (the column's rule since the first migration). */
export const NICKNAME_MAX_LENGTH = 40;

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

/**
 * A nickname someone chose: surrounding spaces dropped and runs of spaces made one; 1 to
 * {@link NICKNAME_MAX_LENGTH} characters; no control characters, and no characters that draw
 * nothing or turn text around (zero-width spaces, bidirectional overrides), with which one
 * name could pass for another.
 */
export const chosenNickname = z
  .string()
  .transform((value) => value.normalize('NFC').trim().replace(/\s+/g, ' '))
  .pipe(
    z
      .string()
      .min(1, 'is required')
      .max(NICKNAME_MAX_LENGTH, `must be at most ${NICKNAME_MAX_LENGTH} characters`)
      .refine((value) => !/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(value), {
        message: 'must not hold control or invisible characters',
      }),
  );
