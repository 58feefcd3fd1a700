import { fromJson } from '../db/dialect';

/**
 * A key as it is looked for, in lower case unless its entry is case-sensitive: a run of words
 * (`words`: "the old light" is found in "The old-light" but not in "the older light"), or, in
 * a script written without spaces, text found anywhere (`text`).
 */
export type LoreKey = { words: string[] } | { text: string };

/**
 * How a selective entry's secondary keys decide (SillyTavern's `extensions.selectiveLogic`):
 * one of them there (`any`), not all of them (`notAll`), none (`notAny`), or all (`all`).
 */
export type SelectiveLogic = 'any' | 'notAll' | 'notAny' | 'all';

/** A lorebook entry as a prompt uses it (Character Card V2 `character_book.entries`). */
export interface LoreEntry {
  /** Keys that bring the entry into the prompt when one of the last messages holds one. */
  keys: LoreKey[];
  /** With `selective`: how these decide too (see {@link SelectiveLogic}). */
  secondaryKeys: LoreKey[];
  selective: boolean;
  selectiveLogic: SelectiveLogic;
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

/** How many of the last messages are looked through when the card does not say (SillyTavern's 2: the message answered and the one before). */
const SCAN_DEPTH = 2;

/**
 * What of a lorebook is used, at most: its first 1,000 entries in use, 4,096 keys in all (an
 * entry's keys past that are not), keys of up to 100 characters, and the last 16,000
 * characters of the messages looked through. A card anyone may publish is read at every send
 * of every chat with its mate: without bounds, one of 12 MB of keys would hold the server for
 * seconds at each.
 */
export const LORE_LIMITS = {
  entries: 1000,
  keys: 4096,
  keyLength: 100,
  scanned: 16_000,
  /** Keys in a script written without spaces, each searched for in the whole text. */
  searchedKeys: 256,
  /** Words compared, in all, while looking for keys of several words. */
  comparisons: 200_000,
};

const SELECTIVE_LOGIC: SelectiveLogic[] = ['any', 'notAll', 'notAny', 'all'];

const strings = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '')
    : [];
const number = (value: unknown, otherwise: number) =>
  typeof value === 'number' && Number.isFinite(value) ? value : otherwise;

/** A book's `entries` as a list: V2 writes an array, some editors an object by id. */
const listedEntries = (entries: unknown): unknown[] =>
  Array.isArray(entries)
    ? entries
    : typeof entries === 'object' && entries !== null
      ? Object.values(entries)
      : [];

/** The lorebook of a card's other fields (`card_extra`, as stored or parsed), or `null`. */
export function readLorebook(extra: unknown): Lorebook | null {
  const book = fromJson<Record<string, unknown>>(extra, {}).character_book;
  if (typeof book !== 'object' || book === null) return null;
  const {
    entries,
    scan_depth: scanDepth,
    token_budget: tokenBudget,
  } = book as Record<string, unknown>;
  const listed = listedEntries(entries);
  const used: LoreEntry[] = [];
  let keysLeft = LORE_LIMITS.keys;
  let searchedLeft = LORE_LIMITS.searchedKeys;
  // As they are looked for (see `LoreKey`); a key of no words at all ("!!") finds nothing.
  const keysOf = (value: unknown, caseSensitive: boolean) => {
    const keys: LoreKey[] = [];
    for (const written of strings(value)) {
      if (keysLeft === 0) break;
      const key = caseSensitive ? written.trim() : written.trim().toLowerCase();
      if (key.length > LORE_LIMITS.keyLength || isRegexKey(key)) continue;
      if (UNSPACED.test(key)) {
        if (searchedLeft === 0) continue;
        searchedLeft--;
        keys.push({ text: key });
      } else {
        const words = key.split(NOT_WORD).filter(Boolean);
        if (words.length === 0) continue;
        keys.push({ words });
      }
      keysLeft--;
    }
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
      selectiveLogic:
        SELECTIVE_LOGIC[
          number((e.extensions as { selectiveLogic?: unknown } | undefined)?.selectiveLogic, 0)
        ] ?? 'any',
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
  return listedEntries(entries).filter((entry) => {
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

/** About how much memory a read lorebook holds: the text of its entries and keys. */
export function loreSize(book: Lorebook): number {
  return book.entries.reduce(
    (size, entry) =>
      size +
      entry.content.length +
      JSON.stringify(entry.keys).length +
      JSON.stringify(entry.secondaryKeys).length +
      100,
    1,
  );
}

/** Scripts written without spaces between words: a key there is found inside a word. */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Hangul}]/u;

/** The text a lorebook's keys are looked for in, as written and in lower case. */
interface Scanned {
  exact: string;
  lower: string;
  /** Its words, and where each stands among them, for each case (read when first needed). */
  words: { exact?: TextWords; lower?: TextWords };
  /** Words compared so far (see {@link LORE_LIMITS}). */
  comparisons: number;
}

interface TextWords {
  list: string[];
  at: Map<string, number[]>;
}

const NOT_WORD = /[^\p{L}\p{N}_]+/u;

function wordsOf(text: string): TextWords {
  const list = text.split(NOT_WORD).filter(Boolean);
  const at = new Map<string, number[]>();
  list.forEach((word, index) => {
    const places = at.get(word);
    if (places) places.push(index);
    else at.set(word, [index]);
  });
  return { list, at };
}

/** Whether `key` is in the scanned text (see {@link LoreKey}). */
function holds(scanned: Scanned, key: LoreKey, caseSensitive: boolean): boolean {
  const side = caseSensitive ? 'exact' : 'lower';
  if ('text' in key) return scanned[side].includes(key.text);
  const words = (scanned.words[side] ??= wordsOf(scanned[side]));
  const [first, ...rest] = key.words;
  const places = words.at.get(first!);
  if (!places) return false;
  if (rest.length === 0) return true;
  for (const place of places) {
    if (scanned.comparisons > LORE_LIMITS.comparisons) return false;
    let index = 0;
    while (index < rest.length && words.list[place + 1 + index] === rest[index]) index++;
    scanned.comparisons += index + 1;
    if (index === rest.length) return true;
  }
  return false;
}

/**
 * The entries of `book` the last messages (`recent`, oldest first) call for: constant ones, and
 * those one of whose keys is in the last `scanDepth` of them (their last
 * {@link LORE_LIMITS}`.scanned` characters), a selective one as its secondary keys decide too
 * (see {@link SelectiveLogic}); most important first: by `priority`, then the higher `order`,
 * which SillyTavern keeps first when they do not all fit.
 */
export function calledLore(book: Lorebook, recent: string[]): LoreEntry[] {
  const exact = recent.slice(-book.scanDepth).join('\n').slice(-LORE_LIMITS.scanned);
  const scanned: Scanned = { exact, lower: exact.toLowerCase(), words: {}, comparisons: 0 };
  const found = (entry: LoreEntry) => (key: LoreKey) => holds(scanned, key, entry.caseSensitive);
  const secondaryAgrees = (entry: LoreEntry) => {
    const keys = entry.secondaryKeys;
    if (!entry.selective || keys.length === 0) return true;
    switch (entry.selectiveLogic) {
      case 'any':
        return keys.some(found(entry));
      case 'notAll':
        return !keys.every(found(entry));
      case 'notAny':
        return !keys.some(found(entry));
      case 'all':
        return keys.every(found(entry));
    }
  };
  return book.entries
    .filter((entry) => entry.constant || (entry.keys.some(found(entry)) && secondaryAgrees(entry)))
    .sort((a, b) => b.priority - a.priority || b.order - a.order);
}
