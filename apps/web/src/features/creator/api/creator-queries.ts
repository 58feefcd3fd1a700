import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@mates/api-client';
import { creatorKeys } from '../../../lib/query-keys';

/** The query keys only the creator's page uses (their page's own key is shared: lib/query-keys). */
export const creatorPageKeys = {
  /** A creator's public mates, page by page. */
  mates: (creatorId: string) => ['creatorMates', creatorId] as const,
};

/** A creator's page: whether the caller follows (or is) them depends on who is signed in. */
export const creatorInfoQuery = (client: ApiClient, creatorId: string, signedIn: boolean) =>
  queryOptions({
    queryKey: creatorKeys.infoFor(creatorId, signedIn),
    queryFn: ({ signal }) => client.mate.creatorInfo({ creatorId }, { signal }),
  });
