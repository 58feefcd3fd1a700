/** Marks that close what a sentence opened, which a segmenter may leave to the next sentence. */
const CLOSERS = /^[\p{Pe}\p{Pf}"'*_~]+/u;

/** A sentence's end: its terminal mark, then what closes around it. */
const WHOLE = /[\p{Sentence_Terminal}\u2026][\p{Pe}\p{Pf}"'*_~]*$/u;

/**
 * `text` without its last sentence when that one is unfinished (a reply the model stopped at
 * its length, mid-word), found by the sentence rules of `language` (`Intl.Segmenter`); a roleplay
 * action (`*…*`) left open is closed. Unchanged when it is one sentence, or its last is whole.
 */
export function withoutUnfinishedSentence(text: string, language: string): string {
  const segmenter = new Intl.Segmenter(language, { granularity: 'sentence' });
  let last: Intl.SegmentData | undefined;
  for (const segment of segmenter.segment(text)) if (segment.segment.trim()) last = segment;
  if (!last || last.index === 0) return text;
  // Right after the sentence before, they close it ("*He smiled.* She"); after white space they
  // open the next ("*She turns").
  const closers = /\s/u.test(text[last.index - 1]!) ? '' : (CLOSERS.exec(last.segment)?.[0] ?? '');
  const rest = last.segment.slice(closers.length).trim();
  if (!rest || WHOLE.test(rest)) return text;
  const kept = (text.slice(0, last.index).trimEnd() + closers).trimEnd();
  // An action opened and not closed in what is kept is closed, as the model would have.
  return (kept.match(/\*/g)?.length ?? 0) % 2 === 1 ? `${kept}*` : kept;
}
