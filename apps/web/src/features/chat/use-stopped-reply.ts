import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Message } from '@mates/api-client';
import { refreshRoom } from './api/room-cache';
import type { ReplyStream } from './use-reply-stream';

/** How many times the room is read again while a stopped reply is being saved. */
const MAX_READS = 10;
/** Milliseconds between those reads. */
const READ_EVERY_MS = 300;

/**
 * A reply the person stopped. The server saves what had arrived once it sees the stop, which may
 * be after the room was read again. Until the saved reply holds at least what was shown
 * (`catchingUp`), the shown text stays on screen, and the room is read again, up to ten times
 * 300 ms apart; anything the person does to the room meanwhile (an edit, a delete, a send)
 * ends the wait (`stopWaiting`).
 */
export function useStoppedReply(
  roomId: string,
  room: { messages: Message[]; dataUpdatedAt: number },
  { reply, aborted }: Pick<ReplyStream, 'reply' | 'aborted'>,
) {
  const queries = useQueryClient();
  const [awaitingSave, setAwaitingSave] = useState<string | null>(null);
  useEffect(() => {
    if (aborted && reply.replyText && reply.replyMessageId) setAwaitingSave(reply.replyMessageId);
  }, [aborted, reply.replyText, reply.replyMessageId]);
  const savedReply = room.messages.find((message) => message.messageId === awaitingSave);
  const catchingUp =
    aborted &&
    awaitingSave !== null &&
    awaitingSave === reply.replyMessageId &&
    (savedReply?.content.length ?? 0) < reply.replyText.length;
  const reads = useRef(0);
  useEffect(() => {
    if (!catchingUp) {
      reads.current = 0;
      return;
    }
    if (reads.current >= MAX_READS) return setAwaitingSave(null);
    const timer = setTimeout(() => {
      reads.current += 1;
      void refreshRoom(queries, roomId);
    }, READ_EVERY_MS);
    return () => clearTimeout(timer);
  }, [catchingUp, room.dataUpdatedAt, queries, roomId]);
  const stopWaiting = useCallback(() => setAwaitingSave(null), []);
  return { catchingUp, savedReply, stopWaiting };
}

/** A stopped reply being saved, as {@link useStoppedReply} gives it. */
export type StoppedReply = ReturnType<typeof useStoppedReply>;
