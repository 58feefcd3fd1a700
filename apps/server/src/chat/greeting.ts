import type { MateTable } from '../db/schema';
import { fromJson } from '../db/dialect';
import { fillMacros } from './prompt';

/**
 * The greeting a group opens with: the first member's V3 `group_only_greetings` when its card
 * has some (the first; the others are its versions), else its greeting and alternates.
 */
function groupGreeting(mate: Pick<MateTable, 'card_extra' | 'first_mes' | 'alternate_greetings'>): {
  text: string;
  others: string[];
} {
  const extra = fromJson<Record<string, unknown>>(mate.card_extra, {});
  const groupOnly = Array.isArray(extra.group_only_greetings)
    ? extra.group_only_greetings.filter(
        (text): text is string => typeof text === 'string' && text.trim() !== '',
      )
    : [];
  if (groupOnly.length > 0) return { text: groupOnly[0]!, others: groupOnly.slice(1) };
  return { text: mate.first_mes, others: fromJson<string[]>(mate.alternate_greetings, []) };
}

/**
 * The versions of the greeting a chat opens with, `{{char}}` and `{{user}}` filled with `names`:
 * the greeting first, then its alternates (blank ones left out); in a group, the greeting for
 * groups (see {@link groupGreeting}). Empty when the greeting is blank: the chat opens without.
 */
export function greetingVersions(
  mate: Pick<MateTable, 'card_extra' | 'first_mes' | 'alternate_greetings'>,
  names: { char: string; user: string },
  inGroup: boolean,
): string[] {
  const { text, others } = inGroup
    ? groupGreeting(mate)
    : { text: mate.first_mes, others: fromJson<string[]>(mate.alternate_greetings, []) };
  const greeting = fillMacros(text, names);
  if (!greeting.trim()) return [];
  return [greeting, ...others.map((other) => fillMacros(other, names)).filter((t) => t.trim())];
}
