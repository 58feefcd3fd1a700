import { infiniteQueryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@mates/api-client';

/** The query keys only Recent chats uses (the room list is shared: lib/query-keys). */
export const recentChatsKeys = {
  /** The messages of the person's chats that hold these words, page by page. */
  messageSearch: (keyword: string) => ['messageSearch', keyword] as const,
};

/** How many hits a page of message search holds. */
const HITS_PAGE_SIZE = 20;

/** The fewest characters a message search is sent for (one letter would match nearly all). */
export const MESSAGE_SEARCH_MIN_LENGTH = 2;

/**
 * The messages of the person's chats that hold `keyword`, newest first, a page at a time ("Show
 * more"). Read afresh each time the search is made again: a chat may have moved on since.
 */
export const messageSearchQuery = (client: ApiClient, keyword: string) =>
  infiniteQueryOptions({
    queryKey: recentChatsKeys.messageSearch(keyword),
    queryFn: ({ pageParam, signal }) =>
      client.room.searchMessages(
        { keyword, page: pageParam, pageSize: HITS_PAGE_SIZE },
        { signal },
      ),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
    enabled: keyword.length >= MESSAGE_SEARCH_MIN_LENGTH,
    staleTime: 0,
  });
