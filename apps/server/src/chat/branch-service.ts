import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type {
  Branch,
  ChatExport,
  ChatExportFormat,
  Memory,
  Room,
  RoomBranches,
} from '@mates/api-client';
import type { Config } from '../config';
import type { Database, MessageTable, RoomTable, UserTable } from '../db/schema';
import { fromJson, now, toJson } from '../db/dialect';
import { missing, refused } from '../domain/errors';
import { picturesOf } from '../images/picture-messages';
import type { ChatService } from './chat-service';
import { findOwnRoom, canContinue, inIdleRoom } from './rooms';
import { consume, type RateLimits } from '../accounts/rate-limits';
import { versionStatusesOf, versionsOf } from './messages';
import { findRoomMessage, lastMessagesOf } from './message-repository';
import { insertRoom } from './room-repository';
import { copyMembers, membersOf } from './group-repository';
import { chatMemories } from './memory-service';
import {
  copyMemories,
  familyOf,
  familyRooms,
  holdFamily,
  insertMessageCopies,
  messageCounts,
  messagesThrough,
} from './branch-repository';

/** What branching needs. */
export interface BranchDeps {
  db: Kysely<Database>;
  config: Config;
  chat: ChatService;
  limits: Pick<RateLimits, 'branch'>;
}

/** The most paths one chat may have. */
export const BRANCHES_PER_CHAT_MAX = 100;

/** A path's newest words as the branches view shows them. */
const PREVIEW_CHARS = 140;

/**
 * "Branch from here": a new room, the chat's new path, holding copies of the room's messages
 * up to and including `messageId` (a drawn picture with a copy of its file; a picture not
 * drawn yet stays with its path), and the memories made of those messages only. The room
 * stays as it was. Refused while a reply is being written in the room, and in a chat that
 * can no longer go on.
 */
export async function branchRoom(
  deps: BranchDeps,
  user: UserTable,
  input: { roomId: string; messageId: string },
): Promise<Room> {
  // Read and copied under the room's lock: no reply changes its messages meanwhile.
  return inIdleRoom(deps, user, input.roomId, 'notices.chat.waitBranch', (room) =>
    branchIdleRoom(deps, user, room, input.messageId),
  );
}

/** A JSON column as read (text on SQLite, parsed on PostgreSQL), as text to write back. */
function jsonAsText(value: unknown): string | null {
  return value === null ? null : toJson(fromJson<unknown>(value, null));
}

/** {@link branchRoom} once the room is held. */
async function branchIdleRoom(
  deps: BranchDeps,
  user: UserTable,
  room: RoomTable,
  messageId: string,
): Promise<Room> {
  const { db } = deps;
  if (!(await canContinue(db, user, room))) throw refused('room.readOnly');
  const fork = await findRoomMessage(db, room.id, messageId);
  // A message the branch would not hold is no place to fork at.
  if (!fork || !copied(fork)) throw missing('notices.notFound.message');
  const tooMany = async (reader: Kysely<Database>) => {
    if ((await familyRooms(reader, user.id, familyOf(room))).length >= BRANCHES_PER_CHAT_MAX)
      throw refused('notices.chat.tooManyBranches', { count: BRANCHES_PER_CHAT_MAX });
  };
  await tooMany(db);
  await consume(deps.limits.branch, user.id);
  const at = now();
  const branchId = randomUUID();
  const originals = (await messagesThrough(db, room.id, fork.position)).filter(copied);
  // Each path owns its pictures' files: deleting one path never takes another's picture.
  const pictures = picturesOf(deps.config).store;
  const files = new Map<string, string>();
  for (const message of originals)
    if (message.image_file) {
      const data = await pictures.get(message.image_file);
      if (data) files.set(message.id, await pictures.put(data));
    }
  const copyOf = new Map(originals.map((message) => [message.id, randomUUID()]));
  const copies: MessageTable[] = originals.map((message) => ({
    ...message,
    id: copyOf.get(message.id)!,
    room_id: branchId,
    image_file: message.image_file ? (files.get(message.id) ?? null) : null,
    image_share_id: null,
    swipes: jsonAsText(message.swipes),
    swipe_statuses: jsonAsText(message.swipe_statuses),
  }));
  const branch: RoomTable = {
    id: branchId,
    user_id: user.id,
    mate_id: room.mate_id,
    persona_id: room.persona_id,
    created_at: at,
    updated_at: at,
    // Set below from the summary copied, if any.
    memory_through: 0,
    memory_error: null,
    memory_version: room.memory_version,
    family_id: familyOf(room),
    parent_room_id: room.id,
    fork_parent_message_id: fork.id,
    fork_message_id: copyOf.get(fork.id) ?? null,
    // A group's branch is the same group: its members come along as they are now.
    group_name: room.group_name,
    group_scenario: room.group_scenario,
    turn_order: room.turn_order,
    nexts_in_row: 0,
  };
  try {
    await db.transaction().execute(async (trx) => {
      // Counted again under the chat's lock: its other paths, each held on its own, had each
      // found room for one more and all were made.
      await holdFamily(trx, familyOf(room));
      await tooMany(trx);
      await insertRoom(trx, branch);
      await insertMessageCopies(trx, copies);
      if (room.group_name !== null) await copyMembers(trx, room.id, branchId);
      // The summary comes along only when all it tells happened before the fork (its sources
      // were all copied); the branch then remembers on from where it ends, else from the start.
      const summaryThrough = await copyMemories(trx, room.id, branchId, copyOf);
      if (summaryThrough > 0)
        await trx
          .updateTable('rooms')
          .set({ memory_through: summaryThrough })
          .where('id', '=', branchId)
          .execute();
    });
  } catch (error) {
    for (const file of files.values()) await pictures.remove(file);
    throw error;
  }
  return {
    roomId: branch.id,
    mateId: branch.mate_id,
    personaId: branch.persona_id,
    createdAt: branch.created_at,
    updatedAt: branch.updated_at,
  };
}

/** Every path of the chat room `roomId` belongs to, oldest first, with where each forked. */
export async function roomBranches(
  deps: Pick<BranchDeps, 'db'>,
  user: UserTable,
  roomId: string,
): Promise<RoomBranches> {
  const { db } = deps;
  const room = await findOwnRoom(db, user.id, roomId);
  const rooms = await familyRooms(db, user.id, familyOf(room));
  const ids = rooms.map((path) => path.id);
  const [counts, last] = await Promise.all([messageCounts(db, ids), lastMessagesOf(db, ids)]);
  const lastByRoom = new Map(last.map((message) => [message.room_id, message]));
  return {
    roomId: room.id,
    branches: rooms.map((path): Branch => ({
      roomId: path.id,
      fork:
        path.fork_parent_message_id && path.fork_message_id
          ? {
              parentRoomId: ids.includes(path.parent_room_id ?? '') ? path.parent_room_id : null,
              parentMessageId: path.fork_parent_message_id,
              messageId: path.fork_message_id,
            }
          : null,
      messageCount: counts.get(path.id) ?? 0,
      preview: previewOf(lastByRoom.get(path.id)),
      createdAt: path.created_at,
      updatedAt: path.updated_at,
    })),
  };
}

/**
 * Whether a branch holds a copy of `message`: not a picture still being drawn (it stays with
 * its path), nor a reply left empty and unfinished by a stopped server: that one is given back
 * when its path goes, and a copy would give it back once more for each branch.
 */
const copied = (message: MessageTable) =>
  (message.image_prompt === null || message.image_file !== null) && !unfinished(message);

/** A reply left empty and unfinished (by a server stopped mid-reply): given back, not copied. */
const unfinished = (message: MessageTable) =>
  message.status === 'partial' && message.content === '' && message.image_prompt === null;

function previewOf(message: MessageTable | undefined): string {
  if (!message) return '';
  const text = (message.image_prompt ?? message.content).replace(/\s+/g, ' ').trim();
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
}

/** The media type of each export format. */
const MIME_TYPES: Record<ChatExportFormat, string> = {
  json: 'application/json',
  markdown: 'text/markdown',
  jsonl: 'application/jsonl',
};
const ENDINGS: Record<ChatExportFormat, string> = { json: 'json', markdown: 'md', jsonl: 'jsonl' };

/**
 * A path of a chat as a file: Mates' own JSON (every message with its versions, and the path's
 * memories as the Memory panel lists them), Markdown to read (its memories after its messages),
 * or SillyTavern's chat file (JSONL: a header line, then one line per message with its
 * swipes), which SillyTavern and the apps that read its chats import.
 */
export async function exportChat(
  deps: Pick<BranchDeps, 'db'>,
  user: UserTable,
  input: { roomId: string; format: ChatExportFormat },
): Promise<ChatExport> {
  const { db } = deps;
  const room = await findOwnRoom(db, user.id, input.roomId);
  const [mate, persona, messages, memories] = await Promise.all([
    db.selectFrom('mates').select(['id', 'name']).where('id', '=', room.mate_id).executeTakeFirst(),
    room.persona_id
      ? db
          .selectFrom('personas')
          .select('name')
          .where('id', '=', room.persona_id)
          .executeTakeFirst()
      : undefined,
    db
      .selectFrom('messages')
      .selectAll()
      .where('room_id', '=', room.id)
      .orderBy('position')
      .execute(),
    // SillyTavern's chat file has no place for them.
    input.format === 'jsonl' ? [] : chatMemories(db, room.id),
  ]);
  // A group's chat is named after the group, and each reply after its speaker.
  const members = room.group_name !== null ? await membersOf(db, room.id) : [];
  const memberNames = new Map(members.map((member) => [member.mate_id, member.name]));
  const names = {
    char: room.group_name ?? mate?.name ?? 'Mate',
    user: persona?.name ?? user.nickname,
  };
  const speaker = (message: MessageTable) =>
    message.role === 'user'
      ? names.user
      : (memberNames.get(message.speaker_id ?? '') ?? mate?.name ?? names.char);
  const day = now().slice(0, 10);
  const fileName = `${safeFileName(names.char)} - ${day}.${ENDINGS[input.format]}`;
  const content =
    input.format === 'json'
      ? JSON.stringify(
          {
            format: 'mates-chat',
            version: 1,
            exportedAt: now(),
            room: {
              roomId: room.id,
              createdAt: room.created_at,
              branchedFrom: room.parent_room_id
                ? { roomId: room.parent_room_id, messageId: room.fork_parent_message_id }
                : null,
            },
            mate: { mateId: room.mate_id, name: mate?.name ?? names.char },
            ...(room.group_name !== null && {
              group: {
                name: room.group_name,
                // What the person wrote for the group, and who speaks after them.
                scenario: room.group_scenario,
                turnOrder: room.turn_order,
                members: members.map((member) => ({
                  mateId: member.mate_id,
                  name: member.name,
                  joinedAt: member.joined_at,
                  leftAt: member.left_at,
                })),
              },
            }),
            user: { name: names.user },
            messages: messages.map((message) => ({
              messageId: message.id,
              role: message.role,
              name: speaker(message),
              ...(message.speaker_id !== null && { speakerId: message.speaker_id }),
              content: message.content,
              status: message.status,
              createdAt: message.created_at,
              editedAt: message.edited_at,
              versions: versionsOf(message),
              versionStatuses: versionStatusesOf(message),
              shownVersion: message.swipe_index,
              ...(message.image_prompt !== null && { picture: { prompt: message.image_prompt } }),
            })),
            memories,
          },
          null,
          2,
        )
      : input.format === 'markdown'
        ? markdownOf(names, room, messages, speaker) +
          markdownMemories(memories, {
            user: names.user,
            // In a group, what its mates wrote together is the group's (its own, a member's).
            mate: room.group_name !== null ? names.char : (mate?.name ?? names.char),
            members: memberNames,
          })
        : sillyTavernChat(names, room, messages, speaker);
  return { fileName, mimeType: MIME_TYPES[input.format], content };
}

function markdownOf(
  names: { char: string; user: string },
  room: RoomTable,
  messages: MessageTable[],
  speaker: (message: MessageTable) => string,
): string {
  const lines = [`# ${names.char} and ${names.user}`, '', `Chat begun ${room.created_at}.`, ''];
  if (room.group_scenario) lines.push(`Scenario: ${room.group_scenario}`, '');
  for (const message of messages) {
    const versions = versionsOf(message);
    const text =
      message.image_prompt !== null ? `*(a picture: ${message.image_prompt})*` : message.content;
    // A reply stopped part way says so, as the chat does ("This reply was cut off.").
    const cut =
      message.image_prompt === null && message.status === 'partial' && message.content !== ''
        ? ['cut off']
        : [];
    const notes = [
      ...(versions.length > 1 ? [`version ${message.swipe_index + 1} of ${versions.length}`] : []),
      ...cut,
    ];
    const version = notes.length ? ` *(${notes.join('; ')})*` : '';
    lines.push(`**${speaker(message)}:**${version} ${text}`, '');
  }
  return lines.join('\n');
}

/**
 * A chat's memories to read after its messages: the story so far, then each fact with what it
 * is about, who wrote it and whether it is pinned. Nothing when it has none.
 */
function markdownMemories(
  memories: Memory[],
  names: { user: string; mate: string; members: Map<string, string> },
): string {
  if (memories.length === 0) return '';
  const lines = ['', '## Memories', ''];
  for (const memory of memories.filter((each) => each.kind === 'summary')) {
    lines.push(`**Story so far:** ${memory.content}`, '');
  }
  for (const memory of memories.filter((each) => each.kind === 'fact')) {
    const notes = [
      memory.about === 'person' ? `about ${names.user}` : 'about the story',
      `written by ${
        memory.author === 'person'
          ? names.user
          : ((memory.mateId !== null ? names.members.get(memory.mateId) : undefined) ?? names.mate)
      }`,
      ...(memory.mateId !== null
        ? [`${names.members.get(memory.mateId) ?? names.mate}'s own`]
        : []),
      ...(memory.pinned ? ['pinned'] : []),
    ];
    lines.push(`- ${memory.content} *(${notes.join('; ')})*`);
  }
  return lines.join('\n') + '\n';
}

/** SillyTavern's chat file: its header, then each message as it writes them. */
function sillyTavernChat(
  names: { char: string; user: string },
  room: RoomTable,
  messages: MessageTable[],
  speaker: (message: MessageTable) => string,
): string {
  const header = {
    user_name: names.user,
    character_name: names.char,
    create_date: room.created_at,
    chat_metadata: {},
  };
  const lines = messages
    .filter((message) => message.image_prompt === null)
    .map((message) => {
      const versions = versionsOf(message);
      return {
        name: speaker(message),
        is_user: message.role === 'user',
        is_system: false,
        send_date: message.created_at,
        mes: message.content,
        ...(versions.length > 1 && {
          swipes: versions,
          swipe_id: message.swipe_index,
          // SillyTavern keeps one entry per swipe beside them.
          swipe_info: versions.map(() => ({ send_date: message.created_at, extra: {} })),
        }),
        extra: {},
      };
    });
  return [header, ...lines].map((line) => JSON.stringify(line)).join('\n') + '\n';
}

/** A name usable in a file name on every system. */
function safeFileName(name: string): string {
  const safe = [...name]
    .map((char) => (char < ' ' || '\\/:*?"<>|'.includes(char) ? ' ' : char))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
  return safe || 'Chat';
}
