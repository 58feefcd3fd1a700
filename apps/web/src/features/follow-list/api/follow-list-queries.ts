import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@mates/api-client';
import { creatorKeys } from '../../../lib/query-keys';

/** The creators the caller follows (its key is shared: a follow anywhere refreshes it). */
export const followedCreatorsQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: creatorKeys.followed(),
    queryFn: ({ signal }) => client.mate.followList({ signal }),
  });
