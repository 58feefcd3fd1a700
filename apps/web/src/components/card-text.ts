import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/store-react';
import { useServices } from '../lib/services-context';

/**
 * Card macros as a reader sees them: `{{char}}` is the mate, `{{user}}` the reader. Both in one
 * pass, each name through a function: as replacement strings, `$&` or `$'` in a name would
 * expand into the text around it, and a `{{user}}` in the mate's name would be filled too.
 */
export const fillMacros = (text: string, name: string, reader: string): string =>
  text.replace(/\{\{(char|user)\}\}/gi, (_, macro: string) =>
    macro.toLowerCase() === 'char' ? name : reader,
  );

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
