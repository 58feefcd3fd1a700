import { useEffect, useRef } from 'react';
import { useStickToBottom } from './stick-to-bottom';

/**
 * Where the conversation is scrolled: at its latest message while the reader is there (else
 * `unseen` says new text came), and older messages loaded as the reader scrolls up to the
 * "Show earlier messages" button (which stays, for keyboards), their place kept.
 * `log` goes on the conversation, `earlier` on that button.
 */
export function useConversationScroll(room: {
  isSuccess: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}) {
  const log = useRef<HTMLDivElement>(null);
  const { unseen, jumpToBottom, keepPlace } = useStickToBottom(log, room.isSuccess);
  const earlier = useRef<HTMLButtonElement>(null);
  const { hasNextPage: hasEarlier, isFetchingNextPage: fetchingEarlier, fetchNextPage } = room;
  const loadEarlier = () => {
    keepPlace();
    void fetchNextPage();
  };
  useEffect(() => {
    const button = earlier.current;
    if (!button || !hasEarlier || fetchingEarlier) return;
    const seen = new IntersectionObserver(([entry]) => {
      if (!entry?.isIntersecting) return;
      seen.disconnect();
      keepPlace();
      void fetchNextPage();
    });
    seen.observe(button);
    return () => seen.disconnect();
  }, [hasEarlier, fetchingEarlier, fetchNextPage, keepPlace, room.isSuccess]);
  return { log, earlier, unseen, jumpToBottom, hasEarlier, fetchingEarlier, loadEarlier };
}
