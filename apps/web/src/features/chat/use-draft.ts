import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { RoomInfo } from '@mates/api-client';
import { useServices } from '../../lib/services-context';
import { DRAFTS_KEY, readDraft, withUnsent, withoutUnsent, writeDraft } from '../../lib/drafts';
import { roomKeys } from '../../lib/query-keys';
import { refreshRoom } from './api/room-cache';
import type { ReplyStream } from './use-reply-stream';

/** How many of a room's newest messages tell whether a message sent was saved. */
const NEWEST_CHECKED = 10;

/**
 * A message whose fate the page never heard, not found among the room's messages, goes back in
 * the box at once; but a request cut by Stop may still be on its way to the server (a slow
 * uplink). The room is looked at again after these many milliseconds (each after the one
 * before), even from a page loaded meanwhile: found there, the message is shown in the room and
 * taken out of the box again, unless the person has changed it there.
 */
const LATER_LOOKS_MS = [1_500, 3_500];

/**
 * What is typed in a room's message box, kept on this device as it is typed (`lib/drafts.ts`):
 * a reload, a visit to another page or a closed tab finds it again, and another tab on the same
 * room shows the same text. A message sent stays kept until the server has saved it. One the
 * server refused before keeping it (no chats left, the model loading and the wait cancelled, the
 * page's code replaced by a new version) goes back into the box, before whatever was typed
 * since; one whose fate the page never heard (the tab closed, or Stop pressed, before the server
 * said it was saved) goes back only if the room's newest messages do not hold it, and out again if they come to
 * hold it within a few seconds (it was still on its way). Nothing a person wrote is lost, nor
 * left shown twice. Answers the text, its setter, and `sent`, to call with a message as it is sent.
 */
export function useDraft(chat: ReplyStream['chat'], roomId: string) {
  const { storage, client } = useServices();
  const queries = useQueryClient();
  const [kept] = useState(() => readDraft(storage, roomId));
  const [draft, setDraftState] = useState(kept.text);
  const typed = useRef(kept.text);
  // The message sent and not yet known saved: kept on the device meanwhile.
  const sending = useRef<string | null>(kept.sending);
  // One whose fate is unknown, to look for among the room's messages.
  const [unsure, setUnsure] = useState<string | null>(kept.sending);
  // Whether the unsure one was stopped on this page (whose end reads the room again itself).
  const stoppedHere = useRef(false);

  const keep = useCallback(
    () => writeDraft(storage, roomId, { text: typed.current, sending: sending.current }),
    [storage, roomId],
  );
  const setDraft = useCallback(
    (text: string) => {
      typed.current = text;
      setDraftState(text);
      keep();
    },
    [keep],
  );
  const sent = useCallback(
    (content: string) => {
      sending.current = content;
      keep();
    },
    [keep],
  );
  const giveBack = useCallback(
    (content: string) => {
      sending.current = null;
      setDraft(withUnsent(content, typed.current));
    },
    [setDraft],
  );

  useEffect(() => {
    let settled: unknown = null;
    const watch = chat.subscribe((state) => {
      const { request, userMessage } = state.context;
      if (userMessage) {
        // Saved by the server: the room's messages hold it now.
        if (sending.current === null) return;
        sending.current = null;
        keep();
        return;
      }
      if (!request || settled === request || !('content' in request) || !request.content) return;
      if (state.matches('failed')) {
        // Refused before anything was kept.
        settled = request;
        giveBack(request.content);
      } else if (state.matches('aborted') && sending.current !== null) {
        // Stopped before the server said: it may have kept it, or not.
        settled = request;
        stoppedHere.current = true;
        setUnsure(sending.current);
      }
    });
    return () => watch.unsubscribe();
  }, [chat, keep, giveBack]);

  useEffect(() => {
    if (unsure === null) return;
    const controller = new AbortController();
    const { signal } = controller;
    const keptThere = () =>
      client.room.roomInfo({ roomId, pageSize: NEWEST_CHECKED }, { signal, quiet: true }).then(
        (room) => {
          const said = room.messages.findLast((message) => message.role === 'user');
          return said?.content.trim() === unsure.trim();
        },
        // Not known (offline, the room gone): back in the box, where the person sees it.
        () => false,
      );
    // This page's Stop reads the room again itself. That read is waited for, not cut short (the
    // log would show the room as it was before the send until a second one came); but it may
    // have been answered before the server kept the message, and then the room is read again.
    const readAgainUnlessShown = async () => {
      const key = roomKeys.messages(roomId);
      if (queries.isFetching({ queryKey: key }) > 0)
        await queries.refetchQueries({ queryKey: key }, { cancelRefetch: false });
      if (signal.aborted) return;
      const room = queries.getQueryData<InfiniteData<RoomInfo>>(key);
      const said = room?.pages[0]?.messages.findLast((message) => message.role === 'user');
      if (said?.content.trim() !== unsure.trim()) void refreshRoom(queries, roomId);
    };
    const settle = async () => {
      for (const [look, wait] of [0, ...LATER_LOOKS_MS].entries()) {
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        if (signal.aborted) return;
        const saved = await keptThere();
        if (signal.aborted) return;
        // Sent again meanwhile: that send settles it.
        if (sending.current !== unsure) break;
        if (saved) {
          sending.current = null;
          // Shown in the room, read before it was there maybe, and out of the box if a look
          // before (or a page before) had put it back there.
          if (look > 0 || !stoppedHere.current) void refreshRoom(queries, roomId);
          else void readAgainUnlessShown();
          setDraft(withoutUnsent(unsure, typed.current));
          break;
        }
        // Not there: back in the box at once, where the person sees it, and still looked for.
        if (look === 0) setDraft(withUnsent(unsure, typed.current));
        if (look === LATER_LOOKS_MS.length) {
          sending.current = null;
          keep();
        }
      }
      setUnsure(null);
    };
    void settle();
    return () => controller.abort();
  }, [client, queries, roomId, unsure, keep, setDraft]);

  // Another tab typing in this room, or forgetting it (sent there, signed out there).
  useEffect(() => {
    const fromElsewhere = (event: StorageEvent) => {
      if (event.key !== DRAFTS_KEY && event.key !== null) return;
      const { text } = readDraft(storage, roomId);
      if (text === typed.current) return;
      typed.current = text;
      setDraftState(text);
    };
    window.addEventListener('storage', fromElsewhere);
    return () => window.removeEventListener('storage', fromElsewhere);
  }, [storage, roomId]);

  return [draft, setDraft, sent] as const;
}
