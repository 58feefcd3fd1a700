import type { Insertable, Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Database, MemoryTable } from '../db/schema';
import { preparedQuery } from '../db/prepared-query';
import { toBool } from '../db/dialect';
import { holdRoomRow } from './room-row-repository';

/** A memory as the prompt reads it. */
export type PromptMemoryRow = Pick<
  Selectable<MemoryTable>,
  'id' | 'room_id' | 'kind' | 'about' | 'content' | 'pinned' | 'updated_at'
>;

const PROMPT_COLUMNS = [
  'id',
  'room_id',
  'kind',
  'about',
  'content',
  'pinned',
  'updated_at',
] as const;

/**
 * What a prompt of room `roomId` may remember when `mateId` speaks: the room's memories that
 * are shared or `mateId`'s own (in a group, never another member's), then the facts about the
 * person from their other chats with the same mate (not this chat's other paths: a branch
 * remembers its own path only) when they turned "remember me across chats" on: those of their
 * one-to-one chats with it, and those the mate itself keeps in their groups. Indexed reads
 * joined by `UNION ALL`: an `OR` of them read the whole table. Compiled once.
 */
const promptMemories = preparedQuery(
  (db, v: { roomId: string; userId: string; mateId: string; family: string }) => {
    const acrossChats = db
      .selectFrom('memory_settings')
      .where('memory_settings.user_id', '=', v.userId)
      .where('memory_settings.mate_id', '=', v.mateId)
      .where('memory_settings.across_chats', '=', sql<boolean>`${true}`);
    return db
      .selectFrom('memories')
      .select(PROMPT_COLUMNS)
      .where('room_id', '=', v.roomId)
      .where((eb) => eb.or([eb('mate_id', 'is', null), eb('mate_id', '=', v.mateId)]))
      .unionAll(
        acrossChats
          .innerJoin('rooms', (join) =>
            join
              .onRef('rooms.user_id', '=', 'memory_settings.user_id')
              .onRef('rooms.mate_id', '=', 'memory_settings.mate_id'),
          )
          .innerJoin('memories', 'memories.room_id', 'rooms.id')
          .select(PROMPT_COLUMNS.map((column) => `memories.${column}` as const))
          // A group's shared facts and its other members' are not this mate's to carry.
          .where('rooms.group_name', 'is', null)
          .where(sql<string>`coalesce(rooms.family_id, rooms.id)`, '<>', v.family)
          .where('memories.about', '=', 'person')
          .where('memories.kind', '=', 'fact'),
      )
      .unionAll(
        acrossChats
          .innerJoin('memories', 'memories.mate_id', 'memory_settings.mate_id')
          .innerJoin('rooms', 'rooms.id', 'memories.room_id')
          .select(PROMPT_COLUMNS.map((column) => `memories.${column}` as const))
          .where('rooms.user_id', '=', v.userId)
          .where(sql<string>`coalesce(rooms.family_id, rooms.id)`, '<>', v.family)
          .where('memories.about', '=', 'person')
          .where('memories.kind', '=', 'fact'),
      )
      .orderBy('updated_at', 'desc');
  },
);

/**
 * Tells room `roomId` that what its prompt may remember changed: its next send reads its
 * memories again. Only the room's own row: taken inside a memory's transaction, it never
 * waits crosswise on another room's.
 */
export async function touchMemories(db: Kysely<Database>, roomId: string): Promise<void> {
  await db
    .updateTable('rooms')
    .set((eb) => ({ memory_version: eb('memory_version', '+', 1) }))
    .where('id', '=', roomId)
    .execute();
}

/**
 * Tells the person's chats with the mate (groups it is in too) that the facts they may carry across chats changed
 * (all but `except`, a chat's family, when given), one room at a time after the change
 * committed: one statement never holds two rooms' rows, so it waits on no one crosswise.
 */
export async function touchChats(
  db: Kysely<Database>,
  chats: { userId: string; mateId: string; except?: string },
): Promise<void> {
  let rooms = db
    .selectFrom('rooms')
    .select('id')
    .where('user_id', '=', chats.userId)
    .where('mate_id', '=', chats.mateId);
  if (chats.except !== undefined)
    rooms = rooms.where(sql<string>`coalesce(family_id, id)`, '<>', chats.except);
  // And the groups the mate is in: its prompt there carries the same facts.
  let groups = db
    .selectFrom('room_members')
    .innerJoin('rooms', 'rooms.id', 'room_members.room_id')
    .select('rooms.id')
    .where('rooms.user_id', '=', chats.userId)
    .where('room_members.mate_id', '=', chats.mateId)
    .where('room_members.left_at', 'is', null)
    .where('rooms.mate_id', '<>', chats.mateId);
  if (chats.except !== undefined)
    groups = groups.where(sql<string>`coalesce(rooms.family_id, rooms.id)`, '<>', chats.except);
  for (const room of [...(await rooms.execute()), ...(await groups.execute())])
    await touchMemories(db, room.id);
}

/**
 * Room `room`'s memories as its mate `room.mate_id` (in a group, the speaker) may read them,
 * and its person's facts from other chats with that mate if allowed.
 */
export async function memoriesForPrompt(
  db: Kysely<Database>,
  room: { id: string; user_id: string; mate_id: string; family_id: string | null },
): Promise<PromptMemoryRow[]> {
  const { rows } = await promptMemories(db, {
    roomId: room.id,
    userId: room.user_id,
    mateId: room.mate_id,
    family: room.family_id ?? room.id,
  });
  return rows;
}

/** A memory with the messages it came from, as the Memory panel lists it. */
export interface MemoryWithSources extends Selectable<MemoryTable> {
  sources: string[];
}

/**
 * Every memory of a room with its sources (message ids in the room's order); with `mateId`,
 * only those a group's member remembers: the shared ones and its own.
 */
export async function roomMemories(
  db: Kysely<Database>,
  roomId: string,
  mateId?: string,
): Promise<MemoryWithSources[]> {
  let memories = db.selectFrom('memories').selectAll().where('room_id', '=', roomId);
  let links = db
    .selectFrom('memory_sources')
    .innerJoin('memories', 'memories.id', 'memory_sources.memory_id')
    .select(['memory_sources.memory_id', 'memory_sources.message_id'])
    .where('memories.room_id', '=', roomId);
  if (mateId !== undefined) {
    memories = memories.where((eb) =>
      eb.or([eb('mate_id', 'is', null), eb('mate_id', '=', mateId)]),
    );
    links = links.where((eb) =>
      eb.or([eb('memories.mate_id', 'is', null), eb('memories.mate_id', '=', mateId)]),
    );
  }
  const [rows, sources] = await Promise.all([
    memories.execute(),
    links.orderBy('memory_sources.position').execute(),
  ]);
  const byMemory = new Map<string, string[]>();
  for (const source of sources) {
    const list = byMemory.get(source.memory_id) ?? [];
    list.push(source.message_id);
    byMemory.set(source.memory_id, list);
  }
  return rows.map((memory) => ({ ...memory, sources: byMemory.get(memory.id) ?? [] }));
}

/** One memory of room `roomId`, or `undefined`. */
export async function findMemory(
  db: Kysely<Database>,
  roomId: string,
  memoryId: string,
): Promise<Selectable<MemoryTable> | undefined> {
  return db
    .selectFrom('memories')
    .selectAll()
    .where('id', '=', memoryId)
    .where('room_id', '=', roomId)
    .executeTakeFirst();
}

/** How many memories room `roomId` holds. */
export async function countMemories(db: Kysely<Database>, roomId: string): Promise<number> {
  const row = await db
    .selectFrom('memories')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('room_id', '=', roomId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Stores a memory and the messages it came from (with their positions). */
export async function insertMemory(
  db: Kysely<Database>,
  memory: Insertable<MemoryTable>,
  sources: { id: string; position: number }[],
): Promise<void> {
  await db.insertInto('memories').values(memory).execute();
  if (sources.length > 0)
    await db
      .insertInto('memory_sources')
      .values(
        sources.map((source) => ({
          memory_id: memory.id,
          message_id: source.id,
          position: source.position,
        })),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
}

/**
 * Changes a memory's text, pin, subject or owner; a change clears its "check this" mark.
 * `undefined` when it is gone (forgotten meanwhile, in another tab).
 */
export async function updateMemory(
  db: Kysely<Database>,
  memoryId: string,
  change: {
    content?: string;
    pinned?: boolean;
    about?: string;
    author?: string;
    mate_id?: string | null;
  },
  at: string,
): Promise<Selectable<MemoryTable> | undefined> {
  return db
    .updateTable('memories')
    .set({ ...change, needs_review: false, updated_at: at })
    .where('id', '=', memoryId)
    .returningAll()
    .executeTakeFirst();
}

/** Forgets a memory (its links go with it). */
export async function deleteMemoryRow(db: Kysely<Database>, memoryId: string): Promise<void> {
  await db.deleteFrom('memories').where('id', '=', memoryId).execute();
}

/**
 * Marks for review the memories made from `messageIds` (edited or deleted): what they say may
 * no longer hold. Call it in the edit's transaction, before a deleted message's links go.
 */
export async function markMemoriesOf(
  db: Kysely<Database>,
  messageIds: string[],
  at: string,
): Promise<void> {
  if (messageIds.length === 0) return;
  await db
    .updateTable('memories')
    .set({ needs_review: true, updated_at: at })
    .where(
      'id',
      'in',
      db.selectFrom('memory_sources').select('memory_id').where('message_id', 'in', messageIds),
    )
    .execute();
}

/** The words of `messageIds` now, by id (a deleted one is absent). */
export async function wordsNow(
  db: Kysely<Database>,
  messageIds: string[],
): Promise<Map<string, string>> {
  if (messageIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('messages')
    .select(['id', 'content'])
    .where('id', 'in', messageIds)
    .execute();
  return new Map(rows.map((row) => [row.id, row.content]));
}

/**
 * Before a room's messages of text after `position` go (a chat taken on from an earlier
 * message): the memories made from them are marked for review, and the room remembers from
 * `position` on again (new messages take the positions of the old).
 */
export async function forgetAfter(
  db: Kysely<Database>,
  roomId: string,
  position: number,
  at: string,
): Promise<void> {
  // The room's row first, as the memory writer takes it (see `holdRoomRow`).
  await db
    .updateTable('rooms')
    .set((eb) => ({ memory_through: position, memory_version: eb('memory_version', '+', 1) }))
    .where('id', '=', roomId)
    .where('memory_through', '>', position)
    .execute();
  await holdRoomRow(db, roomId);
  await db
    .updateTable('memories')
    .set({ needs_review: true, updated_at: at })
    .where(
      'id',
      'in',
      db
        .selectFrom('memory_sources')
        .innerJoin('messages', 'messages.id', 'memory_sources.message_id')
        .select('memory_sources.memory_id')
        .where('messages.room_id', '=', roomId)
        .where('messages.position', '>', position)
        .where('messages.image_prompt', 'is', null),
    )
    .execute();
}

/** The "remember me across chats" setting of a person and a mate (off unless set). */
export async function acrossChatsOf(
  db: Kysely<Database>,
  userId: string,
  mateId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('memory_settings')
    .select('across_chats')
    .where('user_id', '=', userId)
    .where('mate_id', '=', mateId)
    .executeTakeFirst();
  return row ? toBool(row.across_chats) : false;
}

/** Sets the "remember me across chats" setting of a person and a mate. */
export async function setAcrossChats(
  db: Kysely<Database>,
  userId: string,
  mateId: string,
  enabled: boolean,
): Promise<void> {
  await db
    .insertInto('memory_settings')
    .values({ user_id: userId, mate_id: mateId, across_chats: enabled })
    .onConflict((oc) => oc.columns(['user_id', 'mate_id']).doUpdateSet({ across_chats: enabled }))
    .execute();
}

/** The words of room `roomId` after position `after` and before `before`, oldest first. */
export async function wordsBetween(
  db: Kysely<Database>,
  roomId: string,
  range: { after: number; before: number; limit: number },
): Promise<
  { id: string; position: number; role: string; content: string; speaker_id: string | null }[]
> {
  return db
    .selectFrom('messages')
    .select(['id', 'position', 'role', 'content', 'speaker_id'])
    .where('room_id', '=', roomId)
    .where('position', '>', range.after)
    .where('position', '<', range.before)
    .where('image_prompt', 'is', null)
    .orderBy('position')
    .limit(range.limit)
    .execute();
}

/** Records why writing a room's memories failed (a sentence key), or clears it (`null`). */
export async function setMemoryError(
  db: Kysely<Database>,
  roomId: string,
  error: string | null,
): Promise<void> {
  await db.updateTable('rooms').set({ memory_error: error }).where('id', '=', roomId).execute();
}
