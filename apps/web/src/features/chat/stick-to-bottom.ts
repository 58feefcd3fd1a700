import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/** How close to the bottom (in pixels) still counts as reading the latest message. */
const NEAR_BOTTOM_PX = 96;

/** The element that scrolls `element`: the nearest ancestor whose content overflows. */
function scrollerOf(element: HTMLElement): HTMLElement {
  for (let node = element.parentElement; node; node = node.parentElement) {
    const overflow = getComputedStyle(node).overflowY;
    if (overflow === 'auto' || overflow === 'scroll') return node;
  }
  return element.ownerDocument.scrollingElement as HTMLElement;
}

const nearBottom = (scroller: HTMLElement) =>
  scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight <= NEAR_BOTTOM_PX;

/**
 * Keeps a conversation at its latest message the way chat apps do: it opens at the bottom;
 * while the reader is at the bottom, new text (a streamed reply, a new message) keeps the view
 * there; once they scroll up to read, it stays put and `unseen` turns true until they come
 * back down (or `jumpToBottom`). `keepPlace` is called before older messages are put on top,
 * so the reader's place does not move.
 */
export function useStickToBottom(content: RefObject<HTMLElement | null>, ready: boolean) {
  const [unseen, setUnseen] = useState(false);
  const pinned = useRef(true);
  const scroller = useRef<HTMLElement | null>(null);
  const fromBottom = useRef<number | null>(null);

  const jumpToBottom = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    element.scrollTop = element.scrollHeight;
    pinned.current = true;
    setUnseen(false);
  }, []);

  const keepPlace = useCallback(() => {
    const element = scroller.current;
    if (element) fromBottom.current = element.scrollHeight - element.scrollTop;
  }, []);

  useEffect(() => {
    const element = content.current;
    if (!ready || !element) return;
    const box = scrollerOf(element);
    scroller.current = box;
    // Opened at the latest message; once more after the layout's own scroll to the top,
    // which runs after this screen's effects on a navigation.
    box.scrollTop = box.scrollHeight;
    const frame = requestAnimationFrame(() => {
      box.scrollTop = box.scrollHeight;
    });
    const onScroll = () => {
      pinned.current = nearBottom(box);
      if (pinned.current) setUnseen(false);
    };
    box.addEventListener('scroll', onScroll, { passive: true });
    // The content's height when last laid out: a reader at the bottom of it stays at the bottom
    // when it grows, even if the browser scrolled (anchoring the view) before this saw it.
    let height = box.scrollHeight;
    const grew = new ResizeObserver(() => {
      const wasAtBottom = height - box.scrollTop - box.clientHeight <= NEAR_BOTTOM_PX;
      height = box.scrollHeight;
      if (fromBottom.current !== null) {
        // Older messages came in above: the same message stays under the reader's eyes.
        box.scrollTop = box.scrollHeight - fromBottom.current;
        fromBottom.current = null;
      } else if (pinned.current || wasAtBottom) {
        box.scrollTop = box.scrollHeight;
        pinned.current = true;
      } else {
        setUnseen(true);
      }
    });
    grew.observe(element);
    return () => {
      cancelAnimationFrame(frame);
      box.removeEventListener('scroll', onScroll);
      grew.disconnect();
    };
  }, [content, ready]);

  return { unseen, jumpToBottom, keepPlace };
}
