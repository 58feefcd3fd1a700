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
  // Pictures aside (they stay, whatever is answered or written again): the last text reply, and
  // the person's last message. Read from what is drawn: an empty reply stopped before its first
  // word, not yet taken back when the room was read, is neither.
  const replyAt = kept.findLastIndex((message) => message.role === 'mate' && !message.image);
  const yoursAt = kept.findLastIndex((message) => message.role === 'user');
  const answered = replyAt > yoursAt;
  return {
    // Without an edited message, the last reply is replaced (hidden until the new one is read);
    // a chat that ends on the person's message keeps all of it, the new reply coming after.
    shown: regenerating
      ? from >= 0
        ? kept.slice(0, from + 1)
        : kept.filter((_, at) => !answered || at !== replyAt)
      : kept,
    // The reply that "Regenerate reply" writes again: none when the person's message comes
    // after it (a path branched from their message, a reply stopped before its first word),
    // since the server then answers that message and leaves this reply as it is.
    lastMate: answered ? kept[replyAt] : undefined,
    // The person's message that nothing answers yet, when the chat ends on it: "Ask for a
    // reply" answers it.
    unanswered: !answered && yoursAt >= 0 ? kept[yoursAt] : undefined,
    // The reply whose versions can be chosen: the last text from the mate (pictures aside).
    lastReply: messages.findLast((message) => message.role === 'mate' && !message.image),
    lastText: messages.findLast((message) => !message.image && message.content),
  };
}
