import { randomUUID } from 'node:crypto';
import { cutText } from '../cards/fit-card';
import type { Kysely } from 'kysely';
import { MEMORIES_PER_ROOM_MAX, MEMORY_TEXT_MAX } from '@mates/api-client';
import type { Database } from '../db/schema';
import type { JobContext, JobQueue } from '../jobs/job-queue';
import type { Logger } from '../logging/logger';
import type { ChatTurn, LanguageModel } from '../llm/language-model';
import { ProviderError } from '../domain/provider-error';
import { now } from '../db/dialect';
import {
  acrossChatsOf,
  insertMemory,
  markMemoriesOf,
  setMemoryError,
  touchChats,
  wordsBetween,
  wordsNow,
} from './memory-repository';
import { parseJson } from './generation-service';
import { fillMacros, longestFitting } from './prompt';
import { membersOf } from './group-repository';

/** The durable job that writes a room's memories from the messages that left its prompt. */
export const MEMORY_JOB = 'memory';

/** What a memory job is asked to do: remember room `roomId`'s messages before `before`. */
export interface MemoryJobPayload {
  roomId: string;
  /** The position of the oldest message still in the prompt when it was asked. */
  before: number;
}

/** Messages read for one ask of the model (a window). */
export const MEMORY_WINDOW = 24;

/** Windows one run of the job writes at most; the next send asks again for the rest. */
const WINDOWS_PER_RUN = 8;

/** The most tokens the model may write for one window. */
const MEMORY_REPLY_TOKENS = 700;

/** What the memory writer needs. */
export interface MemoryWriterDeps {
  db: Kysely<Database>;
  jobs: JobQueue;
  log: Logger;
  model: LanguageModel;
  /** Told when a run ends (`failed`: it could not write memories). */
  onSettled?: (roomId: string, failed: boolean) => void;
  /** Where the room's newest prompt starts, if known here: a run goes that far. */
  wanted?: (roomId: string) => number | undefined;
}

/** What the model answers in a group for a fact every member keeps (the group's, shared). */
const SHARED = 'everyone';

/**
 * The JSON the model is held to: the updated summary and new facts, citing their messages; in
 * a group (`owners`: its members' names), each fact also says whose memory it is.
 */
function memorySchema(owners: string[] | null): Record<string, unknown> {
  const fact = {
    text: { type: 'string' },
    about: { type: 'string', enum: ['person', 'story'] },
    from: { type: 'array', items: { type: 'integer' }, maxItems: 6 },
  };
  return {
    type: 'object',
    properties: {
      summary: { type: 'string' },
      facts: {
        type: 'array',
        maxItems: 12,
        items: {
          type: 'object',
          properties: owners
            ? { ...fact, mate: { type: 'string', enum: [...owners, SHARED] } }
            : fact,
          required: ['text', 'about', 'from', ...(owners ? ['mate'] : [])],
          additionalProperties: false,
        },
      },
    },
    required: ['summary', 'facts'],
    additionalProperties: false,
  };
}

/** A group's member a fact may belong to. */
export interface MemoryOwner {
  mateId: string;
  name: string;
}

/** Registers the memory job: one window after another, each remembered once. */
export function defineMemoryJob(deps: MemoryWriterDeps): void {
  deps.jobs.define<MemoryJobPayload, { windows: number }>(
    MEMORY_JOB,
    (job) => writeMemories(deps, job),
    {
      concurrency: 1,
      timeoutMs: 10 * 60_000,
      onFinallyFailed: async (job, trx) => {
        await setMemoryError(trx, job.payload.roomId, 'memory.writing');
      },
    },
  );
}

/** Why a window could not be remembered: a sentence key of `memory.*`. */
class MemoryNotWritten extends Error {
  override readonly name = 'MemoryNotWritten';
  constructor(
    readonly key: 'memory.writing' | 'memory.unreadable',
    detail: string,
  ) {
    super(detail);
  }
}

/**
 * One run of the memory job: window after window of the room's messages after its
 * `memory_through` and before the payload's `before`, each remembered in one transaction that
 * moves `memory_through` on, so that a run interrupted (a kill) or run twice never remembers
 * a window twice. A failure is recorded on the room (the Memory panel says it, and offers to
 * try again) and ends the run without failing the job.
 */
export async function writeMemories(
  deps: MemoryWriterDeps,
  job: JobContext<MemoryJobPayload>,
): Promise<{ windows: number }> {
  const { db, log } = deps;
  const { roomId, before } = job.payload;
  let windows = 0;
  let failed = true;
  try {
    for (; windows < WINDOWS_PER_RUN; windows += 1) {
      job.signal.throwIfAborted();
      const upTo = Math.max(before, deps.wanted?.(roomId) ?? 0);
      if (!(await rememberWindow(deps, roomId, upTo, job.signal))) break;
    }
    await setMemoryError(db, roomId, null);
    failed = false;
  } catch (error) {
    if (!(error instanceof MemoryNotWritten)) throw error;
    log.warn(`memories of room ${roomId}: ${error.message}`);
    await setMemoryError(db, roomId, error.key);
  } finally {
    // A run stopped is not a failure: it runs again after the restart.
    deps.onSettled?.(roomId, failed && !job.signal.aborted);
  }
  return { windows };
}

/** Remembers the next window of the room; `false` when there is none (or the room is gone). */
async function rememberWindow(
  deps: MemoryWriterDeps,
  roomId: string,
  before: number,
  signal: AbortSignal,
): Promise<boolean> {
  const { db } = deps;
  const room = await db
    .selectFrom('rooms')
    .innerJoin('mates', 'mates.id', 'rooms.mate_id')
    .innerJoin('users', 'users.id', 'rooms.user_id')
    .leftJoin('personas', 'personas.id', 'rooms.persona_id')
    .select([
      'rooms.memory_through',
      'rooms.user_id',
      'rooms.mate_id',
      'rooms.family_id',
      'rooms.group_name',
      'mates.name as mateName',
      'users.nickname',
      'personas.name as personaName',
    ])
    .where('rooms.id', '=', roomId)
    .executeTakeFirst();
  if (!room) return false;
  const read = await wordsBetween(db, roomId, {
    after: room.memory_through,
    before,
    limit: MEMORY_WINDOW,
  });
  if (read.length === 0) return false;
  const summary = await db
    .selectFrom('memories')
    .select(['id', 'content', 'updated_at'])
    .where('room_id', '=', roomId)
    .where('kind', '=', 'summary')
    .executeTakeFirst();
  const names = { char: room.group_name ?? room.mateName, user: room.personaName ?? room.nickname };
  // In a group, each reply is said by its speaker, and each fact is a member's or everyone's.
  const members = room.group_name === null ? [] : await membersOf(db, roomId);
  const speakers = new Map(members.map((member) => [member.mate_id, member.name] as const));
  const owners =
    room.group_name === null
      ? null
      : members
          .filter((member) => member.left_at === null)
          .map((member) => ({ mateId: member.mate_id, name: member.name }));
  const named = read.map((message) => ({
    ...message,
    name:
      message.role === 'user'
        ? names.user
        : (speakers.get(message.speaker_id ?? '') ?? room.mateName),
  }));
  const window = fitWindow(deps.model, named, summary?.content ?? '', names, owners);
  const last = window.at(-1)!;
  const written = await askModel(
    deps.model,
    { names, window, summary: summary?.content ?? '', owners },
    signal,
  );
  const at = now();
  const remembered = await db.transaction().execute(async (trx) => {
    // Another run remembered this window already (a run begun twice): nothing more to do.
    // The room's own row only: its prompt reads its memories again.
    const moved = await trx
      .updateTable('rooms')
      .set((eb) => ({
        memory_through: last.position,
        memory_error: null,
        memory_version: eb('memory_version', '+', 1),
      }))
      .where('id', '=', roomId)
      .where('memory_through', '=', room.memory_through)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) return null;
    const existing = new Set(
      (
        await trx
          .selectFrom('memories')
          .select('content')
          .where('room_id', '=', roomId)
          .where('kind', '=', 'fact')
          .execute()
      ).map((row) => comparable(row.content)),
    );
    // The mates whose facts about the person changed (`null`: the room's own mate).
    const aboutPerson = new Set<string | null>();
    for (const fact of written.facts) {
      if (existing.has(comparable(fact.text))) continue;
      existing.add(comparable(fact.text));
      if (fact.about === 'person') aboutPerson.add(fact.mateId);
      const sources = fact.from.length > 0 ? fact.from : window;
      await insertMemory(
        trx,
        {
          id: randomUUID(),
          room_id: roomId,
          kind: 'fact',
          about: fact.about,
          content: fact.text,
          author: 'mate',
          mate_id: fact.mateId,
          created_at: at,
          updated_at: at,
        },
        sources,
      );
    }
    if (written.summary) await writeSummary(trx, roomId, summary, written.summary, window, at);
    // Words the person changed while the model wrote: what was made of them is marked for
    // review, as their edit marks what was remembered before it. Written unmarked, a fact of
    // words they had just corrected read as still true.
    const words = await wordsNow(
      trx,
      window.map((message) => message.id),
    );
    const changed = window.filter((message) => words.get(message.id) !== message.content);
    await markMemoriesOf(
      trx,
      changed.map((message) => message.id),
      at,
    );
    await pruneFacts(trx, roomId);
    return { aboutPerson };
  });
  // Facts about the person go into their other chats with the mate that keeps them (a
  // group's shared facts stay in the group), if they asked for that.
  for (const mateId of remembered?.aboutPerson ?? []) {
    if (mateId === null && room.group_name !== null) continue;
    const keeper = mateId ?? room.mate_id;
    if (await acrossChatsOf(db, room.user_id, keeper))
      await touchChats(db, {
        userId: room.user_id,
        mateId: keeper,
        except: room.family_id ?? roomId,
      });
  }
  return true;
}

/**
 * Writes the summary the model rewrote, with the window as its sources: over the one read
 * before asking, unless the person changed or deleted it meanwhile (theirs is kept).
 */
async function writeSummary(
  trx: Kysely<Database>,
  roomId: string,
  read: { id: string; updated_at: string } | undefined,
  content: string,
  window: { id: string; position: number }[],
  at: string,
): Promise<void> {
  let id: string;
  if (read) {
    const updated = await trx
      .updateTable('memories')
      .set({ content, updated_at: at })
      .where('id', '=', read.id)
      .where('updated_at', '=', read.updated_at)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return;
    id = read.id;
  } else {
    // None when asked: one the person added meanwhile stays, and this one is not written.
    const added = await trx
      .selectFrom('memories')
      .select('id')
      .where('room_id', '=', roomId)
      .where('kind', '=', 'summary')
      .executeTakeFirst();
    if (added) return;
    id = randomUUID();
    await trx
      .insertInto('memories')
      .values({
        id,
        room_id: roomId,
        kind: 'summary',
        about: 'story',
        content,
        author: 'mate',
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
  await trx
    .insertInto('memory_sources')
    .values(window.map((m) => ({ memory_id: id, message_id: m.id, position: m.position })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** The tokens the model may write for a window: at most a third of its context. */
const replyTokensOf = (model: Pick<LanguageModel, 'contextSize'>) =>
  Math.min(MEMORY_REPLY_TOKENS, Math.floor(model.contextSize / 3));

/**
 * The start of `read` that fits the model's context beside the instructions, the summary and
 * the answer, each message cut to a share of it: a window of long replies never asks more than
 * the model holds (which would fail it at every try). At least one message, cut to fit.
 */
export function fitWindow<M extends { content: string }>(
  model: Pick<LanguageModel, 'contextSize' | 'countTokens'>,
  read: M[],
  summary: string,
  names: { char: string; user: string },
  owners: MemoryOwner[] | null = null,
): M[] {
  const asked = memoryTurns(names, [], summary, owners);
  const room =
    model.contextSize -
    replyTokensOf(model) -
    asked.reduce((sum, turn) => sum + model.countTokens(turn.content) + 8, 0) -
    16;
  const perMessage = Math.max(16, Math.floor(room / 2));
  const kept: M[] = [];
  let used = 0;
  for (const message of read) {
    let content = message.content;
    let cost = model.countTokens(content) + 8;
    if (cost > perMessage) {
      content = startThatFits(model, content, cost, perMessage);
      cost = model.countTokens(content) + 8;
    }
    if (kept.length > 0 && used + cost > room) break;
    kept.push({ ...message, content });
    used += cost;
  }
  return kept;
}

/**
 * The longest start of `content` (which costs `cost`), marked cut, within `limit` tokens with
 * its turn's 8 (see {@link longestFitting}).
 */
function startThatFits(
  model: Pick<LanguageModel, 'countTokens'>,
  content: string,
  cost: number,
  limit: number,
): string {
  return longestFitting(
    (length) => `${cutText(content, length)}…`,
    (part) => model.countTokens(part) + 8 <= limit,
    { total: content.length, cost, limit },
  );
}

/** Two facts that differ only in case, spaces or a final full stop are the same fact. */
const comparable = (text: string) =>
  text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[.!]+$/, '')
    .trim();

/** Past {@link MEMORIES_PER_ROOM_MAX}, the oldest unpinned facts the mate wrote go. */
async function pruneFacts(trx: Kysely<Database>, roomId: string): Promise<void> {
  const rows = await trx
    .selectFrom('memories')
    .select(['id', 'author', 'pinned', 'kind'])
    .where('room_id', '=', roomId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  const excess = rows.length - MEMORIES_PER_ROOM_MAX;
  if (excess <= 0) return;
  const dropped = rows
    .filter((row) => row.kind === 'fact' && row.author === 'mate' && !row.pinned)
    .slice(-excess)
    .map((row) => row.id);
  if (dropped.length > 0) await trx.deleteFrom('memories').where('id', 'in', dropped).execute();
}

/**
 * What one window gave: the summary of the story so far, and new facts with their sources and,
 * in a group, the member whose own each is (`null`: everyone's).
 */
interface WrittenMemories {
  summary: string;
  facts: {
    text: string;
    about: 'person' | 'story';
    from: { id: string; position: number }[];
    mateId: string | null;
  }[];
}

/** "A", "A and B", "A, B and C". */
const listed = (names: string[]) =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;

/** The instructions, one-to-one: what {{char}} should remember. */
const ONE_TO_ONE_ASK =
  'You keep the memory of a roleplay chat between {{user}} (a person) and {{char}} (a character). From the new messages, write down what {{char}} should remember once they are gone from the conversation: short facts (one sentence each, under 25 words, in the chat\'s language), each marked "person" when it is about {{user}} (their name, family, life, likes, plans) or "story" when it is about the story, with the numbers of the messages it comes from. Only facts stated in the messages; none already in the summary. Then rewrite the summary of the story so far (under 150 words) so that it includes the new messages. Answer with JSON only: {"summary": "…", "facts": [{"text": "…", "about": "person", "from": [1]}]}.';

/** The instructions in a group: each character keeps its own memories. */
const groupAsk = (owners: MemoryOwner[]) =>
  `You keep the memory of a roleplay chat between {{user}} (a person) and a group of characters: ${listed(owners.map((owner) => owner.name))}. Each character keeps its own memories. From the new messages, write down what should be remembered once they are gone from the conversation: short facts (one sentence each, under 25 words, in the chat's language), each marked "person" when it is about {{user}} (their name, family, life, likes, plans) or "story" when it is about the story, with the numbers of the messages it comes from, and whose memory it is: "mate" is the name of the one character who said it, was told it alone or to whom it matters alone, or "${SHARED}" when the whole group heard it or shares it. Only facts stated in the messages; none already in the summary. Then rewrite the summary of the story so far (under 150 words) so that it includes the new messages. Answer with JSON only: {"summary": "…", "facts": [{"text": "…", "about": "person", "from": [1], "mate": "${owners[0]?.name ?? SHARED}"}]}.`;

/** The out-of-character request that turns a window into memories. */
function memoryTurns(
  names: { char: string; user: string },
  window: { role: string; content: string; name?: string }[],
  summary: string,
  owners: MemoryOwner[] | null,
): ChatTurn[] {
  const lines = window.map(
    (message, index) =>
      `[${index + 1}] ${message.name ?? (message.role === 'user' ? names.user : names.char)}: ${fillMacros(message.content, names).replace(/\s+/g, ' ').trim()}`,
  );
  return [
    {
      role: 'system',
      content: fillMacros(owners ? groupAsk(owners) : ONE_TO_ONE_ASK, names),
    },
    {
      role: 'user',
      content: `Summary so far: ${summary.trim() || '(nothing yet)'}\n\nNew messages:\n${lines.join('\n')}`,
    },
  ];
}

/** Asks the model to remember `window`, and reads its answer. */
async function askModel(
  model: LanguageModel,
  ask: {
    names: { char: string; user: string };
    window: { id: string; position: number; role: string; content: string }[];
    summary: string;
    owners: MemoryOwner[] | null;
  },
  signal: AbortSignal,
): Promise<WrittenMemories> {
  let text = '';
  try {
    await model.generate(
      memoryTurns(ask.names, ask.window, ask.summary, ask.owners),
      {
        signal,
        maxTokens: replyTokensOf(model),
        temperature: 0.2,
        jsonSchema: memorySchema(ask.owners && ask.owners.map((owner) => owner.name)),
      },
      (piece) => (text += piece),
    );
  } catch (error) {
    // Stopped (the server is stopping, the job was cancelled): not a failure of the model. The
    // run ends without writing, and the queue runs the job again.
    signal.throwIfAborted();
    if (!(error instanceof ProviderError)) throw error;
    throw new MemoryNotWritten('memory.writing', error.message);
  }
  // A generation stopped ends with what it had: not an answer to read.
  signal.throwIfAborted();
  return readMemories(text, ask.window, ask.owners ?? []);
}

/** A name as compared: case, accents and spaces aside. */
const plainName = (name: string) =>
  name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * The member a fact's `mate` names: its whole name, else the one member with a word of that
 * name ("Lyra" for "Lyra Moonwhisper"); `null` (the group's, shared) for "everyone", a name no
 * member has, one several share, or none.
 */
export function ownerNamed(said: unknown, owners: MemoryOwner[]): string | null {
  if (typeof said !== 'string') return null;
  const name = plainName(said);
  if (name === '') return null;
  const whole = owners.filter((owner) => plainName(owner.name) === name);
  if (whole.length === 1) return whole[0]!.mateId;
  const words = name.split(' ');
  const partly = owners.filter((owner) => {
    const own = plainName(owner.name).split(' ');
    return words.every((word) => own.includes(word));
  });
  return partly.length === 1 ? partly[0]!.mateId : null;
}

/**
 * The model's answer as memories: facts trimmed (without U+0000) to {@link MEMORY_TEXT_MAX}, their message
 * numbers turned back into messages (numbers outside the window are dropped), in a group each
 * given to the member it names (see {@link ownerNamed}).
 */
export function readMemories(
  text: string,
  window: { id: string; position: number }[],
  owners: MemoryOwner[] = [],
): WrittenMemories {
  const parsed = parseJson(text.trim()) as { summary?: unknown; facts?: unknown } | undefined;
  if (!parsed || typeof parsed !== 'object' || !Array.isArray(parsed.facts))
    throw new MemoryNotWritten(
      'memory.unreadable',
      `the answer (${text.length} characters) was not memories as JSON`,
    );
  const facts: WrittenMemories['facts'] = [];
  for (const item of parsed.facts as unknown[]) {
    if (!item || typeof item !== 'object') continue;
    const {
      text: said,
      about,
      from,
      mate,
    } = item as { text?: unknown; about?: unknown; from?: unknown; mate?: unknown };
    if (typeof said !== 'string' || !plain(said)) continue;
    const numbers = Array.isArray(from) ? from : [];
    facts.push({
      text: plain(said).slice(0, MEMORY_TEXT_MAX),
      about: about === 'person' ? 'person' : 'story',
      from: [
        ...new Set(
          numbers.filter((n): n is number => Number.isInteger(n) && n >= 1 && n <= window.length),
        ),
      ]
        .sort((a, b) => a - b)
        .map((n) => window[n - 1]!),
      mateId: owners.length > 0 ? ownerNamed(mate, owners) : null,
    });
  }
  const summary = typeof parsed.summary === 'string' ? plain(parsed.summary) : '';
  return { summary: summary.slice(0, MEMORY_TEXT_MAX), facts };
}

/**
 * A text the model wrote, trimmed and without U+0000 (a JSON `\u0000`): PostgreSQL cannot store
 * that character in text, and the write, tried again, would fail every time.
 */
const plain = (text: string) => text.replaceAll('\0', '').trim();
