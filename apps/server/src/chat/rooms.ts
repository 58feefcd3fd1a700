import type { Kysely } from 'kysely';
import type { Mate, MateSummary } from '@mates/api-client';
import type { Database, RoomTable, UserTable } from '../db/schema';
import { missing } from '../domain/errors';
import { preparedQuery } from '../db/prepared-query';
import { matesWithCreators, visibleTo } from '../catalog/mate-rows';
import { toBool } from '../db/dialect';

const ownRoom = preparedQuery((db, v: { roomId: string; userId: string }) =>
  db.selectFrom('rooms').selectAll().where('id', '=', v.roomId).where('user_id', '=', v.userId),
);

/** The caller's own room, or a 4004 (another user's room answers as if it did not exist). */
export async function findOwnRoom(
  db: Kysely<Database>,
  userId: string,
  roomId: string,
): Promise<RoomTable> {
  const [room] = (await ownRoom(db, { roomId, userId })).rows;
  if (!room) throw missing('notices.notFound.room');
  return room;
}

/**
 * Whether a user may see one mate, by {@link visibleTo}'s rule: asked at every send, so
 * compiled once (see `preparedQuery`) for viewers of adult content and once for the others,
 * the one difference in the rule's shape. It reads the mate's id only.
 */
const mateVisibleTo = ([false, true] as const).map((adult) =>
  preparedQuery((db, v: { mateId: string; userId: string }) =>
    visibleTo(
      db.selectFrom('mates').innerJoin('users as creator', 'creator.id', 'mates.creator_id'),
      { id: v.userId, nfsw: adult } as UserTable,
      { includeOwn: true },
    )
      .select('mates.id')
      .where('mates.id', '=', v.mateId),
  ),
);

/**
 * Whether the room's user may still see its mate (public, their own, and adult only if they
 * opted in). A room whose mate turned private or hidden stays readable but takes no new turn.
 */
export async function canContinue(
  db: Kysely<Database>,
  user: UserTable,
  room: RoomTable,
): Promise<boolean> {
  const visible = mateVisibleTo[toBool(user.nfsw) ? 1 : 0]!;
  return (await visible(db, { mateId: room.mate_id, userId: user.id })).rows.length > 0;
}

/** Which of `mateIds` `user` may still see; their rooms with the others are read-only. */
export async function visibleMateIds(
  db: Kysely<Database>,
  user: UserTable,
  mateIds: string[],
): Promise<Set<string>> {
  if (mateIds.length === 0) return new Set();
  const rows = await visibleTo(matesWithCreators(db), user, { includeOwn: true })
    .select('mates.id')
    .where('mates.id', 'in', mateIds)
    .execute();
  return new Set(rows.map((row) => row.id));
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
