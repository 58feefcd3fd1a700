import type { Kysely } from 'kysely';
import MiniSearch from 'minisearch';
import { LRUCache } from 'lru-cache';
import type { Database, RoomTable } from '../db/schema';
import type { PromptMemory } from './prompt';
import { memoriesForPrompt, type PromptMemoryRow } from './memory-repository';
import { toBool } from '../db/dialect';

/** How much of the message being answered, and of the ones before it, a recall searches with. */
const LAST_CHARS = 600;
const BEFORE_CHARS = 1200;

/** Where a text breaks into words, as MiniSearch's own tokenizer breaks it. */
const WORD_BREAK = /[\n\r\p{Z}\p{P}]+/u;

/** The most words of a message a recall searches with. */
const QUERY_WORDS = 48;

/** How much more the message being answered counts than the ones before it. */
const LAST_WEIGHT = 2;

/**
 * Words too common to tell facts apart, in the app's languages: searched for, they match most
 * facts and cost most of a search.
 */
const COMMON = new Set(
  (
    'the and you your her his she him they them their that this with for are was were have has had not but from what when who will would there then than into about just very ' +
    'los las que del una por con para como pero sus está esta este eso ella ellos muy más ' +
    'les des une est pas que qui dans pour avec sur elle ils sont mais plus tout cette'
  ).split(' '),
);

/** Case and accents aside, as the catalog's search ("Ána" finds "ana"); common words dropped. */
const termOf = (term: string): string | null => {
  if (term.length < 3) return null;
  const plain = term.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return COMMON.has(plain) ? null : plain;
};

/**
 * What a room's prompts may remember, as read at one `memory_version` of the room: the parts
 * that always go in, and the other facts with a full-text index over them (MiniSearch, BM25+
 * in memory: a room keeps at most a few hundred facts, and the index is built once per change
 * rather than at every send).
 */
export interface RoomRecall {
  version: number;
  pinned: string[];
  summary: string | null;
  acrossChats: string[];
  /** The other facts, newest first. */
  facts: string[];
  index: MiniSearch<{ id: number; content: string }> | null;
  /** Every word of the facts as the index holds it: a query asks for these only. */
  words: Set<string>;
  /** The last ranking, by the messages it was asked with: a prompt read again asks again. */
  last?: { recent: string; memory: PromptMemory };
}

/** How much memory the recalls kept may take, in bytes (roughly: see `sizeOf`). */
const KEPT_BYTES = 64 * 1024 * 1024;

/** A recall's size in memory, roughly: its text, and about 2 KB of index per fact (measured). */
const sizeOf = (recall: RoomRecall) =>
  [recall.summary ?? '', ...recall.pinned, ...recall.acrossChats, ...recall.facts].reduce(
    (sum, text) => sum + 2 * text.length + 64,
    2048 * recall.facts.length + 256,
  );

// The recalls of the rooms that sent last, bounded by their size; a room's changes move its
// version on.
const kept = new LRUCache<string, RoomRecall>({
  max: 10_000,
  maxSize: KEPT_BYTES,
  sizeCalculation: sizeOf,
});

/**
 * Room `room`'s recall: `null` when it has nothing to remember (version 0: no query at all),
 * else as this server read it at the room's current version, or read now. In a group, each
 * speaker's: the group's memories, and what that mate knows of the person from their other
 * chats with it (if they allowed it).
 */
export async function roomRecall(
  db: Kysely<Database>,
  room: Pick<RoomTable, 'id' | 'user_id' | 'mate_id' | 'memory_version' | 'family_id'>,
  speakerId?: string,
): Promise<RoomRecall | null> {
  if (room.memory_version === 0) return null;
  const key = speakerId === undefined ? room.id : `${room.id}/${speakerId}`;
  const cached = kept.get(key);
  if (cached?.version === room.memory_version) return cached;
  const rows = await memoriesForPrompt(db, { ...room, mate_id: speakerId ?? room.mate_id });
  const recall = recallOf(rows, room.id, room.memory_version);
  kept.set(key, recall);
  return recall;
}

/** A recall from the rows `memoriesForPrompt` read (newest first). */
export function recallOf(rows: PromptMemoryRow[], roomId: string, version: number): RoomRecall {
  const recall: RoomRecall = {
    version,
    pinned: [],
    summary: null,
    acrossChats: [],
    facts: [],
    index: null,
    words: new Set(),
  };
  // A fact of another chat is there once per path of that chat (a branch copies it): once.
  const carried = new Set<string>();
  for (const row of rows) {
    if (row.room_id !== roomId) {
      const key = row.content.trim().toLowerCase();
      if (!carried.has(key)) recall.acrossChats.push(row.content);
      carried.add(key);
    } else if (row.kind === 'summary') recall.summary = row.content;
    else if (toBool(row.pinned)) recall.pinned.push(row.content);
    else recall.facts.push(row.content);
  }
  if (recall.facts.length > 1) {
    recall.index = new MiniSearch({
      fields: ['content'],
      processTerm: termOf,
      searchOptions: { combineWith: 'OR' },
    });
    recall.index.addAll(recall.facts.map((content, id) => ({ id, content })));
    for (const fact of recall.facts)
      for (const word of fact.split(WORD_BREAK)) {
        const term = termOf(word);
        if (term) recall.words.add(term);
      }
  }
  return recall;
}

/**
 * What a prompt remembers from `recall`: the facts that share words with `recent` (the last
 * messages, the one being answered counting {@link LAST_WEIGHT} times more) first, best first,
 * then the others, newest first.
 */
export function promptMemory(recall: RoomRecall, recent: string[]): PromptMemory {
  const { pinned, summary, acrossChats, facts, index } = recall;
  if (!index || recent.length === 0)
    return { pinned, summary, acrossChats, recalled: facts, newest: facts };
  const key = recent.join('\u0000');
  if (recall.last?.recent === key) return recall.last.memory;
  const scores = new Map<number, number>();
  const add = (text: string, weight: number) => {
    // Only words some fact holds, each once: a long message full of words no fact has (a
    // reply of numbers) costs its splitting, not a search of each word.
    const terms = new Set<string>();
    for (const word of text.split(WORD_BREAK)) {
      const term = termOf(word);
      if (term && recall.words.has(term)) terms.add(term);
      if (terms.size === QUERY_WORDS) break;
    }
    if (terms.size === 0) return;
    const hits = index.search([...terms].join(' '));
    const best = hits[0]?.score ?? 0;
    for (const hit of hits) {
      const id = hit.id as number;
      scores.set(id, (scores.get(id) ?? 0) + (weight * hit.score) / best);
    }
  };
  add(recent.at(-1)!.slice(0, LAST_CHARS), LAST_WEIGHT);
  if (recent.length > 1) add(recent.slice(0, -1).join(' ').slice(-BEFORE_CHARS), 1);
  const found = [...scores.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
  const rest = [...facts.keys()].filter((id) => !scores.has(id));
  const memory = {
    pinned,
    summary,
    acrossChats,
    recalled: [...found, ...rest].map((id) => facts[id]!),
    newest: facts,
  };
  recall.last = { recent: key, memory };
  return memory;
}
