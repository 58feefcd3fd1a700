import { LRUCache } from 'lru-cache';
import { fromJson } from '../db/dialect';

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

const strings = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '')
    : [];
const number = (value: unknown, otherwise: number) =>
  typeof value === 'number' && Number.isFinite(value) ? value : otherwise;

/** The lorebook of a card's other fields (`card_extra`, as stored or parsed), or `null`. */
function readLorebook(extra: unknown): Lorebook | null {
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
  for (const entry of listed) {
    if (typeof entry !== 'object' || entry === null) continue;
    const e = entry as Record<string, unknown>;
    const content = typeof e.content === 'string' ? e.content.trim() : '';
    if (!content || e.enabled === false) continue;
    const keys = strings(e.keys).filter((key) => !isRegexKey(key));
    const constant = e.constant === true;
    if (!constant && keys.length === 0) continue;
    used.push({
      keys,
      secondaryKeys: strings(e.secondary_keys).filter((key) => !isRegexKey(key)),
      selective: e.selective === true,
      constant,
      content,
      order: number(e.insertion_order, 100),
      priority: number(e.priority, 0),
      caseSensitive: e.case_sensitive === true,
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

/** Lorebooks read from stored cards, by the card's text: every send of a chat reads the same one. */
const read = new LRUCache<string, Lorebook | 'none'>({ max: 200 });

/**
 * The lorebook of a mate's card (`card_extra`, which holds the card's fields Mates has no column
 * for), or `null`; not parsed when the card has none (an imported card's other fields may be long).
 */
export function cardLorebook(extra: unknown): Lorebook | null {
  if (typeof extra !== 'string') return readLorebook(extra);
  if (!extra.includes('"character_book"')) return null;
  let book = read.get(extra);
  if (book === undefined) {
    book = readLorebook(extra) ?? 'none';
    read.set(extra, book);
  }
  return book === 'none' ? null : book;
}

/** Scripts written without spaces between words: a key there is found inside a word. */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Hangul}]/u;
const WORD = /[\p{L}\p{N}_]/u;

/** Whether `key` is in `text` as a word of its own (anywhere, in a script without spaces). */
function holds(text: string, key: string, caseSensitive: boolean): boolean {
  const haystack = caseSensitive ? text : text.toLowerCase();
  const needle = (caseSensitive ? key : key.toLowerCase()).trim();
  if (!needle) return false;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack[at + needle.length];
    const startOk = before === undefined || !WORD.test(before) || UNSPACED.test(needle[0]!);
    const endOk = after === undefined || !WORD.test(after) || UNSPACED.test(needle.at(-1)!);
    if (startOk && endOk) return true;
  }
  return false;
}

/**
 * The entries of `book` the last messages (`recent`, oldest first) call for: constant ones, and
 * those one of whose keys is in the last `scanDepth` of them (a selective one with one of its
 * secondary keys too), most important first (`priority`, then `order`).
 */
export function calledLore(book: Lorebook, recent: string[]): LoreEntry[] {
  const scanned = recent.slice(-book.scanDepth).join('\n');
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
