import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { groupChatMachine } from '@mates/state-machines';
import { useServices } from '../../lib/services-context';
import { roomKeys } from '../../lib/query-keys';
import { chatKeys } from './api/chat-queries';
import { refreshRoom } from './api/room-cache';

/**
 * A room's reply stream (`groupChatMachine`, which runs a one-to-one room as
 * `chatStreamMachine` does, and a group's several speakers in one stream): what is being sent
 * and written now, and what became of it. Once a reply ends, the saved messages are the truth again (here and in the chat
 * list's previews); the benefits follow `reply-end`.
 */
export function useReplyStream(roomId: string) {
  const { client, store, platform } = useServices();
  const queries = useQueryClient();
  const chat = useActorRef(groupChatMachine, { input: { client, roomId, platform } });
  const busy = useSelector(chat, (state) => state.hasTag('busy'));
  // Refused for now (the model still loading): sent again by itself, unless cancelled.
  const waiting = useSelector(chat, (state) => state.hasTag('waiting'));
  // Refused because the server has no language model: the chat says how one is set up.
  const noModel = useSelector(
    chat,
    (state) => state.matches('failed') && state.context.failureReason === 'model-missing',
  );
  const reply = useSelector(chat, (state) => state.context);
  const finished = useSelector(
    chat,
    (state) => state.matches('done') || state.matches('failed') || state.matches('aborted'),
  );
  const aborted = useSelector(chat, (state) => state.matches('aborted'));
  // A regeneration writes the reply as a new message: a path forked at it now forks there.
  const regenerating = useSelector(chat, (state) => {
    const { request } = state.context;
    return request !== null && 'regenerate' in request && request.regenerate === true;
  });

  // Whether the room was read again since the turn ended: until then what the stream wrote is
  // drawn from the stream, so the conversation never drops back to what it was before the send.
  const [readAgain, setReadAgain] = useState(true);
  useEffect(() => {
    if (!busy) return;
    setReadAgain(false);
    // From the send on, the room as cached is older than the server's, whatever becomes of this
    // screen: one the person leaves mid-reply never reads it again itself, and the chat they
    // come back to (by a link, or Back and Forward) would show it without their message and
    // what was written. Marked stale only: nothing is read while the stream draws the turn.
    void queries.invalidateQueries({ queryKey: roomKeys.messages(roomId), refetchType: 'none' });
    void queries.invalidateQueries({ queryKey: roomKeys.lists(), refetchType: 'none' });
  }, [busy, queries, roomId]);
  useEffect(() => {
    if (!finished) return;
    if (reply.benefits) store.trigger.benefitsChanged({ benefits: reply.benefits });
    void refreshRoom(queries, roomId).finally(() => setReadAgain(true));
    if (regenerating) void queries.invalidateQueries({ queryKey: chatKeys.allBranches() });
  }, [finished, reply.benefits, queries, roomId, store, regenerating]);
  const settling = finished && !readAgain;

  return { chat, busy, waiting, noModel, reply, finished, aborted, settling };
}

/** A room's reply stream, as {@link useReplyStream} gives it. */
export type ReplyStream = ReturnType<typeof useReplyStream>;
