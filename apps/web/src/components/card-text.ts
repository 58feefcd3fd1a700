import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/store-react';
import { useServices } from '../lib/services-context';

/**
 * Card text as a reader meets it, with SillyTavern's macros as a chat fills them (the server's
 * `cards/card-macros.ts`): `{{// notes}}` for creators and `{{noop}}` taken out, `{{newline}}` a
 * line break, `{{trim}}` taken out with the line breaks around it; a `{{random}}` or `{{pick}}`
 * shows its first choice and a `{{roll:d20}}` its dice (a chat makes its own); then `{{char}}`
 * (V1: `<BOT>`) is the mate and `{{user}}` (V1: `<USER>`) the reader. Names go in last, each
 * through a function: as replacement strings, `$&` or `$'` in a name would expand into the text
 * around it, and a `{{user}}` in the mate's name would be filled too.
 */
export const fillMacros = (text: string, name: string, reader: string): string => {
  const shown = text.includes('{{') ? withoutCardMacros(text) : text;
  return shown.replace(/\{\{(char|user)\}\}|<(bot|user)>/gi, (_, macro?: string, v1?: string) =>
    (macro ?? v1)!.toLowerCase() === 'user' ? reader : name,
  );
};

/** Card text without the macros that are for the card (see {@link fillMacros}). */
function withoutCardMacros(text: string): string {
  return withoutTrims(withoutNotes(text))
    .replace(/\{\{noop\}\}/gi, '')
    .replace(/\{\{newline\}\}/gi, '\n')
    .replace(
      /\{\{(?:random|pick)\s?::?((?:[^{}]|\{\{(?:char|user)\}\})*)\}\}|\{\{roll[ :]([^{}]*)\}\}/gi,
      (macro: string, list: string | undefined, dice: string | undefined) =>
        dice !== undefined ? (diceOf(dice) ?? macro) : (firstChoice(list ?? '') ?? ''),
    );
}

/**
 * A `{{roll}}`'s dice as written (`2d6+1`, `d20`, `20`), or `null` for what the server throws no
 * dice for (it leaves that as written): longer than 32 characters, or not dice.
 */
function diceOf(formula: string): string | null {
  const dice = formula.replace(/\s+/g, '');
  return formula.length <= 32 && /^(\d{0,3}d\d{1,7}([+-]\d{1,7})?|\d{1,7})$/i.test(dice)
    ? dice
    : null;
}

/** A `{{random}}` list's first choice, split as SillyTavern splits it (`::`, else commas). */
function firstChoice(list: string): string | undefined {
  if (list.includes('::')) return list.split('::')[0];
  return list
    .split(/(?<!\\),/)[0]
    ?.replaceAll('\\,', ',')
    .trim();
}

/**
 * `text` without its `{{// notes}}`, a macro inside one passed over whole; one never closed is
 * left as written. Read by hand: a lazy pattern would read a long text again from each `{{//`.
 */
function withoutNotes(text: string): string {
  let kept = '';
  let from = 0;
  for (let open = text.indexOf('{{//'); open >= 0; open = text.indexOf('{{//', from)) {
    let depth = 0;
    let close = -1;
    for (let at = open + 4; at < text.length - 1 && close < 0; at++) {
      if (text.startsWith('{{', at)) {
        depth++;
        at++;
      } else if (text.startsWith('}}', at)) {
        if (depth === 0) close = at + 2;
        else depth--;
        at++;
      }
    }
    if (close < 0) break;
    kept += text.slice(from, open);
    from = close;
  }
  return kept + text.slice(from);
}

/** `text` without its `{{trim}}`s and the line breaks on either side of each. */
function withoutTrims(text: string): string {
  const parts = text.split(/\{\{trim\}\}/i);
  if (parts.length === 1) return text;
  return parts
    .map((part, index) => {
      let start = 0;
      let end = part.length;
      if (index > 0)
        while (start < end && (part[start] === '\n' || part.startsWith('\r\n', start)))
          start += part[start] === '\r' ? 2 : 1;
      if (index < parts.length - 1)
        while (end > start && part[end - 1] === '\n') end -= part[end - 2] === '\r' ? 2 : 1;
      return part.slice(start, end);
    })
    .join('');
}

/**
 * The name `{{user}}` stands for in card text: the signed-in person's nickname, or "User" for a
 * visitor. Never "You": card text is mostly third person ("{{user}} has agreed"), and a pronoun
 * there reads as "You has agreed". (The chat itself gets the persona's name from the server.)
 */
export function useReaderName(): string {
  const { t } = useTranslation();
  const { store } = useServices();
  const nickname = useSelector(store, (state) => state.context.userInfo.nickname);
  return nickname?.trim() || t('common.reader');
}
