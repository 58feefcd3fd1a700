import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@mates/api-client';

/** The query keys only Search uses (the trending ranking is shared: lib/query-keys). */
export const searchKeys = {
  /** The words people search for most. */
  hotWords: () => ['hotWords'] as const,
  /** The mates found for a keyword, page by page. */
  results: (keyword: string) => ['search', keyword] as const,
};

/** The words people search for most, offered under the search field. */
export const hotWordsQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: searchKeys.hotWords(),
    queryFn: ({ signal }) => client.mate.hotWords({ signal }),
  });
