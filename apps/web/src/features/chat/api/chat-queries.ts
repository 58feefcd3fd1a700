import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@mates/api-client';
import { roomKeys } from '../../../lib/query-keys';

/** The query keys only the chat uses (a room's messages and its list are in `lib/query-keys`). */
export const chatKeys = {
  /** The image models the server offers. */
  imageModels: () => ['aigc', 'models'] as const,
  /**
   * A room's memories, as the Memory panel shows them. Under the room's messages: refreshing
   * the room after an edit, a delete or a reply reads them again too (an edited message marks
   * the memories made from it to be checked; a reply may set the writer going).
   */
  memories: (roomId: string) => ['room', roomId, 'memories'] as const,
  /** The prompt of a room's last reply ("What the mate sees"). */
  promptView: (roomId: string) => ['room', roomId, 'promptView'] as const,
  /**
   * Every chat's paths: refreshed whole after a branch is made or deleted (the paths of the
   * chat are read under each of its rooms, and a new or deleted path changes them all).
   */
  allBranches: () => ['branches'] as const,
  /** The paths of the chat a room belongs to (its branches and where they fork). */
  branches: (roomId: string) => [...chatKeys.allBranches(), roomId] as const,
};

/** How many messages a page of the conversation holds. */
const MESSAGES_PAGE_SIZE = 50;

/**
 * The room's messages: the newest page first, each further page the one before it. Kept in that
 * order because a refresh reads pages from the first, each from the one before: it then reads
 * the newest messages and as many earlier pages as were loaded (oldest first, it lost the rest).
 */
export const roomMessagesQuery = (client: ApiClient, roomId: string) =>
  infiniteQueryOptions({
    queryKey: roomKeys.messages(roomId),
    queryFn: ({ pageParam, signal }) =>
      client.room.roomInfo(
        { roomId, pageSize: MESSAGES_PAGE_SIZE, ...(pageParam ? { before: pageParam } : {}) },
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (older) =>
      older.hasMoreBefore ? (older.messages[0]?.messageId ?? undefined) : undefined,
  });

/**
 * The image models the server offers. Quiet and not retried: a server without pictures says so
 * (5007), and nobody asked; the picture button is just not shown.
 */
export const imageModelsQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: chatKeys.imageModels(),
    queryFn: ({ signal }) => client.aigc.models({ signal, quiet: true }),
    retry: false,
    staleTime: 5 * 60_000,
  });

/** How often a room's memories are read again while the mate is writing them. */
export const MEMORIES_POLL_MS = 3000;

/**
 * A room's memories: summary, pinned facts, then the others newest first, and the writer's
 * state. Read again every few seconds while the writer is writing, until it is idle or failed.
 */
export const roomMemoriesQuery = (client: ApiClient, roomId: string) =>
  queryOptions({
    queryKey: chatKeys.memories(roomId),
    queryFn: ({ signal }) => client.room.memories({ roomId }, { signal }),
    refetchInterval: (query) =>
      query.state.data?.writer.state === 'writing' ? MEMORIES_POLL_MS : false,
  });

/** The prompt of a room's last reply, part by part; read afresh each time it is opened. */
export const promptViewQuery = (client: ApiClient, roomId: string) =>
  queryOptions({
    queryKey: chatKeys.promptView(roomId),
    queryFn: ({ signal }) => client.room.promptView({ roomId }, { signal }),
    staleTime: 0,
  });

/**
 * The paths of the chat a room belongs to, oldest first. Without them the chat still shows,
 * only without its switchers; the Branches view says the failure itself.
 */
export const roomBranchesQuery = (client: ApiClient, roomId: string) =>
  queryOptions({
    queryKey: chatKeys.branches(roomId),
    queryFn: ({ signal }) => client.room.branches({ roomId }, { signal }),
  });
