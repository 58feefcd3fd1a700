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
 * be after the room was read again. While the saved reply is the start of what was shown, and
 * shorter (`catchingUp`: saved as it grew, not yet at the stop), the shown text stays on screen,
 * and the room is read again, up to ten times 300 ms apart. A saved reply that says something
 * else (another version chosen, an edit) is the truth at once; anything the person does to the
 * room meanwhile (an edit, a version chosen, a regeneration, a delete, a send) ends the wait
 * (`stopWaiting`).
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
    savedBehind(savedReply?.content ?? '', reply.replyText);
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

/**
 * Whether `saved` is what was shown, saved only in part: the start of it, shorter. Another
 * version (or an edit) says something else, and is not waited on.
 */
function savedBehind(saved: string, shown: string) {
  return saved.length < shown.length && shown.startsWith(saved);
}

/** A stopped reply being saved, as {@link useStoppedReply} gives it. */
export type StoppedReply = ReturnType<typeof useStoppedReply>;
