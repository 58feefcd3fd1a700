import { useCallback, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Message } from '@mates/api-client';
import { useServices } from '../../lib/services-context';
import { refreshRoom } from './api/room-cache';

/**
 * What is done to one message of the conversation: the one being edited (`editing`), the one
 * whose editor just closed (focus goes back to its Edit button: `editClosed`, then
 * `editRefocused`), and the one to delete once confirmed (`doomed`, then `remove`).
 * `onRemoved` runs once a message is deleted.
 */
export function useMessageActions(roomId: string, onRemoved: () => void) {
  const { client } = useServices();
  const queries = useQueryClient();
  const [editing, setEditing] = useState<string | null>(null);
  const [editClosed, setEditClosed] = useState<string | null>(null);
  const editRefocused = useCallback(() => setEditClosed(null), []);
  const [doomed, setDoomed] = useState<Message | null>(null);
  const remove = useMutation({
    mutationFn: (messageId: string) => client.room.deleteMessage({ roomId, messageId }),
    onSuccess: () => {
      setDoomed(null);
      onRemoved();
    },
    onSettled: () => refreshRoom(queries, roomId),
  });
  /** The editor of `messageId` closed: focus goes back to its Edit button. */
  const closeEditor = (messageId: string) => {
    setEditing(null);
    setEditClosed(messageId);
  };
  return {
    editing,
    startEditing: setEditing,
    closeEditor,
    editClosed,
    editRefocused,
    /** The editor continues the conversation: focus is not sent back to Edit after it. */
    keepFocusAway: editRefocused,
    doomed,
    confirmDelete: setDoomed,
    cancelDelete: () => setDoomed(null),
    remove,
  };
}

/** What is done to the conversation's messages, as {@link useMessageActions} gives it. */
export type MessageActionsState = ReturnType<typeof useMessageActions>;
