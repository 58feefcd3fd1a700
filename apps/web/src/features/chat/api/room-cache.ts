import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Message, RoomInfo } from '@mates/api-client';
import { roomKeys } from '../../../lib/query-keys';

// What the chat writes into a room's cached messages itself, without reading the room again:
// a picture's progress, a picture just asked for.

/** Changes one message of a room as the cache holds it. */
export function patchMessage(
  queries: QueryClient,
  roomId: string,
  messageId: string,
  patch: (message: Message) => Message,
) {
  queries.setQueryData<InfiniteData<RoomInfo>>(roomKeys.messages(roomId), (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            messages: page.messages.map((message) =>
              message.messageId === messageId ? patch(message) : message,
            ),
          })),
        }
      : data,
  );
}

/** Adds a message after the newest one of a room as the cache holds it (once). */
export function appendMessage(queries: QueryClient, roomId: string, message: Message) {
  queries.setQueryData<InfiniteData<RoomInfo>>(roomKeys.messages(roomId), (data) => {
    if (!data) return data;
    // The first page holds the newest messages (see roomMessagesQuery).
    const pages = [...data.pages];
    const newest = pages[0]!;
    if (newest.messages.some((m) => m.messageId === message.messageId)) return data;
    pages[0] = { ...newest, messages: [...newest.messages, message] };
    return { ...data, pages };
  });
}

/**
 * Reads a room's messages again (after a change the server made: an edit, a reply, a delete, a
 * version chosen), and the lists of chats, whose preview is the room's last message: it kept
 * the words before the change until a reload.
 */
export function refreshRoom(queries: QueryClient, roomId: string) {
  // Answered once the messages are read: the list is not waited for.
  void queries.invalidateQueries({ queryKey: roomKeys.lists() });
  return queries.invalidateQueries({ queryKey: roomKeys.messages(roomId) });
}
