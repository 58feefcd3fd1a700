import type { Message, MessageImage, MessageRole, MessageStatus } from '@mates/api-client';
import type { MessageTable } from '../db/schema';
import { fromJson } from '../db/dialect';

// Appending is a query: it lives in message-repository.ts, imported from here by pictures too.
export { appendMessage, appendMessages, type NewMessage } from './message-repository';

/**
 * The API shape of a message row; a picture message's `image` comes from
 * `images/picture-messages.ts` (`withImages`), which reads its job.
 */
export function toMessage(row: MessageTable, image: MessageImage | null = null): Message {
  return {
    messageId: row.id,
    roomId: row.room_id,
    role: row.role as MessageRole,
    content: row.content,
    status: row.status as MessageStatus,
    createdAt: row.created_at,
    editedAt: row.edited_at,
    image,
    ...swipesOf(row),
    ...(row.speaker_id !== null && row.speaker_id !== undefined && { speakerId: row.speaker_id }),
    ...(row.call_id !== null &&
      row.call_id !== undefined && { call: { callId: row.call_id, cut: Boolean(row.call_cut) } }),
  };
}

/** Every version of a message, in order: its other versions with `content` at its place. */
export function versionsOf(
  row: Pick<MessageTable, 'content' | 'swipes' | 'swipe_index'>,
): string[] {
  const others = fromJson<string[]>(row.swipes, []);
  const index = Math.min(Math.max(0, row.swipe_index), others.length);
  return [...others.slice(0, index), row.content, ...others.slice(index)];
}

/** The states of a message's other versions (`swipes`), in their order. */
export function otherStatusesOf(
  row: Pick<MessageTable, 'swipes' | 'swipe_statuses'>,
): MessageStatus[] {
  const kept = fromJson<MessageStatus[]>(row.swipe_statuses, []);
  // None kept: each whole (every version kept before its state was), or failed when empty.
  return fromJson<string[]>(row.swipes, []).map(
    (text, at): MessageStatus => kept[at] ?? (text.trim() ? 'complete' : 'error'),
  );
}

/**
 * The state of each version of a message, in the order of {@link versionsOf}: the one shown is
 * the message's own.
 */
export function versionStatusesOf(
  row: Pick<MessageTable, 'status' | 'swipes' | 'swipe_index' | 'swipe_statuses'>,
): MessageStatus[] {
  const others = otherStatusesOf(row);
  const index = Math.min(Math.max(0, row.swipe_index), others.length);
  return [...others.slice(0, index), row.status as MessageStatus, ...others.slice(index)];
}

/** `swipes` of the API shape, only for a message with more than one version. */
function swipesOf(row: MessageTable): { swipes?: Message['swipes'] } {
  const others = fromJson<string[]>(row.swipes, []);
  if (others.length === 0) return {};
  return { swipes: { index: Math.min(row.swipe_index, others.length), count: others.length + 1 } };
}
