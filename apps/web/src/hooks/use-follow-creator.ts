import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useServices } from '../lib/services-context';

/** Follows or unfollows a creator (the server toggles); every place that shows it refreshes. */
export function useFollowCreator(creatorId: string) {
  const { client } = useServices();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: () => client.mate.followCreator({ creatorId }),
    onSettled: () =>
      Promise.all([
        queries.invalidateQueries({ queryKey: ['followList'] }),
        queries.invalidateQueries({ queryKey: ['mateExtra'] }),
        queries.invalidateQueries({ queryKey: ['creatorInfo', creatorId] }),
      ]),
  });
}
