import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/store-react';
import { useServices } from '../../lib/services-context';
import { subscriptionInfoQuery } from './api/shop-queries';

/** `/subscription/info`, for whoever is signed in (a visitor gets the packages and costs). */
export function useSubscriptionInfo() {
  const { client, store } = useServices();
  const viewer = useSelector(store, (state) => state.context.userInfo.uuid ?? null);
  return useQuery(subscriptionInfoQuery(client, viewer));
}

/** "3,000 chats" and "1 gold coin": plural rules and the language's digits. */
export function useAmounts() {
  const { t } = useTranslation();
  return {
    chats: (count: number) => t('common.chats', { count }),
    goldCoins: (count: number) => t('common.goldCoins', { count }),
  };
}

/** The number in a count the UI kit has already formatted ("3,000" → 3000). */
export const countOf = (formatted: string): number => Number(formatted.replace(/\D/g, ''));

/** A date as the language writes it, e.g. "24 Dec 2026". */
export function useDate() {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  return (iso: string) => format.format(new Date(iso));
}
