/** How big one piece of speech may be: characters and words (see {@link speechPieces}). */
export interface PieceBounds {
  /** Characters at most. */
  maxChars: number;
  /** Words (runs without spaces) at most. */
  maxWords: number;
}

/**
 * The default bounds: about a sentence. Flite's cost grows faster than the length of what it
 * speaks at once (a 269-character list of numbers took 7 s, the same text in 20-word pieces well
 * under one), and under node:wasi a piece whose synthesis needed more than about 60 MB of memory
 * crashed its process with a V8 fatal error.
 */
export const PIECE_BOUNDS: PieceBounds = { maxChars: 160, maxWords: 20 };

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

/**
 * A segment that ends after a title or an initial ("Dr. ", "M. "), where the sentence rules
 * end a sentence but a reader goes on: V8's `Intl.Segmenter` has no ICU abbreviation list.
 * "I." ends a sentence ("So did I.").
 */
const ABBREVIATION =
  /(?:^|[\s("“])(?:Dr|Mr|Mrs|Ms|Mx|Prof|St|Sr|Jr|Capt|Col|Gen|Lt|Sgt|Rev|Mt|vs|(?!I\.)\p{Lu})\.\s*$/u;

/**
 * The sentences of one line, by the ICU sentence rules, a segment that ends at a title or an
 * initial joined to the next: what is left at the end may be the start of one not yet written.
 */
function* sentencesIn(line: string): Generator<string> {
  let pending = '';
  for (const { segment } of sentences.segment(line)) {
    pending += segment;
    if (ABBREVIATION.test(pending)) continue;
    yield pending;
    pending = '';
  }
  if (pending) yield pending;
}

/** Whether `text` has anything to say: a letter or a digit. */
const sayable = (text: string) => /[\p{L}\p{N}]/u.test(text);

/** Where a piece may end within a sentence, best first: after a clause's mark, then a space. */
const CLAUSE_END = /[,;:–—)]\s+/g;

/**
 * Cuts one sentence into pieces within `bounds`: at a clause's end, else a space, else anywhere.
 * Each piece is chosen from the next `2 × maxChars` characters only, never the whole rest: a
 * long sentence (8,000 characters of `1, 1, …` fit in a message) split whole for each of its
 * pieces was quadratic in its length.
 */
function cut(sentence: string, bounds: PieceBounds): string[] {
  const pieces: string[] = [];
  const text = sentence.replace(/\s+/g, ' ').trim();
  let start = 0;
  while (start < text.length) {
    const ahead = text.slice(start, start + bounds.maxChars * 2);
    const words = ahead.split(' ');
    const last = start + ahead.length === text.length;
    if (last && ahead.length <= bounds.maxChars && words.length <= bounds.maxWords) {
      pieces.push(ahead);
      break;
    }
    // The longest prefix within both bounds...
    let limit = Math.min(ahead.length, bounds.maxChars);
    const wordEnd = words.slice(0, bounds.maxWords).join(' ').length;
    if (wordEnd < ahead.length) limit = Math.min(limit, wordEnd);
    const head = ahead.slice(0, limit + 1);
    // ...ending after the last clause mark in its second half, or else at its last space.
    let end = 0;
    for (const match of head.matchAll(CLAUSE_END))
      if (match.index + 1 > limit / 2 && match.index + 1 <= limit) end = match.index + 1;
    if (!end) end = head.lastIndexOf(' ') > 0 ? head.lastIndexOf(' ') : limit;
    pieces.push(ahead.slice(0, end).trim());
    start += end;
    while (text[start] === ' ') start += 1;
  }
  return pieces;
}

/**
 * Splits what is to be said into the pieces an engine speaks one at a time: sentences (by the
 * ICU sentence rules, not ended at a title or an initial), lines, and within a sentence longer than `bounds`, clauses or runs of
 * words. Pieces with no letter or digit (emoji, punctuation) are left out. Joined with spaces,
 * the pieces say everything `text` says, in order.
 */
export function speechPieces(text: string, bounds: PieceBounds = PIECE_BOUNDS): string[] {
  const pieces: string[] = [];
  for (const line of text.split(/\n+/))
    for (const segment of sentencesIn(line))
      for (const piece of cut(segment, bounds)) if (sayable(piece)) pieces.push(piece);
  return pieces;
}

/**
 * Where to end a piece at the start of a long `sentence`: after the last clause mark within
 * `bounds` (in their second half), else after the last space, else at the bound. Measured in
 * `sentence`'s own characters, spaces kept, so that the pieces joined are the text again.
 */
function pieceEnd(sentence: string, bounds: PieceBounds): number {
  let limit = Math.min(sentence.length, bounds.maxChars);
  const words = [...sentence.slice(0, limit).matchAll(/\S+/g)];
  if (words.length > bounds.maxWords) limit = words[bounds.maxWords]!.index;
  const head = sentence.slice(0, limit);
  let end = 0;
  for (const match of head.matchAll(CLAUSE_END))
    if (match.index + 1 > limit / 2) end = match.index + match[0].length;
  if (!end) end = head.lastIndexOf(' ') + 1;
  return end > 0 ? end : limit;
}

/**
 * Sentences of a text that is still being written (a reply streamed by the model), handed out
 * as each one completes, for a voice call to speak the first while the rest is written. A
 * sentence is complete once the next one begins (the ICU rules, as {@link speechPieces}) or its
 * line ends; one longer than twice `bounds.maxChars` (a list of numbers with no full stop) is
 * handed out a clause or a run of words at a time without waiting for its end. What is handed
 * out are slices of the text as written, spaces and markdown kept: joined, they are the text.
 */
export function sentenceStream(bounds: PieceBounds = PIECE_BOUNDS) {
  let rest = '';
  const take = (final: boolean): string[] => {
    const out: string[] = [];
    while (rest) {
      const newline = rest.indexOf('\n');
      const line = newline === -1 ? rest : rest.slice(0, newline + 1);
      const first = sentencesIn(line).next().value!;
      if (first.length > bounds.maxChars * 2) {
        const end = pieceEnd(first, bounds);
        out.push(rest.slice(0, end));
        rest = rest.slice(end);
        continue;
      }
      const complete = first.length < line.length || newline !== -1;
      if (!complete && !final) break;
      out.push(first);
      rest = rest.slice(first.length);
    }
    return out;
  };
  return {
    /** Adds the next words; answers the sentences they complete. */
    push: (text: string): string[] => {
      rest += text;
      return take(false);
    },
    /** The text is whole: answers what is left. */
    end: (): string[] => take(true),
  };
}
