import type { Kysely, Transaction } from 'kysely';
import type { Database, RoomMemberTable } from '../db/schema';
import { fromJson, toJson } from '../db/dialect';

/** The database, or a transaction on it. */
type Db = Kysely<Database> | Transaction<Database>;

/** Every mate that is or was in a group room, in the list's order. */
export function membersOf(db: Db, roomId: string): Promise<RoomMemberTable[]> {
  return db
    .selectFrom('room_members')
    .selectAll()
    .where('room_id', '=', roomId)
    .orderBy('position')
    .execute();
}

/** The members of several group rooms (a page of the room list), in each list's order. */
export function membersOfRooms(db: Db, roomIds: string[]): Promise<RoomMemberTable[]> {
  if (roomIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('room_members')
    .selectAll()
    .where('room_id', 'in', roomIds)
    .orderBy('room_id')
    .orderBy('position')
    .execute();
}

/** Writes members of a group room. */
export async function insertMembers(db: Db, members: RoomMemberTable[]): Promise<void> {
  if (members.length > 0) await db.insertInto('room_members').values(members).execute();
}

/** Changes one member's row. */
export async function updateMember(
  db: Db,
  key: { roomId: string; mateId: string },
  changes: Partial<
    Pick<
      RoomMemberTable,
      'muted' | 'talkativeness' | 'left_at' | 'joined_at' | 'position' | 'name' | 'earlier_stays'
    >
  >,
): Promise<void> {
  // Nothing to change (a call that named none) is no statement: an empty SET is not SQL.
  if (Object.keys(changes).length === 0) return;
  await db
    .updateTable('room_members')
    .set(changes)
    .where('room_id', '=', key.roomId)
    .where('mate_id', '=', key.mateId)
    .execute();
}

/** Marks members as gone from a room at `at` (their mates may no longer be seen there). */
export async function markLeft(
  db: Db,
  roomId: string,
  mateIds: string[],
  at: string,
): Promise<void> {
  if (mateIds.length === 0) return;
  await db
    .updateTable('room_members')
    .set({ left_at: at })
    .where('room_id', '=', roomId)
    .where('mate_id', 'in', mateIds)
    .where('left_at', 'is', null)
    .execute();
}

/** A group room's name, scenario and order. */
export async function updateGroupRow(
  db: Db,
  roomId: string,
  changes: { group_name?: string; group_scenario?: string; turn_order?: string; mate_id?: string },
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('rooms').set(changes).where('id', '=', roomId).execute();
}

/**
 * The authors and speakers of a group room's newest `limit` text messages, newest first; with
 * `before`, of those before that position (what an edit of the message there leaves).
 */
export async function newestSpeakers(
  db: Db,
  roomId: string,
  limit: number,
  before?: number,
): Promise<{ role: string; speaker_id: string | null }[]> {
  let query = db
    .selectFrom('messages')
    .select(['role', 'speaker_id'])
    .where('room_id', '=', roomId)
    .where('image_prompt', 'is', null);
  if (before !== undefined) query = query.where('position', '<', before);
  return query.orderBy('position', 'desc').limit(limit).execute();
}

/** Copies a group room's members, past ones included, to another room (a branch of it). */
export async function copyMembers(db: Db, from: string, to: string): Promise<void> {
  const members = await membersOf(db, from);
  await insertMembers(
    db,
    // The stays written again as JSON text (PostgreSQL reads them back parsed).
    members.map((member) => ({
      ...member,
      room_id: to,
      earlier_stays: toJson(fromJson(member.earlier_stays, [])),
    })),
  );
}

/** A group's count of "Continue"s in a row (written under the room's lock: no other writes it). */
export async function setNextsInRow(db: Db, roomId: string, count: number): Promise<void> {
  await db.updateTable('rooms').set({ nexts_in_row: count }).where('id', '=', roomId).execute();
}

/** One more "Continue" in a group's count, added in the database (never a count read before). */
export async function countOneMoreNext(db: Db, roomId: string): Promise<void> {
  await db
    .updateTable('rooms')
    .set((eb) => ({ nexts_in_row: eb('nexts_in_row', '+', 1) }))
    .where('id', '=', roomId)
    .execute();
}
