import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Message, MessageRole, MessageStatus } from '@mates/api-client';
import type { Database, MessageTable } from '../db/schema';
import { now } from '../db/dialect';

/** The API shape of a message row. */
export function toMessage(row: MessageTable): Message {
  return {
    messageId: row.id,
    roomId: row.room_id,
    role: row.role as MessageRole,
    content: row.content,
    status: row.status as MessageStatus,
    createdAt: row.created_at,
    editedAt: row.edited_at,
    // Text messages; picture messages come with the image jobs.
    image: null,
  };
}

/** Appends a message at the end of a room and marks the room as just used. */
export async function appendMessage(
  db: Kysely<Database> | Transaction<Database>,
  roomId: string,
  message: { role: MessageRole; content: string; status: MessageStatus },
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
    ...message,
    created_at: at,
    edited_at: null,
  };
  await db.insertInto('messages').values(row).execute();
  await db.updateTable('rooms').set({ updated_at: at }).where('id', '=', roomId).execute();
  return row;
}
