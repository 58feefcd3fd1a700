import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Message, MessageImage, MessageRole, MessageStatus } from '@mates/api-client';
import type { Database, MessageTable } from '../db/schema';
import { now } from '../db/dialect';

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
  };
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
