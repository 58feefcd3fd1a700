import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@mates/api-client';

/** The query keys only the chat's profile uses (the chat's messages: lib/query-keys). */
export const chatProfileKeys = {
  /** The room, read for its mate. */
  room: (roomId: string) => ['roomProfile', roomId] as const,
  /** The room's pictures, page by page. */
  pictures: (roomId: string) => ['roomPictures', roomId] as const,
};

/** The room, for its mate only: the newest message page is kept as small as the server allows. */
export const roomProfileQuery = (client: ApiClient, roomId: string) =>
  queryOptions({
    queryKey: chatProfileKeys.room(roomId),
    queryFn: ({ signal }) => client.room.roomInfo({ roomId, pageSize: 1 }, { signal }),
  });
