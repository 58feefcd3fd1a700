import { useEffect, useState } from 'react';
import type { ReplyStream } from './use-reply-stream';

/**
 * What is typed in the message box. A message the server refused before keeping it (no chats
 * left, the model loading) goes back into it, unless something new was typed since: nothing a
 * person wrote is lost.
 */
export function useDraft(chat: ReplyStream['chat']) {
  const [draft, setDraft] = useState('');
  useEffect(() => {
    let restored: unknown = null;
    const watch = chat.subscribe((state) => {
      const { request, userMessage } = state.context;
      if (!state.matches('failed') || userMessage || !request || restored === request) return;
      if (!('content' in request) || !request.content) return;
      restored = request;
      const content = request.content;
      setDraft((current) => current || content);
    });
    return () => watch.unsubscribe();
  }, [chat]);
  return [draft, setDraft] as const;
}
