import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { MessageRole, MessageStatus } from '@mates/api-client';
import type { Database, MessageTable } from '../db/schema';
import { now, toJson } from '../db/dialect';
import { preparedQuery } from '../db/prepared-query';
import type { RunNow } from '../db/sqlite-dialect';

/** A message of the room, or `undefined`. */

/**
 * Every column of a message as `MessageTable` has them, named: not PostgreSQL's generated
 * `search` column, which a row read with `selectAll` would carry into what it is copied to.
 */
export const MESSAGE_COLUMNS = [
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
  'swipe_statuses',
  'image_prompt',
  'image_size',
  'image_job_id',
  'image_file',
  'image_error',
  'image_model',
  'image_share_id',
  'speaker_id',
  'call_id',
  'call_cut',
] as const satisfies readonly (keyof MessageTable)[];

export function findRoomMessage(
  db: Kysely<Database>,
  roomId: string,
  messageId: string,
): Promise<MessageTable | undefined> {
  return db
    .selectFrom('messages')
    .selectAll()
    .where('id', '=', messageId)
    .where('room_id', '=', roomId)
    .executeTakeFirst();
}

/** A message by its id (one known to exist). */
export function messageById(db: Kysely<Database>, messageId: string): Promise<MessageTable> {
  return db
    .selectFrom('messages')
    .selectAll()
    .where('id', '=', messageId)
    .executeTakeFirstOrThrow();
}

/** Where a message of the room sits, or `undefined` when it is not one of the room's. */
export async function positionOf(
  db: Kysely<Database>,
  roomId: string,
  messageId: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('messages')
    .select('position')
    .where('id', '=', messageId)
    .where('room_id', '=', roomId)
    .executeTakeFirst();
  return row?.position;
}

/** Up to `limit` of the room's messages before `beforePosition` (all: none), newest first. */
export async function newestMessages(
  db: Kysely<Database>,
  roomId: string,
  page: { beforePosition?: number; limit: number },
): Promise<MessageTable[]> {
  let messages = db.selectFrom('messages').selectAll().where('room_id', '=', roomId);
  if (page.beforePosition !== undefined)
    messages = messages.where('position', '<', page.beforePosition);
  return messages.orderBy('position', 'desc').limit(page.limit).execute();
}

/**
 * Each room's last message, in one query (the unique (room_id, position) index finds it): a
 * reply that failed before its first word, or has none yet (being written, or stopped before
 * its first and not yet taken back), holds nothing to preview, so the one before it.
 */
export async function lastMessagesOf(
  db: Kysely<Database>,
  roomIds: string[],
): Promise<MessageTable[]> {
  if (roomIds.length === 0) return [];
  return db
    .selectFrom('messages as m')
    .selectAll('m')
    .where('m.room_id', 'in', roomIds)
    .where((eb) =>
      eb(
        'm.position',
        '=',
        eb
          .selectFrom('messages as n')
          .select((inner) => inner.fn.max('n.position').as('position'))
          .whereRef('n.room_id', '=', 'm.room_id')
          .where('n.status', '<>', 'error')
          .where((empty) =>
            empty.or([empty('n.status', '<>', 'partial'), empty('n.content', '<>', '')]),
          ),
      ),
    )
    .execute();
}

/** The ids of the room's replies still unfinished and empty (not a word written yet). */
export async function emptyRepliesOf(db: Kysely<Database>, roomId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('messages')
    .select('id')
    .where('room_id', '=', roomId)
    .where('status', '=', 'partial')
    .where('content', '=', '')
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Every reply still unfinished and empty that was started before `startedBefore`, with its
 * room and the room's user: a killed process may have left it so.
 */
export function abandonedReplies(db: Kysely<Database>, startedBefore: Date) {
  return (
    db
      .selectFrom('messages')
      .innerJoin('rooms', 'rooms.id', 'messages.room_id')
      .select(['messages.id', 'messages.room_id', 'rooms.user_id'])
      .where('messages.role', '=', 'mate')
      // A literal, not a parameter: only then can SQLite use the partial index of unfinished
      // replies.
      .where(sql<boolean>`messages.status = 'partial'`)
      .where('messages.content', '=', '')
      .where('messages.created_at', '<', startedBefore.toISOString())
      .execute()
  );
}

/** The room's picture messages. */
export function picturesOfRoom(db: Kysely<Database>, roomId: string): Promise<MessageTable[]> {
  return db
    .selectFrom('messages')
    .selectAll()
    .where('room_id', '=', roomId)
    .where('image_prompt', 'is not', null)
    .execute();
}

/** Removes the room's picture messages, answering their files as they are when the rows go. */
export async function deletePicturesOfRoom(
  db: Kysely<Database>,
  roomId: string,
): Promise<(string | null)[]> {
  const rows = await db
    .deleteFrom('messages')
    .where('room_id', '=', roomId)
    .where('image_prompt', 'is not', null)
    .returning('image_file')
    .execute();
  return rows.map((row) => row.image_file);
}

/**
 * Removes one message of the room: `undefined` when there was none, else its picture's file as
 * it is when the row goes (`null` for none).
 */
export async function deleteRoomMessage(
  db: Kysely<Database>,
  roomId: string,
  messageId: string,
): Promise<{ file: string | null } | undefined> {
  const deleted = await db
    .deleteFrom('messages')
    .where('id', '=', messageId)
    .where('room_id', '=', roomId)
    .returning('image_file')
    .executeTakeFirst();
  return deleted && { file: deleted.image_file };
}

/** Whether the room's message `messageId` is a picture (`false` too when there is none). */
export async function isPicture(
  db: Kysely<Database>,
  roomId: string,
  messageId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('messages')
    .select('image_prompt')
    .where('id', '=', messageId)
    .where('room_id', '=', roomId)
    .executeTakeFirst();
  return row !== undefined && row.image_prompt !== null;
}

/** Writes the message's new words, whole and edited at `at`; `false` when there is none. */
export async function writeEdit(
  db: Kysely<Database>,
  message: { roomId: string; messageId: string; content: string; at: string },
): Promise<boolean> {
  const updated = await db
    .updateTable('messages')
    .set({ content: message.content, edited_at: message.at, status: 'complete' })
    .where('id', '=', message.messageId)
    .where('room_id', '=', message.roomId)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** The room's last reply (or greeting) that is not a picture, or `undefined`. */
export function lastReplyOf(
  db: Kysely<Database>,
  roomId: string,
): Promise<MessageTable | undefined> {
  return db
    .selectFrom('messages')
    .selectAll()
    .where('room_id', '=', roomId)
    .where('role', '=', 'mate')
    .where('image_prompt', 'is', null)
    .orderBy('position', 'desc')
    .executeTakeFirst();
}

/**
 * Puts another version of `read` in its place, only if its versions are still those read (a
 * regeneration or edit that began meanwhile wins): `false` when they changed.
 */
export async function writeChosenVersion(
  db: Kysely<Database>,
  read: Pick<MessageTable, 'id' | 'content' | 'swipe_index'>,
  chosen: {
    content: string;
    status: MessageStatus;
    others: string[];
    /** The states of `others`, in their order (each whole, if left out). */
    statuses?: MessageStatus[];
    index: number;
  },
): Promise<boolean> {
  const updated = await db
    .updateTable('messages')
    .set({
      content: chosen.content,
      swipes: chosen.others.length ? toJson(chosen.others) : null,
      swipe_index: chosen.index,
      swipe_statuses: chosen.others.length ? storedStatuses(chosen.statuses) : null,
      status: chosen.status,
    })
    .where('id', '=', read.id)
    .where('content', '=', read.content)
    .where('swipe_index', '=', read.swipe_index)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** `swipe_statuses` as stored: `null` when every other version is whole. */
export function storedStatuses(statuses: readonly MessageStatus[] | undefined): string | null {
  return statuses?.some((status) => status !== 'complete') ? toJson(statuses) : null;
}

/** A message to append: its role, text and state, and what only some messages have. */
export interface NewMessage {
  role: MessageRole;
  content: string;
  status: MessageStatus;
  /** A picture message: what it shows, its size and the model asked of (absent: default). */
  picture?: { prompt: string; size: string; model?: string };
  /**
   * Its other versions, and where `content` sits among them; `statuses`, the state of each of
   * `others` (each whole, if left out).
   */
  swipes?: { others: string[]; index: number; statuses?: MessageStatus[] };
  /** In a group chat, the mate writing a `mate` message. */
  speakerId?: string;
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
// Every column, in one order, for the two-row insert's stand-ins.
const COLUMNS: readonly (keyof MessageTable)[] = MESSAGE_COLUMNS;
/** Stand-ins for a row's values, named `prefix` + column. */
const slotsOf = (values: Record<string, unknown>, prefix: string) =>
  Object.fromEntries(COLUMNS.map((column) => [column, values[`${prefix}${column}`]])) as never;
const twoRows = preparedQuery((db, v: Record<string, unknown>) =>
  db.insertInto('messages').values([slotsOf(v, 'a.'), slotsOf(v, 'b.')]),
);
/** The values of the two-row insert (the user's message and the reply's). */
function twoRowValues(rows: { first: MessageTable; second: MessageTable }) {
  const values: Record<string, unknown> = {};
  for (const column of COLUMNS) {
    values[`a.${column}`] = rows.first[column];
    values[`b.${column}`] = rows.second[column];
  }
  return values;
}
/** Inserts the two messages of a turn (the user's and the reply's). */
function insertTwo(db: Kysely<Database>, rows: { first: MessageTable; second: MessageTable }) {
  return twoRows(db, twoRowValues(rows));
}

/** The row a new message is stored as, at `place`. */
export function messageRow(
  message: NewMessage,
  place: { id: string; roomId: string; position: number; at: string },
): MessageTable {
  return {
    id: place.id,
    room_id: place.roomId,
    position: place.position,
    role: message.role,
    content: message.content,
    status: message.status,
    created_at: place.at,
    edited_at: null,
    swipes: message.swipes?.others.length ? toJson(message.swipes.others) : null,
    swipe_index: message.swipes?.others.length ? message.swipes.index : 0,
    swipe_statuses: message.swipes?.others.length ? storedStatuses(message.swipes.statuses) : null,
    image_prompt: message.picture?.prompt ?? null,
    image_size: message.picture?.size ?? null,
    image_job_id: null,
    image_file: null,
    image_error: null,
    image_model: message.picture?.model ?? null,
    image_share_id: null,
    speaker_id: message.speakerId ?? null,
    call_id: null,
    call_cut: false,
  };
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
 * {@link appendMessages}' statements for a turn's two messages, run on the spot inside
 * `atOnceOnSqlite`'s transaction, with the ids given: the rows written.
 */
export function appendTwoNow(
  run: RunNow,
  db: Kysely<Database>,
  roomId: string,
  at: string,
  messages: [{ id: string; message: NewMessage }, { id: string; message: NewMessage }],
): [MessageTable, MessageTable] {
  run(touchRoom.withValues(db, { roomId, at }));
  const [last] = run(lastPosition.withValues(db, { roomId })).rows;
  const first = Number(last?.position ?? 0) + 1;
  const [one, two] = messages.map(({ id, message }, index) =>
    messageRow(message, { id, roomId, position: first + index, at }),
  ) as [MessageTable, MessageTable];
  run(twoRows.withValues(db, twoRowValues({ first: one, second: two })));
  return [one, two];
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
  const at = now();
  // The room's row first: on PostgreSQL its lock makes the appends to one room (a turn, a
  // picture) wait for each other, so the last position is read once the one before committed,
  // and every writer takes the room before the balances (no two wait for each other crosswise).
  await touchRoom(db, { roomId, at });
  const [last] = (await lastPosition(db, { roomId })).rows;
  const first = Number(last?.position ?? 0) + 1;
  const rows = messages.map((message, index) =>
    messageRow(message, { id: randomUUID(), roomId, position: first + index, at }),
  );
  if (rows.length === 2) await insertTwo(db, { first: rows[0]!, second: rows[1]! });
  else await db.insertInto('messages').values(rows).execute();
  return rows;
}
