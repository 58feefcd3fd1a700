/**
 * A `JSON.parse` reviver and `JSON.stringify` replacer that makes every string well-formed UTF-16,
 * keys too: half of a surrogate pair (half an emoji, as a cut text holds it) becomes U+FFFD.
 * PostgreSQL's jsonb refuses such a half and better-sqlite3 writes it as three bytes of no valid
 * UTF-8, read back as three U+FFFD; kept as one U+FFFD, it is the same on both databases.
 */
export function wellFormedJson(_key: string, value: unknown): unknown {
  if (typeof value === 'string') return value.toWellFormed();
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (keys.every((key) => key.isWellFormed())) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key.toWellFormed(), inner]),
  );
}

/** Whether JSON `text` may hold half of a surrogate pair: only as an escape (`\udXXX`). */
export const mayHoldHalves = (text: string): boolean => /\\u[dD][89a-fA-F]/.test(text);
