import { z } from 'zod';

/**
 * Something to read: a character that is neither white space nor an invisible format character
 * (`\p{Cf}`: U+200B–U+200D, U+2060, U+FEFF, the soft hyphen, direction marks …). A joiner inside
 * an emoji sequence stands beside what it joins.
 */
const VISIBLE = /[^\s\p{Cf}]/u;

/**
 * What a person writes in a chat, up to `max` characters, trimmed: refused as empty ("is
 * required") when nothing in it can be seen, not only when it is all spaces.
 */
export const personText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'is required')
    .max(max)
    .refine((text) => VISIBLE.test(text), 'is required');
