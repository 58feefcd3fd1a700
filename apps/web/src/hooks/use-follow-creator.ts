import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useServices } from '../lib/services-context';
import { creatorKeys, mateKeys } from '../lib/query-keys';

/** Follows or unfollows a creator (the server toggles); every place that shows it refreshes. */
export function useFollowCreator(creatorId: string) {
  const { client } = useServices();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: () => client.mate.followCreator({ creatorId }),
    onSettled: () =>
      Promise.all([
        queries.invalidateQueries({ queryKey: creatorKeys.followed() }),
        queries.invalidateQueries({ queryKey: mateKeys.extras() }),
        queries.invalidateQueries({ queryKey: creatorKeys.info(creatorId) }),
      ]),
  });
}
