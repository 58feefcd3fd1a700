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
  return {
    shown: regenerating ? kept.slice(0, from >= 0 ? from + 1 : -1) : kept,
    lastMate: messages.findLast((message) => message.role === 'mate'),
    // The reply whose versions can be chosen: the last text from the mate (pictures aside).
    lastReply: messages.findLast((message) => message.role === 'mate' && !message.image),
    lastText: messages.findLast((message) => !message.image && message.content),
  };
}
