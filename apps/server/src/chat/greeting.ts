import type { MateTable } from '../db/schema';
import { fromJson } from '../db/dialect';
import { fillCardMacros } from '../cards/card-macros';

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
 * The versions of the greeting a chat opens with, its macros filled (`{{char}}` and `{{user}}`
 * with `names`; see `fillCardMacros`), chosen by `chatId` so that the chat's greeting is filled
 * the same whenever it is filled again: the greeting first, then its alternates (blank ones
 * left out); in a group, the greeting for groups (see {@link groupGreeting}). Empty when the
 * greeting is blank: the chat opens without.
 */
export function greetingVersions(
  mate: Pick<MateTable, 'card_extra' | 'first_mes' | 'alternate_greetings'>,
  names: { char: string; user: string },
  inGroup: boolean,
  chatId: string,
): string[] {
  const { text, others } = inGroup
    ? groupGreeting(mate)
    : { text: mate.first_mes, others: fromJson<string[]>(mate.alternate_greetings, []) };
  const fill = (written: string, version: number) =>
    fillCardMacros(written, names, { seed: `${chatId}\0greeting ${version}` });
  const greeting = fill(text, 0);
  if (!greeting.trim()) return [];
  return [greeting, ...others.map((other, at) => fill(other, at + 1)).filter((t) => t.trim())];
}
