import type { Message } from '@mates/api-client';
import type { ReplyStream } from './use-reply-stream';

/**
 * Which of the room's messages are drawn while a reply is written, and the ones the actions
 * hang on: the last reply (regenerated), the last text reply (its versions chosen), the last
 * text (the picture sheet's scene).
 */
export function visibleMessages(
  messages: Message[],
  { busy, reply, aborted, settling }: Pick<ReplyStream, 'busy' | 'reply' | 'aborted' | 'settling'>,
) {
  // While a reply is regenerated (and until the room is read again), what it replaces is
  // hidden: the last reply, or everything after the edited message the conversation continues
  // from.
  const request = busy || settling ? reply.request : null;
  const regenerating = request && 'regenerate' in request && request.regenerate;
  const from =
    regenerating && request.fromMessageId
      ? messages.findIndex((message) => message.messageId === request.fromMessageId)
      : -1;
  // A reply stopped before its first word was the person's choice, not a failure: the server
  // takes it back, and until a read shows that, its empty message is not drawn (its id may not
  // have arrived before Stop).
  const stoppedEarly = aborted && !reply.replyText;
  const kept = stoppedEarly
    ? messages.filter(
        (message) =>
          message.role !== 'mate' || message.status !== 'partial' || message.content !== '',
      )
    : messages;
  // Without an edited message, the last reply is replaced; a chat that ends on the person's
  // message keeps it, and the new reply comes after.
  const replaced = kept.at(-1)?.role === 'mate' ? -1 : kept.length;
  return {
    shown: regenerating ? kept.slice(0, from >= 0 ? from + 1 : replaced) : kept,
    // The reply that "Regenerate reply" writes again: none when the person's message comes
    // after it (a path branched from their message, a reply stopped before its first word),
    // since the server then answers that message and leaves this reply as it is.
    lastMate:
      lastIndex(messages, 'mate') > lastIndex(messages, 'user')
        ? messages.findLast((message) => message.role === 'mate')
        : undefined,
    // The person's message that nothing answers yet, when the chat ends on it: "Ask for a
    // reply" answers it.
    unanswered:
      lastIndex(messages, 'user') > lastIndex(messages, 'mate')
        ? messages.findLast((message) => message.role === 'user')
        : undefined,
    // The reply whose versions can be chosen: the last text from the mate (pictures aside).
    lastReply: messages.findLast((message) => message.role === 'mate' && !message.image),
    lastText: messages.findLast((message) => !message.image && message.content),
  };
}

/** Where the last message of `role` is in `messages` (-1: none). */
function lastIndex(messages: readonly Message[], role: Message['role']): number {
  return messages.findLastIndex((message) => message.role === role);
}
