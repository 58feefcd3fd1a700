import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import {
  MEMORIES_PER_ROOM_MAX,
  type Memory,
  type MemorySubject,
  type PromptPart,
  type PromptView,
  type RoomMemories,
} from '@mates/api-client';
import type { Database, MemoryTable, RoomTable, UserTable } from '../db/schema';
import type { LanguageModel } from '../llm/language-model';
import { now, toBool } from '../db/dialect';
import { invalid, missing, refused } from '../domain/errors';
import { textsFor, type SentenceKey } from '../i18n/texts';
import { canContinue, findOwnRoom } from './rooms';
import { mayStillSee } from './room-repository';
import { holdRoomRow } from './room-row-repository';
import { fittingTurns, loadConversation, promptHold, type FittedPrompt } from './conversation';
import type { MemoryKeeper } from './memory-keeper';
import { MEMORY_JOB } from './memory-writer';
import { groupState } from './group-service';
import { promptContext } from './group-send-service';
import {
  acrossChatsOf,
  countMemories,
  deleteMemoryRow,
  findMemory,
  insertMemory,
  roomMemories,
  setAcrossChats,
  setMemoryError,
  updateMemory,
  touchChats,
  touchMemories,
  type MemoryWithSources,
} from './memory-repository';

/** What the memory calls need. */
export interface MemoryDeps {
  db: Kysely<Database>;
  model: LanguageModel;
  maxTokens: number;
  memory: MemoryKeeper;
}

/** A stored memory as the API answers it. */
function toMemory(row: Selectable<MemoryTable>, sources: string[]): Memory {
  return {
    memoryId: row.id,
    roomId: row.room_id,
    kind: row.kind === 'summary' ? 'summary' : 'fact',
    content: row.content,
    about: row.about === 'person' ? 'person' : 'story',
    pinned: toBool(row.pinned),
    author: row.author === 'person' ? 'person' : 'mate',
    mateId: row.mate_id,
    sourceMessageIds: sources,
    needsReview: toBool(row.needs_review),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The Memory panel's order: the summary, pinned facts, then the others, newest first. */
function panelOrder(a: MemoryWithSources, b: MemoryWithSources): number {
  const rank = (m: MemoryWithSources) => (m.kind === 'summary' ? 0 : toBool(m.pinned) ? 1 : 2);
  return (
    rank(a) - rank(b) ||
    b.created_at.localeCompare(a.created_at) ||
    b.updated_at.localeCompare(a.updated_at) ||
    a.id.localeCompare(b.id)
  );
}

/**
 * The member of group `room` a memory is asked to be of: `undefined` when not asked, `null`
 * for the group's shared memories. Refused (4000) on a one-to-one chat (its memories are all
 * its mate's), and for a mate that is not a member: with `present`, one still in the group
 * (a memory is given to a member that may speak); without, a past member too (what it kept).
 */
async function ownerIn(
  db: Kysely<Database>,
  room: RoomTable,
  mateId: string | null | undefined,
  present: boolean,
): Promise<string | null | undefined> {
  if (mateId === undefined || mateId === null) return mateId;
  if (room.group_name === null) throw invalid('notices.group.notGroup');
  const member = await db
    .selectFrom('room_members')
    .select('left_at')
    .where('room_id', '=', room.id)
    .where('mate_id', '=', mateId)
    .executeTakeFirst();
  if (!member || (present && member.left_at !== null)) throw invalid('notices.group.notMember');
  return mateId;
}

/**
 * A room's memories, its writer's state and the "remember me across chats" setting; in a group
 * with `mateId`, only what that member remembers (the shared memories and its own).
 */
export async function listMemories(
  deps: Pick<MemoryDeps, 'db'>,
  user: UserTable,
  query: { roomId: string; mateId?: string },
  language: string,
): Promise<RoomMemories> {
  const { db } = deps;
  const room = await findOwnRoom(db, user.id, query.roomId);
  const mateId = (await ownerIn(db, room, query.mateId, false)) ?? undefined;
  const [rows, writing, acrossChats] = await Promise.all([
    roomMemories(db, room.id, mateId),
    db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', MEMORY_JOB)
      .where('singleton_key', '=', room.id)
      .where('state', 'in', ['queued', 'running'])
      .executeTakeFirst(),
    acrossChatsOf(db, user.id, room.mate_id),
  ]);
  const error = room.memory_error ? textsFor(language)(room.memory_error as SentenceKey) : null;
  return {
    memories: rows.sort(panelOrder).map((row) => toMemory(row, row.sources)),
    writer: writing
      ? { state: 'writing', error: null }
      : error
        ? { state: 'failed', error }
        : { state: 'idle', error: null },
    acrossChats,
  };
}

/**
 * Every memory of room `roomId` (one the caller's own, found already), as the API answers them
 * in the Memory panel's order: what an export of the chat carries.
 */
export async function chatMemories(db: Kysely<Database>, roomId: string): Promise<Memory[]> {
  const rows = await roomMemories(db, roomId);
  return rows.sort(panelOrder).map((row) => toMemory(row, row.sources));
}

/**
 * The caller's room, for changing what its mate remembers: refused (5007) once the chat can no
 * longer go on (its mate turned private or was hidden), as every other change to it is.
 */
async function changeableRoom(db: Kysely<Database>, user: UserTable, roomId: string) {
  const room = await findOwnRoom(db, user.id, roomId);
  if (!(await canContinue(db, user, room))) throw refused('room.readOnly');
  return room;
}

/**
 * After a change to the person's facts in `room` committed: their other chats with the mate
 * that keeps them (`keeper`: in a group, the member whose own they are; its shared facts stay
 * in the group) that carry facts across chats read them again.
 */
async function tellOtherChats(
  db: Kysely<Database>,
  room: RoomTable,
  keepers: (string | null)[],
): Promise<void> {
  const mates = new Set(
    keepers.flatMap((keeper) =>
      keeper !== null ? [keeper] : room.group_name === null ? [room.mate_id] : [],
    ),
  );
  for (const mateId of mates)
    if (await acrossChatsOf(db, room.user_id, mateId))
      await touchChats(db, { userId: room.user_id, mateId, except: room.family_id ?? room.id });
}

/** What `saveMemory` may change. */
export interface MemoryChange {
  roomId: string;
  memoryId?: string;
  /** The words: a new memory's, or a change's (unchanged when absent). */
  content?: string;
  pinned?: boolean;
  about?: MemorySubject;
  /** In a group, the member whose own it is (`null`: the group's); unchanged when absent. */
  mateId?: string | null;
}

/**
 * Adds a fact the person wrote (no `memoryId`), or changes a memory's text, pin, subject or, in
 * a group, owner (a member, or `null` for the group: the summary stays the group's); saving one
 * marked for review clears the mark. A room holds at most
 * {@link MEMORIES_PER_ROOM_MAX} memories: past it, adding is refused (5007).
 */
export async function saveMemory(
  deps: Pick<MemoryDeps, 'db'>,
  user: UserTable,
  change: MemoryChange,
): Promise<Memory> {
  const { db } = deps;
  const room = await changeableRoom(db, user, change.roomId);
  const owner = await ownerIn(db, room, change.mateId, true);
  const at = now();
  if (change.memoryId === undefined) {
    // The route refuses a new memory without words (4000).
    if (change.content === undefined) throw new Error('saveMemory: a new memory has no words');
    const row = {
      id: randomUUID(),
      room_id: room.id,
      kind: 'fact',
      about: change.about ?? 'story',
      content: change.content,
      pinned: change.pinned ?? false,
      author: 'person',
      mate_id: owner ?? null,
      needs_review: false,
      created_at: at,
      updated_at: at,
    };
    await db.transaction().execute(async (trx) => {
      // Counted under the room's row: adds sent at once had each found room for one more
      // before any was written, and all were kept.
      await holdRoomRow(trx, room.id);
      if ((await countMemories(trx, room.id)) >= MEMORIES_PER_ROOM_MAX)
        throw refused('memory.tooMany', { count: MEMORIES_PER_ROOM_MAX });
      await insertMemory(trx, row, []);
      await touchMemories(trx, room.id);
    });
    if (row.about === 'person') await tellOtherChats(db, room, [row.mate_id]);
    return toMemory(row, []);
  }
  const memory = await findMemory(db, room.id, change.memoryId);
  if (!memory) throw missing('notices.notFound.memory');
  const saved = await db.transaction().execute(async (trx) => {
    const updated = await updateMemory(
      trx,
      memory.id,
      {
        // Left out (a pin, a "Keep"): the words as they are now, whoever changed them since.
        ...(change.content !== undefined && { content: change.content }),
        // A fact the person rewrote is theirs: never pruned as one the mate wrote.
        ...(change.content !== undefined &&
          change.content !== memory.content && { author: 'person' }),
        ...(change.pinned !== undefined && { pinned: change.pinned }),
        // The summary is about the story, whatever is asked.
        ...(change.about !== undefined && memory.kind === 'fact' && { about: change.about }),
        ...(owner !== undefined && memory.kind === 'fact' && { mate_id: owner }),
      },
      at,
    );
    // Forgotten since it was read (in another tab): gone, as if it had not been found.
    if (!updated) throw missing('notices.notFound.memory');
    await touchMemories(trx, room.id);
    return updated;
  });
  // Both keepers: the one that held it before and the one that holds it now.
  if (memory.about === 'person' || saved.about === 'person')
    await tellOtherChats(db, room, [memory.mate_id, saved.mate_id]);
  const sources = await db
    .selectFrom('memory_sources')
    .select('message_id')
    .where('memory_id', '=', memory.id)
    .orderBy('position')
    .execute();
  return toMemory(
    saved,
    sources.map((source) => source.message_id),
  );
}

/** Forgets one memory of the caller's room. */
export async function deleteMemory(
  deps: Pick<MemoryDeps, 'db'>,
  user: UserTable,
  input: { roomId: string; memoryId: string },
): Promise<void> {
  const room = await changeableRoom(deps.db, user, input.roomId);
  const memory = await findMemory(deps.db, room.id, input.memoryId);
  if (!memory) throw missing('notices.notFound.memory');
  await deps.db.transaction().execute(async (trx) => {
    await deleteMemoryRow(trx, memory.id);
    await touchMemories(trx, room.id);
  });
  if (memory.about === 'person') await tellOtherChats(deps.db, room, [memory.mate_id]);
}

/** Turns "remember me across chats" on or off for the room's mate. */
export async function setMemoryAcrossChats(
  deps: Pick<MemoryDeps, 'db'>,
  user: UserTable,
  input: { roomId: string; enabled: boolean },
  language: string,
): Promise<RoomMemories> {
  const room = await findOwnRoom(deps.db, user.id, input.roomId);
  // The setting is one mate's, for the person's chats with it: a group has several.
  if (room.group_name !== null) throw invalid('notices.group.acrossChatsPerMate');
  await setAcrossChats(deps.db, user.id, room.mate_id, input.enabled);
  // Every chat with the mate reads the facts it carries (or no longer does).
  await touchChats(deps.db, { userId: user.id, mateId: room.mate_id });
  return listMemories(deps, user, { roomId: room.id }, language);
}

/**
 * Writes the room's memories again after a failure (or now): every message that left the
 * last prompt, or, when this server holds no prompt of the room, every message but the
 * newest {@link KEEP_WHEN_ASKED}.
 */
export async function writeMemoriesNow(
  deps: Pick<MemoryDeps, 'db' | 'memory'>,
  user: UserTable,
  roomId: string,
  language: string,
): Promise<RoomMemories> {
  const { db } = deps;
  const room = await changeableRoom(db, user, roomId);
  const held = deps.memory.lastPrompt(room.id)?.prompt.oldestKept;
  const before = held ?? (await newestPositions(db, room.id)) ?? 0;
  // Asked again, or with nothing left to write (the chat taken on from an earlier message took
  // what failed away): no failure is said any longer.
  if (room.memory_error !== null) await setMemoryError(db, room.id, null);
  if (before - 1 > room.memory_through) await deps.memory.remember(room.id, before);
  return listMemories(deps, user, { roomId: room.id }, language);
}

/** Messages left to the prompt when memories are asked for without a prompt to go by. */
const KEEP_WHEN_ASKED = 8;

/** The position of the room's {@link KEEP_WHEN_ASKED}th newest message, or `null`. */
async function newestPositions(db: Kysely<Database>, roomId: string): Promise<number | null> {
  const rows = await db
    .selectFrom('messages')
    .select('position')
    .where('room_id', '=', roomId)
    .orderBy('position', 'desc')
    .limit(KEEP_WHEN_ASKED)
    .execute();
  return rows.length === KEEP_WHEN_ASKED ? rows.at(-1)!.position : null;
}

/**
 * "What the mate sees": the prompt of the room's last reply, part by part with its tokens (in a
 * group, its speaker's: its own memories and the shared ones). The very prompt when this server
 * built it; otherwise built again from the chat as it is now, as the reply would be
 * regenerated (`rebuilt`).
 */
export async function promptView(
  deps: MemoryDeps,
  user: UserTable,
  roomId: string,
  language: string,
): Promise<PromptView> {
  const { db } = deps;
  // A closed mate's card is not shown to anyone but its creator, not even as a prompt.
  const room = await findOwnRoom(db, user.id, roomId);
  if (!(await canContinue(db, user, room))) throw refused('room.readOnly');
  const lastReply = await db
    .selectFrom('messages')
    .select(['id', 'speaker_id'])
    .where('room_id', '=', room.id)
    .where('role', '=', 'mate')
    .where('image_prompt', 'is', null)
    .where('position', '>', 1)
    .orderBy('position', 'desc')
    .limit(1)
    .executeTakeFirst();
  // In a group, nor the card of the member that wrote the last reply, once the person may no
  // longer see it (closed by its creator, hidden, deleted): it left the group.
  if (
    lastReply &&
    room.group_name !== null &&
    lastReply.speaker_id !== null &&
    !(await mayStillSee(db, user, lastReply.speaker_id))
  ) {
    const member = await db
      .selectFrom('room_members')
      .select('name')
      .where('room_id', '=', room.id)
      .where('mate_id', '=', lastReply.speaker_id)
      .executeTakeFirst();
    throw refused('room.speakerGone', { name: member?.name ?? '' });
  }
  const held = deps.memory.lastPrompt(room.id);
  const base = { contextTokens: deps.model.contextSize, replyTokens: deps.maxTokens };
  if (!lastReply)
    return {
      messageId: null,
      parts: [],
      totalTokens: 0,
      leftOut: 0,
      builtAt: now(),
      rebuilt: false,
      ...base,
    };
  if (held && held.replyId === lastReply.id)
    return viewOf(deps.db, room.id, held.prompt, {
      ...base,
      messageId: lastReply.id,
      builtAt: held.builtAt,
      rebuilt: false,
    });
  // In a group, the prompt of the reply's speaker: its card, and its own memories.
  const group =
    room.group_name !== null && lastReply.speaker_id !== null
      ? promptContext(await groupState(db, user, room), lastReply.speaker_id)
      : undefined;
  const prompt = await fittingTurns(
    async (recent) => ({
      ...(await loadConversation(db, room, user, lastReply.id, recent, undefined, group)),
      language,
    }),
    deps.model,
    deps.maxTokens,
    // Started where this server's last prompt in the room did, as a regeneration's would be.
    promptHold(held?.prompt),
  );
  return viewOf(db, room.id, prompt, {
    ...base,
    messageId: lastReply.id,
    builtAt: now(),
    rebuilt: true,
  });
}

/** A built prompt as the API shows it. */
async function viewOf(
  db: Kysely<Database>,
  roomId: string,
  prompt: FittedPrompt,
  about: Omit<PromptView, 'parts' | 'totalTokens' | 'leftOut'>,
): Promise<PromptView> {
  const { report } = prompt;
  const list = (items: string[]) => items.map((item) => `- ${item}`).join('\n');
  const memoryPart = (kind: keyof typeof report.memory): PromptPart => ({
    kind,
    text:
      kind === 'summary' ? report.memory[kind].items.join('\n') : list(report.memory[kind].items),
    tokens: report.memory[kind].tokens,
    items: report.memory[kind].items.length,
  });
  const parts: PromptPart[] = [
    { kind: 'character', text: report.character.text, tokens: report.character.tokens, items: 1 },
    {
      kind: 'lore',
      text: report.lore.items.join('\n\n'),
      tokens: report.lore.tokens,
      items: report.lore.items.length,
    },
    ...(['pinned', 'summary', 'acrossChats'] as const).map(memoryPart),
    ...(report.recalledAfterHistory ? [] : [memoryPart('recalled')]),
    {
      kind: 'history',
      text: report.history.turns
        .map(
          (turn) =>
            `${turn.role === 'assistant' ? report.names.char : report.names.user}: ${turn.content}`,
        )
        .join('\n'),
      tokens: report.history.tokens,
      items: report.history.turns.length,
    },
    // Where not all fit, those recalled for the message answered: after the history.
    ...(report.recalledAfterHistory ? [memoryPart('recalled')] : []),
    {
      kind: 'instructions',
      text: report.instructions.text,
      tokens: report.instructions.tokens,
      items: 1,
    },
  ];
  const shown = parts.filter((part) => part.items > 0 && part.text !== '');
  const leftOut =
    prompt.oldestKept === null
      ? 0
      : Number(
          (
            await db
              .selectFrom('messages')
              .select((eb) => eb.fn.countAll<number | string>().as('count'))
              .where('room_id', '=', roomId)
              .where('position', '<', prompt.oldestKept)
              .where('image_prompt', 'is', null)
              .executeTakeFirstOrThrow()
          ).count,
        );
  return {
    ...about,
    parts: shown,
    totalTokens: shown.reduce((sum, part) => sum + part.tokens, 0),
    leftOut,
  };
}
