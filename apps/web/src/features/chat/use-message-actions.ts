import { useCallback, useEffect, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Message } from '@mates/api-client';
import { useServices } from '../../lib/services-context';
import { refreshRoom } from './api/room-cache';
import { messageElementId } from './use-jump-to-message';

/**
 * What is done to one message of the conversation: the one being edited (`editing`), the one
 * whose editor just closed (focus goes back to its Edit button: `editClosed`, then
 * `editRefocused`), the reply a regeneration replaces (the new reply's Regenerate button takes
 * the focus the pressed one lost: `regenerated`, then `regenerateRefocused`), and the one to
 * delete once confirmed (`doomed`, then `remove`: see {@link useFocusAfterDelete}).
 * `onRemoved` runs once a message is deleted.
 */
export function useMessageActions(roomId: string, onRemoved: () => void) {
  const { client } = useServices();
  const queries = useQueryClient();
  const [editing, setEditing] = useState<string | null>(null);
  const [editClosed, setEditClosed] = useState<string | null>(null);
  const editRefocused = useCallback(() => setEditClosed(null), []);
  const [regenerated, setRegenerated] = useState<string | null>(null);
  const regenerateRefocused = useCallback(() => setRegenerated(null), []);
  const [doomed, setDoomed] = useState<Message | null>(null);
  const [removed, setRemoved] = useState<Removed | null>(null);
  const remove = useMutation({
    mutationFn: ({ messageId }: Removed) => client.room.deleteMessage({ roomId, messageId }),
    onSuccess: (_done, deleted) => {
      setDoomed(null);
      setRemoved(deleted);
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
    regenerated,
    /** The reply `messageId` is being written again (its Regenerate button goes meanwhile). */
    regenerating: setRegenerated,
    regenerateRefocused,
    removed,
    /** The focus was placed after the deletion (or did not need to be). */
    removedRefocused: () => setRemoved(null),
    doomed,
    confirmDelete: setDoomed,
    cancelDelete: () => setDoomed(null),
    remove,
  };
}

/** A message deleted, and the one beside it that takes the focus (`null`: the message box). */
export interface Removed {
  messageId: string;
  neighbour: string | null;
}

/**
 * After a confirmed deletion, once the message is gone from `messages`: if the focus went with
 * it (the dialog gives it back to the message's Delete button, which then goes), or is still in
 * the closing dialog, it moves to
 * the same button of the message beside it (the message itself, when it has none), or to the
 * message box when no message is left.
 */
export function useFocusAfterDelete(
  { removed, removedRefocused }: Pick<MessageActionsState, 'removed' | 'removedRefocused'>,
  messages: readonly Message[],
) {
  const gone = removed !== null && !messages.some((m) => m.messageId === removed.messageId);
  useEffect(() => {
    if (!gone) return;
    removedRefocused();
    // Still in the confirmation, closing (over 300 ms: the room may be read again sooner), it
    // would give the focus back to the deleted message's button, gone by then.
    const focused = document.activeElement;
    const lost =
      !focused ||
      focused === document.body ||
      !focused.isConnected ||
      focused.closest('[role="dialog"]') !== null;
    if (!lost) return;
    const beside = removed.neighbour
      ? document.getElementById(messageElementId(removed.neighbour))
      : null;
    // Found by what they are, not by their names: a name changes with the language.
    const target =
      beside?.querySelector<HTMLElement>('button[data-message-action="delete"]') ??
      beside ??
      document.querySelector<HTMLElement>('[data-chat-composer] textarea');
    target?.focus();
  }, [gone, removed, removedRefocused]);
}

/** What is done to the conversation's messages, as {@link useMessageActions} gives it. */
export type MessageActionsState = ReturnType<typeof useMessageActions>;
