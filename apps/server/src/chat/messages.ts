import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Message, MessageImage, MessageRole, MessageStatus } from '@mates/api-client';
import type { Database, MessageTable } from '../db/schema';
import { fromJson, now, toJson } from '../db/dialect';

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

/** `swipes` of the API shape, only for a message with more than one version. */
function swipesOf(row: MessageTable): { swipes?: Message['swipes'] } {
  const others = fromJson<string[]>(row.swipes, []);
  if (others.length === 0) return {};
  return { swipes: { index: Math.min(row.swipe_index, others.length), count: others.length + 1 } };
}

/** Appends a message at the end of a room and marks the room as just used. */
export async function appendMessage(
  db: Kysely<Database> | Transaction<Database>,
  roomId: string,
  message: {
    role: MessageRole;
    content: string;
    status: MessageStatus;
    /** A picture message: what it shows, its size and the model asked of (absent: default). */
    picture?: { prompt: string; size: string; model?: string };
    /** Its other versions, and where `content` sits among them. */
    swipes?: { others: string[]; index: number };
  },
): Promise<MessageTable> {
  const last = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.max('position').as('position'))
    .where('room_id', '=', roomId)
    .executeTakeFirst();
  const at = now();
  const row: MessageTable = {
    id: randomUUID(),
    room_id: roomId,
    position: Number(last?.position ?? 0) + 1,
    role: message.role,
    content: message.content,
    status: message.status,
    created_at: at,
    edited_at: null,
    swipes: message.swipes?.others.length ? toJson(message.swipes.others) : null,
    swipe_index: message.swipes?.others.length ? message.swipes.index : 0,
    image_prompt: message.picture?.prompt ?? null,
    image_size: message.picture?.size ?? null,
    image_job_id: null,
    image_file: null,
    image_error: null,
    image_model: message.picture?.model ?? null,
    image_share_id: null,
  };
  await db.insertInto('messages').values(row).execute();
  await db.updateTable('rooms').set({ updated_at: at }).where('id', '=', roomId).execute();
  return row;
}
