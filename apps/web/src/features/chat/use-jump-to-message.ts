import { useEffect, useState, type CSSProperties } from 'react';
import type { Message } from '@mates/api-client';
import { tokenVars } from '@mates/ui';

/** The element id of a message's bubble in the conversation. */
export const messageElementId = (messageId: string) => `message-${messageId}`;

/** How long the message a jump led to stays marked, unless the focus leaves it sooner. */
export const HIGHLIGHT_MS = 4000;

/**
 * What the element of a message drawn without a `ChatBubble` (a picture, a message open in its
 * editor) carries so that a jump can reach it, as a bubble does: its id, and focusable by script
 * only, never a Tab stop. Its own focus ring is left out: {@link highlightRing} marks it.
 */
export const jumpTarget = (messageId: string) => ({
  id: messageElementId(messageId),
  tabIndex: -1,
  style: { boxShadow: 'none' } satisfies CSSProperties,
});

/**
 * The ring that marks the message a jump led to (`highlighted`), as `ChatBubble` draws it; it
 * goes at once, without fading, so nothing moves whatever the reader's motion setting.
 */
export const highlightRing = (highlighted: boolean): CSSProperties =>
  highlighted ? { boxShadow: tokenVars.shadows.focus, borderRadius: tokenVars.radii[3] } : {};

/**
 * Takes the reader to a message of the conversation (a memory's source): when it is loaded,
 * it is scrolled into the middle of the view, focused and marked (`highlighted`) until the
 * focus leaves it or {@link HIGHLIGHT_MS} have passed, so that the mark never lingers; when it
 * is not, earlier pages are loaded, as scrolling up loads them, until
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

  useEffect(() => {
    if (highlighted === null) return;
    const timer = window.setTimeout(() => setHighlighted(null), HIGHLIGHT_MS);
    return () => window.clearTimeout(timer);
  }, [highlighted]);

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
