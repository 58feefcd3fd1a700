import { useEffect, useState } from 'react';
import type { Message } from '@mates/api-client';

/** The element id of a message's bubble in the conversation. */
export const messageElementId = (messageId: string) => `message-${messageId}`;

/**
 * Takes the reader to a message of the conversation (a memory's source): when it is loaded,
 * it is scrolled into the middle of the view, focused and marked (`highlighted`) until the
 * focus leaves it; when it is not, earlier pages are loaded, as scrolling up loads them, until
 * it is. A message no longer in the chat (deleted since) calls `onMissing`.
 */
export function useJumpToMessage(
  room: {
    hasNextPage: boolean;
    isFetchingNextPage: boolean;
    fetchNextPage: () => Promise<unknown>;
  },
  messages: Message[],
  onMissing: () => void,
) {
  const [target, setTarget] = useState<string | null>(null);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const loaded = target !== null && messages.some((message) => message.messageId === target);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = room;

  useEffect(() => {
    if (target === null || loaded || isFetchingNextPage) return;
    if (hasNextPage) void fetchNextPage();
    else {
      setTarget(null);
      onMissing();
    }
  }, [target, loaded, hasNextPage, isFetchingNextPage, fetchNextPage, onMissing]);

  useEffect(() => {
    if (target === null || !loaded) return;
    // Two frames: after the conversation has kept the reader's place below older messages
    // that just came in (stick-to-bottom moves the view once they are laid out).
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => {
        const element = document.getElementById(messageElementId(target));
        setTarget(null);
        if (!element) return onMissing();
        element.scrollIntoView({ block: 'center' });
        element.focus({ preventScroll: true });
        setHighlighted(target);
        element.addEventListener('blur', () => setHighlighted(null), { once: true });
      });
    });
    return () => cancelAnimationFrame(frame);
  }, [target, loaded, onMissing]);

  return {
    /** Takes the reader to this message. */
    jumpTo: (messageId: string) => {
      setHighlighted(null);
      setTarget(messageId);
    },
    /** Whether older messages are being loaded to find it. */
    seeking: target !== null,
    highlighted,
  };
}
