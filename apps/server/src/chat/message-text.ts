import { z } from 'zod';

/**
 * Something to read: a character that is none of white space, a control or format character
 * (`\p{Cc}`, `\p{Cf}`: U+200B–U+200D, U+2060, U+FEFF, direction marks …), a mark with nothing to
 * sit on (`\p{M}`: a variation selector, a combining mark alone), a code point drawn as nothing
 * (`Default_Ignorable_Code_Point`: the Hangul fillers U+3164, U+115F, U+FFA0 …) or the blank
 * braille cell. A joiner inside an emoji sequence, or an accent on a letter, stands beside what
 * it joins.
 */
const VISIBLE = /[^\s\p{Cc}\p{Cf}\p{M}\p{Default_Ignorable_Code_Point}\u2800]/u;

/** Whether anything in `text` can be seen (see {@link VISIBLE}). */
export const hasVisible = (text: string): boolean => VISIBLE.test(text);

/**
 * What a person writes in a chat, up to `max` characters, trimmed: refused as empty ("is
 * required") when nothing in it can be seen, not only when it is all spaces.
 */
export const personText = (max: number) =>
  z.string().trim().min(1, 'is required').max(max).refine(hasVisible, 'is required');
