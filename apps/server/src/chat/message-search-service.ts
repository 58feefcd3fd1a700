import type { Kysely } from 'kysely';
import type { MessageHits, SnippetPart } from '@mates/api-client';
import type { DialectName } from '../db/dialect';
import type { Database, UserTable } from '../db/schema';
import { matesByIds } from '../catalog/mate-repository';
import { toMateSummary } from '../catalog/mate-rows';
import { searchWords } from '../catalog/search-words';
import { toMessage } from './messages';
import { closedSummary } from './rooms';
import { visibleMateIds } from './room-repository';
import { asTyped, findMessages } from './message-search-repository';

/** What a search needs. */
export interface MessageSearchDeps {
  db: Kysely<Database>;
  dialect: DialectName;
}

/** How many characters of a message a snippet shows around its first match. */
const SNIPPET_CHARS = 160;

/**
 * The caller's messages (theirs and their mates', in every chat and path) holding every word
 * of `keyword` (each earlier word whole, the last one a word's start; case and accents aside), newest first. A mate the
 * caller may no longer see is shown as a closed chat is in the room list.
 */
export async function searchMessages(
  deps: MessageSearchDeps,
  user: UserTable,
  input: { keyword: string; page: number; pageSize: number },
): Promise<MessageHits> {
  const words = searchWords(input.keyword);
  const empty = { list: [], page: input.page, pageSize: input.pageSize, hasMore: false };
  if (words.length === 0) return empty;
  const found = await findMessages(deps.db, deps.dialect, {
    userId: user.id,
    words,
    limit: input.pageSize + 1,
    offset: (input.page - 1) * input.pageSize,
  });
  const page = found.slice(0, input.pageSize);
  // In a group, a mate's message is its speaker's (the room's mate if that mate is gone).
  const mateIds = [...new Set(page.flatMap((row) => [row.mate_id, row.speaker_id ?? row.mate_id]))];
  const [mates, visible] = await Promise.all([
    matesByIds(deps.db, mateIds),
    visibleMateIds(deps.db, user, mateIds),
  ]);
  return {
    list: page.map((row) => {
      const speaker =
        mates.find((m) => m.id === row.speaker_id) ?? mates.find((m) => m.id === row.mate_id)!;
      const mate = toMateSummary(speaker);
      return {
        roomId: row.room_id,
        mate: visible.has(speaker.id) ? mate : closedSummary(mate),
        groupName: row.group_name,
        message: toMessage(row),
        snippet: snippetOf(row.content, words),
      };
    }),
    page: input.page,
    pageSize: input.pageSize,
    hasMore: found.length > input.pageSize,
  };
}

/** Lowercase without accents, one character for one (so that positions carry over). */
function folded(text: string): string {
  return [...text]
    .map((char) => {
      const plain = char
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase();
      return plain.length === char.length ? plain : char.toLowerCase();
    })
    .join('');
}

/**
 * The words of `content` around its first match of `words` (each earlier word whole, the last
 * one as a word's start, as the search matched them), about {@link SNIPPET_CHARS} characters, the matching words marked.
 */
export function snippetOf(content: string, words: string[]): SnippetPart[] {
  const text = content.replace(/\s+/g, ' ').trim();
  const plain = folded(text);
  // Each matching word: from a word's start, as far as its letters and digits go.
  const marks: [number, number][] = [];
  const wordStart = /[\p{L}\p{N}]+/gu;
  // As the search matched them: each earlier word whole, the last one as a word's start.
  const matches = asTyped(
    words,
    (word) => (found: string) => found === word,
    (start) => (found: string) => found.startsWith(start),
  );
  for (const match of plain.matchAll(wordStart))
    if (matches.some((matchesWord) => matchesWord(match[0])))
      marks.push([match.index, match.index + match[0].length]);
  const first = marks[0]?.[0] ?? 0;
  let start = Math.max(0, first - SNIPPET_CHARS / 3);
  if (start > 0) start = text.indexOf(' ', start) + 1 || start;
  let end = Math.min(text.length, start + SNIPPET_CHARS);
  if (end < text.length)
    end = text.lastIndexOf(' ', end) > start ? text.lastIndexOf(' ', end) : end;
  const parts: SnippetPart[] = [];
  const push = (part: string, match: boolean) => {
    if (!part) return;
    const last = parts.at(-1);
    if (last && last.match === match) last.text += part;
    else parts.push({ text: part, match });
  };
  if (start > 0) push('…', false);
  let at = start;
  for (const [from, to] of marks) {
    if (to <= start || from >= end) continue;
    push(text.slice(at, Math.max(at, from)), false);
    push(text.slice(Math.max(at, from), Math.min(to, end)), true);
    at = Math.min(to, end);
  }
  push(text.slice(at, end), false);
  if (end < text.length) push('…', false);
  return parts;
}
