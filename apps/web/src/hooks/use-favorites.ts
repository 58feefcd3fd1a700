import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiClient } from '@mates/api-client';
import { useServices } from '../lib/services-context';
import { mateKeys, userKeys } from '../lib/query-keys';
import { useSignedIn, useSignedInAction } from '../components/sign-in-gate';

/** The signed-in person's favorite mates. */
const favoritesQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: userKeys.favorites(),
    queryFn: ({ signal }) => client.user.favorites({ signal }),
  });

/** The signed-in user's favorites as a set of ids, and a toggle that asks a visitor to sign in. */
export function useFavorites() {
  const { client } = useServices();
  const signedIn = useSignedIn();
  const signedInAction = useSignedInAction();
  const queries = useQueryClient();
  const favorites = useQuery({ ...favoritesQuery(client), enabled: signedIn });
  const toggle = useMutation({
    mutationFn: (mateId: string) => client.user.doFavorite({ mateId }),
    onSettled: (_data, _error, mateId) =>
      Promise.all([
        queries.invalidateQueries({ queryKey: userKeys.favorites() }),
        queries.invalidateQueries({ queryKey: mateKeys.extra(mateId) }),
      ]),
  });
  const ids = new Set((favorites.data ?? []).map((mate) => mate.mateId));
  return {
    favorites,
    isFavorite: (mateId: string) => ids.has(mateId),
    toggle: (mateId: string) => signedInAction(() => toggle.mutate(mateId)),
  };
}
