import { LRUCache } from 'lru-cache';
import { fromJson } from '../db/dialect';
import type { MateTable } from '../db/schema';

/** A lorebook entry as a prompt uses it (Character Card V2 `character_book.entries`). */
export interface LoreEntry {
  /** Words that bring the entry into the prompt when one of the last messages holds one. */
  keys: string[];
  /** With `selective`: one of these must be there too. */
  secondaryKeys: string[];
  selective: boolean;
  /** Always in the prompt, keys or not. */
  constant: boolean;
  content: string;
  /** Lower goes first in the prompt (`insertion_order`). */
  order: number;
  /** Higher is kept first when the entries do not all fit (`priority`). */
  priority: number;
  caseSensitive: boolean;
}

/** A card's lorebook (Character Card V2 `character_book`), its entries in use. */
export interface Lorebook {
  /** How many of the last messages are looked through for keys. */
  scanDepth: number;
  /** The most tokens its entries may take, where the card says. */
  tokenBudget: number | null;
  entries: LoreEntry[];
}

/** How many of the last messages are looked through when the card does not say (SillyTavern's 2, and the message answered). */
const SCAN_DEPTH = 3;

/**
 * What of a lorebook is used, at most: its first 1,000 entries in use, 4,096 keys in all (an
 * entry's keys past that are not), keys of up to 100 characters, and the last 16,000
 * characters of the messages looked through. A card anyone may publish is read at every send
 * of every chat with its mate: without bounds, one of 12 MB of keys would hold the server for
 * seconds at each.
 */
export const LORE_LIMITS = { entries: 1000, keys: 4096, keyLength: 100, scanned: 16_000 };

const strings = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '')
    : [];
const number = (value: unknown, otherwise: number) =>
  typeof value === 'number' && Number.isFinite(value) ? value : otherwise;

/** The lorebook of a card's other fields (`card_extra`, as stored or parsed), or `null`. */
export function readLorebook(extra: unknown): Lorebook | null {
  const book = fromJson<Record<string, unknown>>(extra, {}).character_book;
  if (typeof book !== 'object' || book === null) return null;
  const {
    entries,
    scan_depth: scanDepth,
    token_budget: tokenBudget,
  } = book as Record<string, unknown>;
  // V2 writes an array; some editors an object by id.
  const listed = Array.isArray(entries)
    ? entries
    : typeof entries === 'object' && entries !== null
      ? Object.values(entries)
      : [];
  const used: LoreEntry[] = [];
  let keysLeft = LORE_LIMITS.keys;
  // Trimmed, and as they are compared (lower case unless the entry says otherwise).
  const keysOf = (value: unknown, caseSensitive: boolean) => {
    const keys = strings(value)
      .map((key) => key.trim())
      .filter((key) => key.length <= LORE_LIMITS.keyLength && !isRegexKey(key))
      .slice(0, Math.max(keysLeft, 0))
      .map((key) => (caseSensitive ? key : key.toLowerCase()));
    keysLeft -= keys.length;
    return keys;
  };
  for (const entry of listed) {
    if (used.length === LORE_LIMITS.entries) break;
    if (typeof entry !== 'object' || entry === null) continue;
    const e = entry as Record<string, unknown>;
    const content = typeof e.content === 'string' ? e.content.trim() : '';
    if (!content || e.enabled === false) continue;
    const caseSensitive = e.case_sensitive === true;
    const keys = keysOf(e.keys, caseSensitive);
    const constant = e.constant === true;
    if (!constant && keys.length === 0) continue;
    used.push({
      keys,
      secondaryKeys: keysOf(e.secondary_keys, caseSensitive),
      selective: e.selective === true,
      constant,
      content,
      order: number(e.insertion_order, 100),
      priority: number(e.priority, 0),
      caseSensitive,
    });
  }
  if (used.length === 0) return null;
  return {
    scanDepth: Math.min(Math.max(Math.floor(number(scanDepth, SCAN_DEPTH)), 1), 100),
    tokenBudget:
      typeof tokenBudget === 'number' && tokenBudget > 0 ? Math.floor(tokenBudget) : null,
    entries: used,
  };
}

/**
 * How many entries of a card's lorebook (`character_book` as the card holds it) Mates cannot use:
 * switched on and with words, but called only by regular-expression keys (see {@link isRegexKey}).
 */
export function entriesByPattern(book: unknown): number {
  const { entries } = (book ?? {}) as { entries?: unknown };
  const listed = Array.isArray(entries)
    ? entries
    : typeof entries === 'object' && entries !== null
      ? Object.values(entries)
      : [];
  return listed.filter((entry) => {
    const e = (entry ?? {}) as Record<string, unknown>;
    const keys = strings(e.keys);
    return (
      e.enabled !== false &&
      e.constant !== true &&
      typeof e.content === 'string' &&
      e.content.trim() !== '' &&
      keys.length > 0 &&
      keys.every(isRegexKey)
    );
  }).length;
}

/**
 * SillyTavern's regular-expression keys (`/…/i`) are not used: a card's pattern would run on the
 * server at every send, and one written to backtrack could hold it for minutes.
 */
const isRegexKey = (key: string) => /^\/.+\/[a-z]*$/s.test(key.trim());

/**
 * Lorebooks read from mates' cards, by mate (and when it was last saved): every send of a chat
 * reads the same one, and a long card's text is neither parsed nor hashed again. Bounded by the
 * text its entries hold.
 */
const read = new LRUCache<string, Lorebook | 'none'>({
  max: 500,
  maxSize: 32_000_000,
  sizeCalculation: (book) =>
    book === 'none'
      ? 1
      : book.entries.reduce(
          (size, entry) =>
            size +
            entry.content.length +
            entry.keys.join('').length +
            entry.secondaryKeys.join('').length +
            100,
          1,
        ),
});

/**
 * The lorebook of a mate's card (`card_extra`, which holds the card's fields Mates has no column
 * for), or `null`; not parsed when the card has none (an imported card's other fields may be long).
 */
export function cardLorebook(
  mate: Pick<MateTable, 'id' | 'updated_at' | 'card_extra'>,
): Lorebook | null {
  const key = `${mate.id}\0${String(mate.updated_at)}`;
  let book = read.get(key);
  if (book === undefined) {
    const extra = mate.card_extra;
    book =
      (typeof extra === 'string' && !extra.includes('"character_book"')
        ? null
        : readLorebook(extra)) ?? 'none';
    read.set(key, book);
  }
  return book === 'none' ? null : book;
}

/** Scripts written without spaces between words: a key there is found inside a word. */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Hangul}]/u;
const WORD = /[\p{L}\p{N}_]/u;

/** The text a lorebook's keys are looked for in: as written and in lower case, and its words. */
interface Scanned {
  exact: string;
  lower: string;
  words: { exact?: Set<string>; lower?: Set<string> };
}

const SINGLE_WORD = /^[\p{L}\p{N}_]+$/u;
const NOT_WORD = /[^\p{L}\p{N}_]+/u;

/** Whether `key` (as compared: see `keysOf`) is in the text as a word of its own (anywhere, in a script without spaces). */
function holds(scanned: Scanned, key: string, caseSensitive: boolean): boolean {
  if (!key) return false;
  const side = caseSensitive ? 'exact' : 'lower';
  const haystack = scanned[side];
  // A word of a spaced script is looked up among the text's words, not searched for: a book
  // of thousands of keys costs one pass over the text.
  if (SINGLE_WORD.test(key) && !UNSPACED.test(key)) {
    const words = (scanned.words[side] ??= new Set(haystack.split(NOT_WORD)));
    return words.has(key);
  }
  for (let at = haystack.indexOf(key); at >= 0; at = haystack.indexOf(key, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack[at + key.length];
    const startOk = before === undefined || !WORD.test(before) || UNSPACED.test(key[0]!);
    const endOk = after === undefined || !WORD.test(after) || UNSPACED.test(key.at(-1)!);
    if (startOk && endOk) return true;
  }
  return false;
}

/**
 * The entries of `book` the last messages (`recent`, oldest first) call for: constant ones, and
 * those one of whose keys is in the last `scanDepth` of them (their last
 * {@link LORE_LIMITS}`.scanned` characters; a selective one with one of its secondary keys too),
 * most important first (`priority`, then `order`).
 */
export function calledLore(book: Lorebook, recent: string[]): LoreEntry[] {
  const exact = recent.slice(-book.scanDepth).join('\n').slice(-LORE_LIMITS.scanned);
  const scanned: Scanned = { exact, lower: exact.toLowerCase(), words: {} };
  const called = (keys: string[], caseSensitive: boolean) =>
    keys.some((key) => holds(scanned, key, caseSensitive));
  return book.entries
    .filter(
      (entry) =>
        entry.constant ||
        (called(entry.keys, entry.caseSensitive) &&
          (!entry.selective ||
            entry.secondaryKeys.length === 0 ||
            called(entry.secondaryKeys, entry.caseSensitive))),
    )
    .sort((a, b) => b.priority - a.priority || a.order - b.order);
}
