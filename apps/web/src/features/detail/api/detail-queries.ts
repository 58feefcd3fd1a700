import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@mates/api-client';
import { mateKeys } from '../../../lib/query-keys';

// A mate's page reads the mate's card (`mateDetailQuery` in lib/queries, shared with the studio)
// and what the caller has with it; both keys are shared (lib/query-keys), since a favorite, a
// follow or a moderator's action elsewhere refreshes them.

/** What the caller has with a mate (favorite, follow, reviews): it depends on who is asking. */
export const mateExtraQuery = (client: ApiClient, mateId: string, signedIn: boolean) =>
  queryOptions({
    queryKey: mateKeys.extraFor(mateId, signedIn),
    queryFn: ({ signal }) => client.mate.mateExtraInfo({ mateId }, { signal }),
  });
