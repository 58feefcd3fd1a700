import { mateVisibleTo } from '../catalog/listing-repository';
import { mateRow, matesByIds } from '../catalog/mate-repository';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Paged, Room, RoomInfo, RoomSummary } from '@mates/api-client';
import type { Config } from '../config';
import type { Database, RoomTable, UserTable } from '../db/schema';
import type { JobQueue } from '../jobs/job-queue';
import { now } from '../db/dialect';
import { invalid, missing } from '../domain/errors';
import { paging, toMate, toMateSummary, toPage } from '../catalog/mate-rows';
import { textsFor } from '../i18n/texts';
import { findDefaultPersona, ownPersona } from '../accounts/persona-repository';
import { userById } from '../accounts/user-repository';
import { toPersona } from '../accounts/persona-service';
import { removePictureFiles, withImages } from '../images/picture-messages';
import type { Logger } from '../logging/logger';
import { cancelPicture } from '../images/picture-job-service';
import { dropSpeech } from '../voice/speech-clips';
import { RoomDeleted, type ChatService } from './chat-service';
import { greetingVersions } from './greeting';
import { versionsOf } from './messages';
import { holdRoomRow } from './room-row-repository';
import { markPathUsed } from './branch-repository';
import { acrossChatsOf, touchChats } from './memory-repository';
import { canContinue, closedSummary, findOwnRoom, withoutCard } from './rooms';
import { groupsOfRooms, groupState, isGroup, toRoomGroup, toRoomShape } from './group-service';
import { membersOf } from './group-repository';
import { failEmptyReply } from './turn-service';
import {
  deleteRoomRow,
  greetingOnlyRooms,
  insertRoom,
  newRoomRow,
  roomPage,
  setRoomPersona,
  visibleMateIds,
} from './room-repository';
import {
  appendMessage,
  deletePicturesOfRoom,
  emptyRepliesOf,
  lastMessagesOf,
  newestMessages,
  picturesOfRoom,
  positionOf,
  writeChosenVersion,
} from './message-repository';

/** What the rooms' rules need from the server. */
export interface RoomDeps {
  db: Kysely<Database>;
  config: Config;
  /** Where files left behind by a store that failed are told. */
  log: Logger;
  /** Which rooms have a reply being written, and stopping it. */
  chat: ChatService;
  /** Pictures still being drawn are cancelled through their jobs. */
  jobs: JobQueue;
}

/** The API shape of a room row (a group's members are added by who reads them). */
const toRoom = (room: RoomTable): Room => toRoomShape(room);

/**
 * Opens a chat with a mate the user may see, as their `personaId` (else their default persona,
 * if any); the mate's greeting is its first message, its alternate greetings the greeting's
 * other versions. A draft without a greeting cannot be chatted with yet.
 */
export async function createRoom(
  deps: RoomDeps,
  user: UserTable,
  input: { mateId: string; personaId?: string },
): Promise<Room> {
  const { db } = deps;
  const mate = await mateVisibleTo(db, input.mateId, user);
  if (!mate) throw missing('notices.notFound.mate');
  if (!mate.first_mes.trim() && mate.visibility === 'draft')
    throw invalid('notices.chat.draftNoGreeting');
  const persona = input.personaId
    ? await ownPersona(db, user.id, input.personaId)
    : await findDefaultPersona(db, user.id);
  if (input.personaId && !persona) throw missing('notices.notFound.persona');
  const at = now();
  const room = newRoomRow({
    id: randomUUID(),
    user_id: user.id,
    mate_id: mate.id,
    persona_id: persona?.id ?? null,
    created_at: at,
    // With "remember me across chats" on, a new chat carries the person's facts at once.
    memory_version: (await acrossChatsOf(db, user.id, mate.id)) ? 1 : 0,
  });
  const names = { char: mate.name, user: persona?.name ?? user.nickname };
  await db.transaction().execute(async (trx) => {
    await insertRoom(trx, room);
    // The alternate greetings are the greeting's other versions, to swipe between.
    const [greeting, ...alternates] = greetingVersions(mate, names, false, room.id);
    if (greeting !== undefined)
      await appendMessage(trx, room.id, {
        role: 'mate',
        content: greeting,
        status: 'complete',
        swipes: { others: alternates, index: 0 },
      });
    // An empty room counts for nothing: the mate's chat count grows with the first message
    // a user sends it (recordChatForTrending), so opening rooms cannot push a mate up.
  });
  return toRoom(room);
}

/**
 * One page of the user's chats, the most recently used first, each with its mate (only its
 * name when the user may no longer see it) and its last message; with a keyword, those whose
 * mate's name holds it.
 */
export async function listRooms(
  deps: RoomDeps,
  user: UserTable,
  input: { keyword: string; page?: number; pageSize?: number; language: string },
): Promise<Paged<RoomSummary>> {
  const { db } = deps;
  const pages = paging(input);
  const { total, rooms } = await roomPage(db, user.id, { keyword: input.keyword, ...pages });
  const mateIds = rooms.map((room) => room.mate_id);
  const [mates, visible, lastRows] = await Promise.all([
    matesByIds(db, mateIds),
    visibleMateIds(db, user, mateIds),
    lastMessagesOf(
      db,
      rooms.map((room) => room.id),
    ),
  ]);
  const [lastMessages, groups] = await Promise.all([
    withImages(db, deps.config, lastRows, input.language),
    groupsOfRooms(db, user, rooms),
  ]);
  const lastByRoom = new Map(lastMessages.map((message) => [message.roomId, message]));
  const list = rooms.map((room): RoomSummary => {
    const mate = toMateSummary(mates.find((m) => m.id === room.mate_id)!);
    const group = groups.get(room.id);
    return {
      ...toRoom(room),
      ...(group && { group }),
      mate: visible.has(room.mate_id) ? mate : closedSummary(mate),
      lastMessage: lastByRoom.get(room.id) ?? null,
      branchCount: Number(room.branch_count ?? 1),
    };
  });
  return toPage(list, pages, total);
}

/**
 * One of the user's rooms: its mate (without its card when the user may no longer see it, and
 * then why the chat is read-only, in `language`), persona, and a page of messages before
 * `before` (the newest without).
 */
export async function roomInfo(
  deps: RoomDeps,
  user: UserTable,
  input: { roomId: string; before?: string; pageSize: number; language: string },
): Promise<RoomInfo> {
  const { db } = deps;
  const room = await findOwnRoom(db, user.id, input.roomId);
  // Opening a path of a chat with branches makes it the one the room list opens.
  if (!input.before) await markPathUsed(db, room, now());
  const before = input.before ? await positionOf(db, room.id, input.before) : undefined;
  if (input.before && before === undefined) throw missing('notices.notFound.message');
  const newestFirst = await newestMessages(db, room.id, {
    beforePosition: before,
    limit: input.pageSize + 1,
  });
  // A group's members first: one its owner may no longer see leaves it now.
  const group = isGroup(room) ? await groupState(db, user, room) : undefined;
  const [mate, persona, writable] = await Promise.all([
    mateRow(db, group?.room.mate_id ?? room.mate_id),
    room.persona_id ? ownPersona(db, user.id, room.persona_id) : undefined,
    // A group goes on while one of its members is there; a one-to-one chat while its mate is.
    group ? group.active.length > 0 : canContinue(db, user, room),
  ]);
  return {
    room: group ? { ...toRoom(group.room), group: toRoomGroup(group) } : toRoom(room),
    // A creator chatting with their own hidden mate is told why it is hidden (#14).
    mate: writable ? toMate(mate, { userId: user.id, isAdmin: false }) : withoutCard(toMate(mate)),
    persona: persona ? toPersona(persona) : null,
    messages: await withImages(
      db,
      deps.config,
      newestFirst.slice(0, input.pageSize).reverse(),
      input.language,
    ),
    hasMoreBefore: newestFirst.length > input.pageSize,
    readOnly: writable
      ? null
      : textsFor(input.language)(group ? 'room.groupGone' : 'room.readOnly'),
  };
}

/**
 * Deletes one of the user's rooms with everything in it: its reply stops, a reply with no
 * word yet gives its chat back, pictures being drawn stop with their coins back, and the
 * files of its pictures and spoken clips go too. It holds the room's lock meanwhile, as every
 * change to a room's messages does: a send beside it is refused rather than charged for a
 * reply that would go with the room.
 */
export async function deleteRoom(deps: RoomDeps, user: UserTable, roomId: string): Promise<void> {
  const room = await findOwnRoom(deps.db, user.id, roomId);
  // A reply being written is stopped and its end waited for (its words saved as far as they
  // got). Should it outlast the wait (a server that did not hear the stop), or the locks not
  // answer (Redis away), the room goes all the same, and a reply still written in it ends when
  // its next save finds it gone.
  const held = await deps.chat.takeOver(room.id, new RoomDeleted());
  try {
    await deleteHeldRoom(deps, user, room);
  } finally {
    if (held) await deps.chat.end(room.id, held);
  }
}

async function deleteHeldRoom(deps: RoomDeps, user: UserTable, room: RoomTable): Promise<void> {
  const { db } = deps;
  // A reply that had not written a word yet goes with the room: its chat comes back first.
  for (const replyId of await emptyRepliesOf(db, room.id))
    await failEmptyReply(db, user.id, replyId, { key: 'ledger.reasons.refundRoomDeleted' });
  // Pictures still being drawn stop with their coins back; drawn ones' files go with the room.
  for (const picture of await picturesOfRoom(db, room.id)) await cancelPicture(deps, picture);
  // Spoken clips' rows would go with the messages; their files go here.
  await dropSpeech(deps, { roomId: room.id });
  // The mates whose facts it kept: its mate, or in a group every member's (read before the
  // rows go with the room), each carried into that mate's other chats.
  const keepers = isGroup(room)
    ? (await membersOf(db, room.id)).map((member) => member.mate_id)
    : [room.mate_id];
  // The files as they are when the rows go (a picture may have been stored meanwhile).
  const files = await deletePicturesOfRoom(db, room.id);
  await deleteRoomRow(db, room.id);
  // Its facts about the person leave the chats that carried them.
  for (const mateId of keepers)
    if (await acrossChatsOf(db, user.id, mateId)) await touchChats(db, { userId: user.id, mateId });
  await removePictureFiles(deps, files);
}

/**
 * Who the person plays in one of their rooms from the next message on: a persona of theirs, or
 * none. Before their first message, the greeting (each of its versions) greets who they now
 * play, unless it was edited: it is what the card says to them, as the prompt is.
 */
export async function setPersona(
  deps: RoomDeps,
  user: UserTable,
  input: { roomId: string; personaId: string | null },
): Promise<Room> {
  const { db } = deps;
  const room = await findOwnRoom(db, user.id, input.roomId);
  const persona = input.personaId ? await ownPersona(db, user.id, input.personaId) : undefined;
  if (input.personaId && !persona) throw missing('notices.notFound.persona');
  // The greeting changes only between replies; while one is written the chat has begun.
  const held = await deps.chat.begin(room.id);
  try {
    if (held) {
      const before = room.persona_id ? await ownPersona(db, user.id, room.persona_id) : undefined;
      await readdressGreeting(
        deps,
        room,
        before?.name ?? user.nickname,
        persona?.name ?? user.nickname,
      );
    }
    await setRoomPersona(db, room.id, input.personaId);
  } finally {
    if (held) await deps.chat.end(room.id, held);
  }
  return { ...toRoom(room), personaId: input.personaId };
}

/**
 * The greetings of the person's chats played as `personaId` (`null`: as themself) where they
 * have not spoken yet, readdressed from `from` to `to` (the persona renamed, or the person's
 * nickname changed; the persona deleted: `to` is `null`, their nickname), as a chat's greeting is
 * when it changes persona ({@link setPersona}). The chats are found before the change (a deleted
 * persona's leave it), and readdressed after it; one being answered meanwhile has begun and is
 * left, and a failure is logged: the change itself stands.
 */
export async function personaGreetings(
  deps: RoomDeps,
  userId: string,
  personaId: string | null,
): Promise<(from: string, to: string | null) => Promise<void>> {
  const rooms = await greetingOnlyRooms(deps.db, userId, personaId);
  const readdress = async (room: RoomTable, from: string, to: string) => {
    const held = await deps.chat.begin(room.id);
    if (!held) return;
    try {
      await readdressGreeting(deps, room, from, to);
    } finally {
      await deps.chat.end(room.id, held);
    }
  };
  return async (from, to) => {
    if (rooms.length === 0) return;
    try {
      const name = to ?? (await userById(deps.db, userId))?.nickname;
      if (name === undefined || name === from) return;
      for (const room of rooms) await readdress(room, from, name);
    } catch (error) {
      const whose = personaId === null ? `user ${userId}` : `persona ${personaId}`;
      deps.log.warn(`could not readdress the greetings of ${whose}: ${detail(error)}`);
    }
  };
}

const detail = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Fills the greeting of a room where the person has not spoken yet with `userName`, when it is
 * still what the card wrote to `wasName` (not edited, the card unchanged since); the version
 * shown stays the one shown.
 */
async function readdressGreeting(
  deps: RoomDeps,
  room: RoomTable,
  wasName: string,
  userName: string,
): Promise<void> {
  const { db } = deps;
  const messages = await newestMessages(db, room.id, { limit: 2 });
  const greeting = messages.length === 1 ? messages[0]! : undefined;
  if (!greeting || greeting.role !== 'mate' || greeting.edited_at !== null) return;
  const mate = await mateRow(db, greeting.speaker_id ?? room.mate_id);
  const inGroup = isGroup(room);
  const was = greetingVersions(
    mate,
    { char: mate.name, user: wasName },
    inGroup,
    room.family_id ?? room.id,
  );
  const versions = versionsOf(greeting);
  if (was.length !== versions.length || was.some((text, at) => text !== versions[at])) return;
  const after = greetingVersions(
    mate,
    { char: mate.name, user: userName },
    inGroup,
    room.family_id ?? room.id,
  );
  if (after.length !== was.length || after.every((text, at) => text === was[at])) return;
  const index = Math.min(Math.max(0, greeting.swipe_index), versions.length - 1);
  await db.transaction().execute(async (trx) => {
    await holdRoomRow(trx, room.id);
    await writeChosenVersion(trx, greeting, {
      content: after[index]!,
      others: after.filter((_, at) => at !== index),
      index,
      status: 'complete',
    });
  });
  // Its audio says the other name.
  await dropSpeech(deps, { ids: [greeting.id] });
}
