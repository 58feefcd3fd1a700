import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@mates/api-client';

/** The query keys of the shop and the subscription page. */
export const shopKeys = {
  /** `/subscription/info` for anyone (a purchase or a plan change refreshes it). */
  subscription: () => ['subscription', 'info'] as const,
  /** `/subscription/info` for one viewer (a visitor gets the packages and costs). */
  subscriptionFor: (viewer: string | null) => [...shopKeys.subscription(), viewer] as const,
  /** What the person spent and got, page by page. */
  ledger: () => ['ledger'] as const,
  /** The person's daily spending caps. */
  spendingCap: () => ['spendingCap'] as const,
};

/** `/subscription/info`, for whoever is signed in (`viewer`, null for a visitor). */
export const subscriptionInfoQuery = (client: ApiClient, viewer: string | null) =>
  queryOptions({
    queryKey: shopKeys.subscriptionFor(viewer),
    queryFn: ({ signal }) => client.subscription.info({ signal }),
  });

/** The person's daily spending caps. */
export const spendingCapQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: shopKeys.spendingCap(),
    queryFn: ({ signal }) => client.user.spendingCap({ signal }),
  });
