import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@mates/api-client';
import type { UserStore } from '@mates/state-machines';
import { mateKeys, serverKeys, userKeys } from './query-keys';

// The reads more than one part of the app makes, written once: the same key always comes with
// the same call, so two screens share one cached answer. `useQuery({ ...factory(), enabled })`
// adds what only one screen wants.

/** The signed-in person's personas. */
export const personasQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: userKeys.personas(),
    queryFn: ({ signal }) => client.user.personas({ signal }),
  });

/** The signed-in person's favorite mates. */
export const favoritesQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: userKeys.favorites(),
    queryFn: ({ signal }) => client.user.favorites({ signal }),
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

/** The tag groups, as the server labels them (translated by the caller); they seldom change. */
export const tagGroupsQuery = (client: ApiClient, language: string) =>
  queryOptions({
    queryKey: serverKeys.tags(language),
    queryFn: ({ signal }) => client.extra.tagsMap({ signal }),
    staleTime: Infinity,
  });

/**
 * The voices text to speech offers. Not retried: a server without speech says so at once, and
 * the voice buttons are then just not shown.
 */
export const voicesQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: serverKeys.voices(),
    queryFn: ({ signal }) => client.voice.voices({ signal }),
    retry: false,
    staleTime: 5 * 60_000,
  });

/** The public configuration: it does not change while the app runs. */
export const publicConfigQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: serverKeys.publicConfig(),
    queryFn: ({ signal }) => client.extra.publicConfig({ signal }),
    staleTime: Infinity,
  });
