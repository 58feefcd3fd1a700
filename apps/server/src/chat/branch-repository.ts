import { randomUUID } from 'node:crypto';
import { PostgresAdapter, sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database, MessageTable, RoomTable } from '../db/schema';
import { MESSAGE_COLUMNS } from './message-repository';

/** A chat's paths are rooms sharing the first path's id as family (the first path: its own). */
export const familyOf = (room: Pick<RoomTable, 'id' | 'family_id'>): string =>
  room.family_id ?? room.id;

/**
 * Whether the row of `rooms` named `alias` belongs to family `family` (an expression): the
 * first path has it as id, the branches as `family_id` (each side found by an index).
 */
export function inFamily(alias: string, family: Expression<string>): Expression<SqlBool> {
  return sql<SqlBool>`(${sql.ref(`${alias}.family_id`)} = ${family} or ${sql.ref(`${alias}.id`)} = ${family})`;
}

/**
 * Holds chat `family`'s paths until `trx` ends (PostgreSQL; SQLite runs one writer at a time
 * anyway): a lock of its own, for its first path may be deleted and each path has its own lock.
 * Taken first, before any row.
 */
export async function holdFamily(trx: Kysely<Database>, family: string): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`select pg_advisory_xact_lock(hashtext(${`branch:${family}`}))`.execute(trx);
}

/** The rooms of a chat (every path of the family), oldest first. */
export async function familyRooms(
  db: Kysely<Database>,
  userId: string,
  family: string,
): Promise<RoomTable[]> {
  return db
    .selectFrom('rooms')
    .selectAll()
    .where('user_id', '=', userId)
    .where(inFamily('rooms', sql.val(family)))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** How many messages each room holds. */
export async function messageCounts(
  db: Kysely<Database>,
  roomIds: string[],
): Promise<Map<string, number>> {
  if (roomIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('messages')
    .select(['room_id', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('room_id', 'in', roomIds)
    .groupBy('room_id')
    .execute();
  return new Map(rows.map((row) => [row.room_id, Number(row.count)]));
}

/** The room's messages up to position `through`, in order. */
export async function messagesThrough(
  db: Kysely<Database>,
  roomId: string,
  through: number,
): Promise<MessageTable[]> {
  return db
    .selectFrom('messages')
    .select(MESSAGE_COLUMNS)
    .where('room_id', '=', roomId)
    .where('position', '<=', through)
    .orderBy('position')
    .execute();
}

/** Rows written at once: under both databases' limits on a statement's parameters. */
const BATCH = 400;

/** Writes message copies (already with their new ids and room), a batch at a time. */
export async function insertMessageCopies(
  db: Kysely<Database>,
  copies: MessageTable[],
): Promise<void> {
  for (let start = 0; start < copies.length; start += BATCH)
    await db
      .insertInto('messages')
      .values(copies.slice(start, start + BATCH))
      .execute();
}

/**
 * Copies the memories of room `from` that were made only of the messages copied (`copyOf`:
 * old id → new id), or written by the person, into room `to`, with their links; the summary
 * too when every message it was made of was copied. Answers the position of the summary's
 * last message when it was copied, else 0.
 */
export async function copyMemories(
  db: Kysely<Database>,
  from: string,
  to: string,
  copyOf: Map<string, string>,
): Promise<number> {
  const [memories, sources] = await Promise.all([
    db.selectFrom('memories').selectAll().where('room_id', '=', from).execute(),
    db
      .selectFrom('memory_sources')
      .innerJoin('memories', 'memories.id', 'memory_sources.memory_id')
      .selectAll('memory_sources')
      .where('memories.room_id', '=', from)
      .execute(),
  ]);
  const bySource = new Map<string, typeof sources>();
  for (const source of sources)
    bySource.set(source.memory_id, [...(bySource.get(source.memory_id) ?? []), source]);
  let summaryThrough = 0;
  for (const memory of memories) {
    const links = bySource.get(memory.id) ?? [];
    if (links.some((link) => !copyOf.has(link.message_id))) continue;
    // Made by the mate of messages since deleted: not known to come from this path.
    if (memory.author === 'mate' && links.length === 0) continue;
    const id = randomUUID();
    await db
      .insertInto('memories')
      .values({ ...memory, id, room_id: to })
      .execute();
    if (links.length > 0)
      await db
        .insertInto('memory_sources')
        .values(
          links.map((link) => ({
            memory_id: id,
            message_id: copyOf.get(link.message_id)!,
            position: link.position,
          })),
        )
        .execute();
    if (memory.kind === 'summary') summaryThrough = Math.max(...links.map((link) => link.position));
  }
  return summaryThrough;
}

/**
 * Marks room `room` as its chat's path used last, when another path of the chat was used
 * later: the room list opens a chat by its path used last. A read, and a write only then (a
 * chat without branches is only read).
 */
export async function markPathUsed(
  db: Kysely<Database>,
  room: Pick<RoomTable, 'id' | 'family_id' | 'updated_at'>,
  at: string,
): Promise<void> {
  const later = await db
    .selectFrom('rooms as other')
    .select('other.id')
    .where(inFamily('other', sql.val(familyOf(room))))
    .where('other.id', '<>', room.id)
    .where('other.updated_at', '>', room.updated_at)
    .limit(1)
    .executeTakeFirst();
  if (later)
    await db.updateTable('rooms').set({ updated_at: at }).where('id', '=', room.id).execute();
}
