import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import type { Paged } from '@mates/api-client';

/** A paged list read a page at a time ("show more"), flattened. */
export function usePaged<T>(
  queryKey: QueryKey,
  fetchPage: (page: number, signal: AbortSignal) => Promise<Paged<T>>,
  options: {
    enabled?: boolean;
    /**
     * Fetch again every time a page showing the list opens, even when the cached copy is
     * fresh: for lists other screens change (a chat started on a mate's page, a reply sent).
     * The cached copy shows until the new one arrives.
     */
    always?: boolean;
  } = {},
) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
    enabled: options.enabled ?? true,
    refetchOnMount: options.always ? 'always' : true,
  });
  return {
    query,
    items: query.data?.pages.flatMap((page) => page.list) ?? [],
    total: query.data?.pages[0]?.total ?? 0,
    more: {
      has: query.hasNextPage,
      loading: query.isFetchingNextPage,
      load: () => void query.fetchNextPage(),
    },
  };
}
