/** Lowercase words without accents: what both search indexes compare. */
export function searchWords(keyword: string): string[] {
  return keyword
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
}

/**
 * The words of `keyword` as typed, lowercase with accents kept ("séance"), for the hot words to
 * show; `words` (its {@link searchWords}) when the two do not fold to the same words.
 */
export function typedSpelling(keyword: string, words: string[]): string {
  const typed = keyword
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8)
    .join(' ');
  const folded = words.join(' ');
  return searchWords(typed).join(' ') === folded ? typed : folded;
}
