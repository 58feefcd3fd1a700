import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/store-react';
import { useServices } from '../lib/services-context';

/**
 * Card macros as a reader sees them: `{{char}}` (V1: `<BOT>`) is the mate, `{{user}}` (V1:
 * `<USER>`) the reader. All in one pass, each name through a function: as replacement strings,
 * `$&` or `$'` in a name would expand into the text around it, and a `{{user}}` in the mate's
 * name would be filled too.
 */
export const fillMacros = (text: string, name: string, reader: string): string =>
  text.replace(/\{\{(char|user)\}\}|<(bot|user)>/gi, (_, macro?: string, v1?: string) =>
    (macro ?? v1)!.toLowerCase() === 'user' ? reader : name,
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
