import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Message, MessageImage, MessageRole, MessageStatus } from '@mates/api-client';
import type { Database, MessageTable } from '../db/schema';
import { fromJson, now, toJson } from '../db/dialect';
import { preparedQuery } from '../db/prepared-query';

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

/** A message to append: its role, text and state, and what only some messages have. */
export interface NewMessage {
  role: MessageRole;
  content: string;
  status: MessageStatus;
  /** A picture message: what it shows, its size and the model asked of (absent: default). */
  picture?: { prompt: string; size: string; model?: string };
  /** Its other versions, and where `content` sits among them. */
  swipes?: { others: string[]; index: number };
}

// A turn's statements, each compiled once (see `preparedQuery`).
const lastPosition = preparedQuery((db, v: { roomId: string }) =>
  db
    .selectFrom('messages')
    .select((eb) => eb.fn.max('position').as('position'))
    .where('room_id', '=', v.roomId),
);
const touchRoom = preparedQuery((db, v: { roomId: string; at: string }) =>
  db.updateTable('rooms').set({ updated_at: v.at }).where('id', '=', v.roomId),
);
const COLUMNS: (keyof MessageTable)[] = [
  'id',
  'room_id',
  'position',
  'role',
  'content',
  'status',
  'created_at',
  'edited_at',
  'swipes',
  'swipe_index',
  'image_prompt',
  'image_size',
  'image_job_id',
  'image_file',
  'image_error',
  'image_model',
  'image_share_id',
];
/** Stand-ins for a row's values, named `prefix` + column. */
const slotsOf = (values: Record<string, unknown>, prefix: string) =>
  Object.fromEntries(COLUMNS.map((column) => [column, values[`${prefix}${column}`]])) as never;
const twoRows = preparedQuery((db, v: Record<string, unknown>) =>
  db.insertInto('messages').values([slotsOf(v, 'a.'), slotsOf(v, 'b.')]),
);
/** Inserts the two messages of a turn (the user's and the reply's). */
function insertTwo(db: Kysely<Database>, rows: { first: MessageTable; second: MessageTable }) {
  const values: Record<string, unknown> = {};
  for (const column of COLUMNS) {
    values[`a.${column}`] = rows.first[column];
    values[`b.${column}`] = rows.second[column];
  }
  return twoRows(db, values);
}

/** Appends a message at the end of a room and marks the room as just used. */
export async function appendMessage(
  db: Kysely<Database> | Transaction<Database>,
  roomId: string,
  message: NewMessage,
): Promise<MessageTable> {
  const [row] = await appendMessages(db, roomId, [message]);
  return row!;
}

/**
 * Appends messages in order at the end of a room and marks the room as just used: three
 * statements however many there are (a turn writes the user's message and the reply's).
 */
export async function appendMessages(
  db: Kysely<Database> | Transaction<Database>,
  roomId: string,
  messages: NewMessage[],
): Promise<MessageTable[]> {
  const [last] = (await lastPosition(db, { roomId })).rows;
  const at = now();
  const first = Number(last?.position ?? 0) + 1;
  const rows = messages.map((message, index): MessageTable => ({
    id: randomUUID(),
    room_id: roomId,
    position: first + index,
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
  }));
  if (rows.length === 2) await insertTwo(db, { first: rows[0]!, second: rows[1]! });
  else await db.insertInto('messages').values(rows).execute();
  await touchRoom(db, { roomId, at });
  return rows;
}
