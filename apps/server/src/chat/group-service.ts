import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  DEFAULT_TALKATIVENESS,
  GROUP_LIMITS,
  type CreateGroupPayload,
  type GroupMember,
  type GroupStay,
  type GroupTurnOrder,
  type MateSummary,
  type Room,
  type RoomGroup,
  type UpdateGroupMemberPayload,
  type UpdateGroupPayload,
} from '@mates/api-client';
import type { Database, RoomMemberTable, RoomTable, UserTable } from '../db/schema';
import { fromJson, now, toBool, toJson } from '../db/dialect';
import { invalid, missing, refused } from '../domain/errors';
import { matesByIds } from '../catalog/mate-repository';
import { toMateSummary, type MateRow } from '../catalog/mate-rows';
import { mateVisibleTo } from '../catalog/listing-repository';
import { findDefaultPersona, ownPersona } from '../accounts/persona-repository';
import type { ChatService } from './chat-service';
import { greetingVersions } from './greeting';
import { closedSummary, findOwnRoom } from './rooms';
import { insertRoom, newRoomRow, visibleMateIds } from './room-repository';
import { appendMessage } from './message-repository';
import {
  insertMembers,
  markLeft,
  membersOf,
  membersOfRooms,
  updateGroupRow,
  updateMember,
} from './group-repository';
import type { TurnMember } from './group-turns';
import { acrossChatsOf, touchMemories } from './memory-repository';

/** What group chats need from the server. */
export interface GroupDeps {
  db: Kysely<Database>;
  /** Which rooms have a reply being written (members change between turns only). */
  chat: ChatService;
}

/** A group room as its turns and pages see it: its rows, and who may speak now. */
export interface GroupState {
  room: RoomTable;
  /** Every member row, past ones included, in the list's order. */
  rows: RoomMemberTable[];
  /** The mates of the members, by id (a deleted mate is missing). */
  mates: Map<string, MateRow>;
  /**
   * The members who may speak now, in the list's order: still in the group, and seen by the
   * person as their settings stand (an adult mate waits while they have adult content off).
   */
  active: TurnMember[];
  /** Members still in the group whom the person's settings hide for now. */
  hidden?: Set<string>;
}

/** Whether a room is a group chat. */
export const isGroup = (room: Pick<RoomTable, 'group_name'>): boolean => room.group_name !== null;

/** A group room's order (`natural` if it says none). */
export const turnOrderOf = (room: Pick<RoomTable, 'turn_order'>): GroupTurnOrder =>
  (room.turn_order as GroupTurnOrder | null) ?? 'natural';

/** How readily a mate speaks, from its card (SillyTavern's `extensions.talkativeness`). */
function talkativenessOf(mate: MateRow): number {
  const value = Number(fromJson<Record<string, unknown>>(mate.extensions, {}).talkativeness);
  return Number.isFinite(value) && value >= 0 && value <= 1 ? value : DEFAULT_TALKATIVENESS;
}

/**
 * The mates `user` may chat with among `mateIds`, in that order; a 4000 for any other (unknown,
 * another person's private mate, hidden, adult without the setting: all said alike) and for a
 * draft without a greeting: a group is made of mates one could chat with alone.
 */
async function chatMates(
  db: Kysely<Database>,
  user: UserTable,
  mateIds: string[],
): Promise<MateRow[]> {
  const mates: MateRow[] = [];
  for (const mateId of mateIds) {
    const mate = await mateVisibleTo(db, mateId, user);
    if (!mate) throw invalid('notices.group.unknownMate');
    if (!mate.first_mes.trim() && mate.visibility === 'draft')
      throw invalid('notices.chat.draftNoGreeting');
    mates.push(mate);
  }
  return mates;
}

const memberRow = (
  roomId: string,
  mate: MateRow,
  position: number,
  at: string,
): RoomMemberTable => ({
  room_id: roomId,
  mate_id: mate.id,
  name: mate.name,
  position,
  muted: false,
  talkativeness: talkativenessOf(mate),
  joined_at: at,
  left_at: null,
  earlier_stays: '[]',
});

/**
 * Opens a group chat with 2 to 6 different mates the user may chat with, as their persona (or
 * their default one); it opens with the first member's greeting for groups (see
 * `greetingVersions`).
 */
export async function createGroup(
  deps: GroupDeps,
  user: UserTable,
  input: CreateGroupPayload & { turnOrder: GroupTurnOrder },
): Promise<Room> {
  const { db } = deps;
  if (new Set(input.mateIds).size !== input.mateIds.length) throw invalid('notices.group.twice');
  const mates = await chatMates(db, user, input.mateIds);
  const persona = input.personaId
    ? await ownPersona(db, user.id, input.personaId)
    : await findDefaultPersona(db, user.id);
  if (input.personaId && !persona) throw missing('notices.notFound.persona');
  const at = now();
  const first = mates[0]!;
  const room = newRoomRow({
    id: randomUUID(),
    user_id: user.id,
    mate_id: first.id,
    persona_id: persona?.id ?? null,
    created_at: at,
    // With "remember me across chats" on for a member, its facts come along at once.
    memory_version: (
      await Promise.all(mates.map((mate) => acrossChatsOf(db, user.id, mate.id)))
    ).some(Boolean)
      ? 1
      : 0,
    group_name: input.name?.trim() || mates.map((mate) => mate.name).join(', '),
    group_scenario: input.scenario?.trim() ?? '',
    turn_order: input.turnOrder,
  });
  const rows = mates.map((mate, index) => memberRow(room.id, mate, index, at));
  const names = { char: first.name, user: persona?.name ?? user.nickname };
  const [greeting, ...others] = greetingVersions(first, names, true, room.id);
  await db.transaction().execute(async (trx) => {
    await insertRoom(trx, room);
    await insertMembers(trx, rows);
    if (greeting !== undefined)
      await appendMessage(trx, room.id, {
        role: 'mate',
        content: greeting,
        status: 'complete',
        swipes: { others, index: 0 },
        speakerId: first.id,
      });
  });
  const state: GroupState = {
    room,
    rows,
    mates: new Map(mates.map((mate) => [mate.id, mate])),
    active: rows.map(toTurnMember),
  };
  return { ...toRoomShape(room), group: toRoomGroup(state) };
}

const toTurnMember = (row: RoomMemberTable): TurnMember => ({
  mateId: row.mate_id,
  name: row.name,
  muted: toBool(row.muted),
  talkativeness: Number(row.talkativeness),
});

/** The API shape of a room row, without its group. */
export function toRoomShape(room: RoomTable): Room {
  return {
    roomId: room.id,
    mateId: room.mate_id,
    personaId: room.persona_id,
    createdAt: room.created_at,
    updatedAt: room.updated_at,
  };
}

/**
 * A group room's members as `user` may see them now. A member whose mate they may no longer
 * see (turned private by its creator, hidden, deleted) leaves the group here, once: its past
 * replies stay, under its name only. One that only their adult-content setting hides stays a
 * member, quiet until the setting is on again.
 */
export async function groupState(
  db: Kysely<Database>,
  user: UserTable,
  room: RoomTable,
): Promise<GroupState> {
  let rows = await membersOf(db, room.id);
  const ids = rows.map((row) => row.mate_id);
  const [mates, visible, seeable] = await Promise.all([
    matesByIds(db, ids),
    visibleMateIds(db, user, ids),
    toBool(user.nfsw) ? null : visibleMateIds(db, { ...user, nfsw: true }, ids),
  ]);
  const gone = rows.filter((row) => row.left_at === null && !(seeable ?? visible).has(row.mate_id));
  if (gone.length > 0) {
    const at = now();
    await markLeft(
      db,
      room.id,
      gone.map((row) => row.mate_id),
      at,
    );
    rows = rows.map((row) => (gone.includes(row) ? { ...row, left_at: at } : row));
  }
  const present = rows.filter((row) => row.left_at === null);
  const active = present.filter((row) => visible.has(row.mate_id)).map(toTurnMember);
  const hidden = new Set(
    present.filter((row) => !visible.has(row.mate_id)).map((row) => row.mate_id),
  );
  // `mate_id` names a present member while there is one: the room's first mate is who
  // one-to-one code (pictures, the room list) reads.
  if (active.length > 0 && !active.some((member) => member.mateId === room.mate_id)) {
    await updateGroupRow(db, room.id, { mate_id: active[0]!.mateId });
    room = { ...room, mate_id: active[0]!.mateId };
  }
  return { room, rows, mates: new Map(mates.map((mate) => [mate.id, mate])), active, hidden };
}

/** A member's mate as a list shows it: its card's summary while it is in, its name after. */
function memberMate(state: GroupState, row: RoomMemberTable): MateSummary {
  const mate = state.mates.get(row.mate_id);
  if (!mate)
    return {
      mateId: row.mate_id,
      name: row.name,
      avatar: '',
      tagline: '',
      tags: [],
      gender: 'nonbinary',
      nsfw: false,
      creator: { creatorId: '', name: '', avatar: '' },
      counters: { chats: 0, messages: 0, favorites: 0, reviews: 0, rating: 0 },
    };
  const summary = toMateSummary(mate);
  return row.left_at === null && !state.hidden?.has(row.mate_id) ? summary : closedSummary(summary);
}

/** The API shape of a group: members in the list's order, then those that left, by when. */
export function toRoomGroup(state: GroupState): RoomGroup {
  const member = (row: RoomMemberTable): GroupMember => ({
    mate: memberMate(state, row),
    muted: toBool(row.muted),
    talkativeness: Number(row.talkativeness),
    joinedAt: row.joined_at,
    leftAt: row.left_at,
    earlierStays: fromJson<GroupStay[]>(row.earlier_stays, []),
    hidden: row.left_at === null && (state.hidden?.has(row.mate_id) ?? false),
  });
  const present = state.rows.filter((row) => row.left_at === null);
  const past = state.rows
    .filter((row) => row.left_at !== null)
    .sort((a, b) => String(a.left_at).localeCompare(String(b.left_at)));
  return {
    name: state.room.group_name ?? '',
    scenario: state.room.group_scenario ?? '',
    turnOrder: turnOrderOf(state.room),
    members: [...present, ...past].map(member),
    continuesInRow: state.room.nexts_in_row,
  };
}

/** The caller's own group room, or a 4004 / 4000 (a one-to-one room is not a group). */
async function ownGroup(deps: GroupDeps, user: UserTable, roomId: string): Promise<RoomTable> {
  const room = await findOwnRoom(deps.db, user.id, roomId);
  if (!isGroup(room)) throw invalid('notices.group.notGroup');
  return room;
}

/**
 * Changes who is in one of the user's groups under the room's lock, as a send holds it: never
 * while a turn is written (its speakers were chosen from the members), nor beside another
 * change, on any server. `change` gets the group as it stands, its present members apart; the
 * group as it then is is answered.
 */
async function changingMembers(
  deps: GroupDeps,
  user: UserTable,
  roomId: string,
  change: (state: GroupState, present: RoomMemberTable[]) => Promise<void>,
): Promise<RoomGroup> {
  const { db } = deps;
  const room = await ownGroup(deps, user, roomId);
  const controller = await deps.chat.begin(room.id);
  if (!controller) throw refused('notices.group.busy');
  try {
    const state = await groupState(db, user, room);
    await change(
      state,
      state.rows.filter((row) => row.left_at === null),
    );
    return toRoomGroup(await groupState(db, user, await findOwnRoom(db, user.id, room.id)));
  } finally {
    await deps.chat.end(room.id, controller);
  }
}

/**
 * A group's name, scenario or order; with `order`, its members' places in the list too (every
 * present member once, else a 4000 and nothing changed), under the room's lock as other changes
 * of its members are.
 */
export async function updateGroup(
  deps: GroupDeps,
  user: UserTable,
  input: UpdateGroupPayload,
): Promise<RoomGroup> {
  const { db } = deps;
  const changes = {
    ...(input.name !== undefined && { group_name: input.name.trim() }),
    ...(input.scenario !== undefined && { group_scenario: input.scenario.trim() }),
    ...(input.turnOrder !== undefined && { turn_order: input.turnOrder }),
  };
  const order = input.order;
  if (order !== undefined)
    return changingMembers(deps, user, input.roomId, async (state, present) => {
      const ids = new Set(present.map((row) => row.mate_id));
      if (
        new Set(order).size !== order.length ||
        order.length !== ids.size ||
        !order.every((mateId) => ids.has(mateId))
      )
        throw invalid('notices.group.badOrder');
      await db.transaction().execute(async (trx) => {
        await updateGroupRow(trx, state.room.id, changes);
        for (const [position, mateId] of order.entries())
          await updateMember(trx, { roomId: state.room.id, mateId }, { position });
      });
    });
  const room = await ownGroup(deps, user, input.roomId);
  await updateGroupRow(db, room.id, changes);
  return toRoomGroup(await groupState(db, user, { ...room, ...changes }));
}

/**
 * Invites a mate the user may chat with into their group (a past member comes back at the end
 * of the list, its earlier stay kept for the conversation's notes); a 5007 when it is full.
 */
export function addGroupMember(
  deps: GroupDeps,
  user: UserTable,
  input: { roomId: string; mateId: string },
): Promise<RoomGroup> {
  const { db } = deps;
  return changingMembers(deps, user, input.roomId, async (state, present) => {
    const roomId = state.room.id;
    if (present.some((row) => row.mate_id === input.mateId))
      throw invalid('notices.group.alreadyMember');
    if (present.length >= GROUP_LIMITS.maxMembers)
      throw refused('notices.group.full', { count: GROUP_LIMITS.maxMembers });
    const [mate] = await chatMates(db, user, [input.mateId]);
    const at = now();
    const position = Math.max(-1, ...state.rows.map((row) => row.position)) + 1;
    const past = state.rows.find((row) => row.mate_id === input.mateId);
    await db.transaction().execute(async (trx) => {
      if (past)
        await updateMember(
          trx,
          { roomId, mateId: input.mateId },
          {
            left_at: null,
            joined_at: at,
            position,
            name: mate!.name,
            earlier_stays: toJson([
              ...fromJson<GroupStay[]>(past.earlier_stays, []),
              { joinedAt: past.joined_at, leftAt: past.left_at! },
            ]),
          },
        );
      else await insertMembers(trx, [memberRow(roomId, mate!, position, at)]);
      // A group whose first member is gone names a present one in `mate_id`.
      if (state.active.length === 0) await updateGroupRow(trx, roomId, { mate_id: mate!.id });
      // What it knows of the person from their other chats comes along with it.
      if (await acrossChatsOf(trx, user.id, mate!.id)) await touchMemories(trx, roomId);
    });
  });
}

/**
 * Takes a mate out of the user's group: it leaves now and its replies stay. A group keeps
 * {@link GROUP_LIMITS.minMembers} at least (a 5007 says to invite another first).
 */
export function removeGroupMember(
  deps: GroupDeps,
  user: UserTable,
  input: { roomId: string; mateId: string },
): Promise<RoomGroup> {
  const { db } = deps;
  return changingMembers(deps, user, input.roomId, async (state, present) => {
    const roomId = state.room.id;
    if (!present.some((row) => row.mate_id === input.mateId))
      throw invalid('notices.group.notMember');
    if (present.length <= GROUP_LIMITS.minMembers)
      throw refused('notices.group.tooFew', { count: GROUP_LIMITS.minMembers });
    await db.transaction().execute(async (trx) => {
      await markLeft(trx, roomId, [input.mateId], now());
      // `mate_id` names a present member: the room's first mate is who one-to-one code reads.
      if (state.room.mate_id === input.mateId) {
        const next = present.find((row) => row.mate_id !== input.mateId)!;
        await updateGroupRow(trx, roomId, { mate_id: next.mate_id });
      }
    });
  });
}

/** Mutes or unmutes a member of the user's group, or changes its talkativeness. */
export async function updateGroupMember(
  deps: GroupDeps,
  user: UserTable,
  input: UpdateGroupMemberPayload,
): Promise<RoomGroup> {
  const { db } = deps;
  const room = await ownGroup(deps, user, input.roomId);
  const state = await groupState(db, user, room);
  if (!state.active.some((member) => member.mateId === input.mateId))
    throw invalid('notices.group.notMember');
  await updateMember(
    db,
    { roomId: room.id, mateId: input.mateId },
    {
      ...(input.muted !== undefined && { muted: input.muted }),
      ...(input.talkativeness !== undefined && { talkativeness: input.talkativeness }),
    },
  );
  return toRoomGroup(await groupState(db, user, room));
}

/**
 * The groups of a page of rooms (the room list), by room id, as `user` may see them now: a
 * member whose mate they may no longer see shows its name only (one closed for good leaves when
 * the room is next opened or sent to).
 */
export async function groupsOfRooms(
  db: Kysely<Database>,
  user: UserTable,
  rooms: RoomTable[],
): Promise<Map<string, RoomGroup>> {
  const groups = rooms.filter(isGroup);
  const rows = await membersOfRooms(
    db,
    groups.map((room) => room.id),
  );
  const ids = [...new Set(rows.map((row) => row.mate_id))];
  const [mates, visible] = await Promise.all([matesByIds(db, ids), visibleMateIds(db, user, ids)]);
  const byId = new Map(mates.map((mate) => [mate.id, mate]));
  return new Map(
    groups.map((room) => {
      const own = rows.filter((row) => row.room_id === room.id);
      const present = own.filter((row) => row.left_at === null);
      const state: GroupState = {
        room,
        rows: own,
        mates: byId,
        active: present.filter((row) => visible.has(row.mate_id)).map(toTurnMember),
        hidden: new Set(
          present.filter((row) => !visible.has(row.mate_id)).map((row) => row.mate_id),
        ),
      };
      return [room.id, toRoomGroup(state)];
    }),
  );
}
