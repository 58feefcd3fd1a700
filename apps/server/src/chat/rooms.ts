import type { Kysely } from 'kysely';
import type { Mate, MateSummary } from '@mates/api-client';
import type { Database, RoomTable, UserTable } from '../db/schema';
import { missing, refused } from '../domain/errors';
import type { SentenceKey } from '../i18n/texts';
import type { ChatService } from './chat-service';
import { findOwnRoomRow, mayStillSee } from './room-repository';

/** The caller's own room, or a 4004 (another user's room answers as if it did not exist). */
export async function findOwnRoom(
  db: Kysely<Database>,
  userId: string,
  roomId: string,
): Promise<RoomTable> {
  const room = await findOwnRoomRow(db, userId, roomId);
  if (!room) throw missing('notices.notFound.room');
  return room;
}

/**
 * Runs `change` on the user's room while holding the room's lock, as a send holds it: refused
 * (with `waitKey`'s sentence) while a reply is being written, and no turn starts until the
 * change is done, on any server. Its messages change, or are read to be copied, only between
 * replies: a regeneration read beside an edit had kept the old words as a version and dropped
 * the new ones (PostgreSQL), and a branch made beside a regeneration had copied the reply
 * missing or half written.
 */
export async function inIdleRoom<T>(
  deps: { db: Kysely<Database>; chat: ChatService },
  user: UserTable,
  roomId: string,
  waitKey: SentenceKey,
  change: (room: RoomTable) => Promise<T>,
): Promise<T> {
  const room = await findOwnRoom(deps.db, user.id, roomId);
  const held = await deps.chat.begin(room.id);
  if (!held) throw refused(waitKey);
  try {
    return await change(room);
  } finally {
    await deps.chat.end(room.id, held);
  }
}

/**
 * Whether the room's user may still see its mate (public, their own, and adult only if they
 * opted in). A room whose mate turned private or hidden stays readable but takes no new turn.
 */
export function canContinue(
  db: Kysely<Database>,
  user: UserTable,
  room: RoomTable,
): Promise<boolean> {
  return mayStillSee(db, user, room.mate_id);
}

/**
 * A mate's list form in a read-only room: its name only. The portrait of a mate turned
 * private lives at a new secret address, and its tagline and tags are its creator's card.
 */
export function closedSummary<M extends MateSummary>(mate: M): M {
  return { ...mate, avatar: '', tagline: '', tags: [] };
}

/** A mate as shown in a read-only room: who it was, none of the card its creator closed. */
export function withoutCard(mate: Mate): Mate {
  return {
    ...closedSummary(mate),
    description: '',
    personality: '',
    scenario: '',
    first_mes: '',
    mes_example: '',
    creator_notes: '',
    system_prompt: '',
    alternate_greetings: [],
  };
}
