import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@mates/api-client';
import type { UserStore } from '@mates/state-machines';
import { mateKeys, userKeys } from './query-keys';

// The reads more than one feature makes, written once: the same key always comes with the same
// call, so two screens share one cached answer. `useQuery({ ...factory(), enabled })` adds what
// only one screen wants. A read only one shared hook or component makes is written beside it
// (favorites, tags, voices, the public configuration): this module loads with the screens that
// use it, not with the first screen.

/** The signed-in person's personas. */
export const personasQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: userKeys.personas(),
    queryFn: ({ signal }) => client.user.personas({ signal }),
  });

/** What the person has left, read fresh; the store (and so the header) holds it. */
export const benefitsQuery = (client: ApiClient, store: UserStore) =>
  queryOptions({
    queryKey: userKeys.benefits(),
    queryFn: async ({ signal }) => {
      const benefits = await client.user.benefits({ signal });
      store.trigger.benefitsChanged({ benefits });
      return benefits;
    },
  });

/** One mate's card. */
export const mateDetailQuery = (client: ApiClient, mateId: string) =>
  queryOptions({
    queryKey: mateKeys.detail(mateId),
    queryFn: ({ signal }) => client.mate.getMateDetail({ mateId }, { signal }),
  });

/** The trending ranking. */
export const trendingQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: mateKeys.trending(),
    queryFn: ({ signal }) => client.mate.trendingRank({ signal }),
  });
