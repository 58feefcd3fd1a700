/** Marks that close what a sentence opened, which a segmenter may leave to the next sentence. */
const CLOSERS = /^[\p{Pe}\p{Pf}"'*_~]+/u;

/** A sentence's end: its terminal mark, then what closes around it. */
const WHOLE = /[\p{Sentence_Terminal}\u2026][\p{Pe}\p{Pf}"'*_~]*$/u;

/** A list's number or letter alone ("3.", "b."), which the sentence rules take for a sentence. */
const LIST_MARK = /^\s*(?:\d{1,3}|[a-z])\.\s*$/iu;

/**
 * Sentence rules for `language`, or its first subtag's, or the default language's: a tag that
 * is well formed but unknown to ICU (`zh-yue`, `en-GB-oed`) makes `Intl.Segmenter` throw.
 */
function sentenceSegmenter(language: string): Intl.Segmenter {
  for (const tag of [language, language.split('-')[0]]) {
    try {
      return new Intl.Segmenter(tag, { granularity: 'sentence' });
    } catch {
      // The next, shorter tag.
    }
  }
  return new Intl.Segmenter(undefined, { granularity: 'sentence' });
}

/**
 * `text` without its last sentence when that one is unfinished (a reply the model stopped at
 * its length, mid-word), found by the sentence rules of `language` (`Intl.Segmenter`); a roleplay
 * action (`*…*`) left open is closed, and a list's number left alone is dropped too. Unchanged
 * when it is one sentence, or its last is whole, and whenever the cut would take away more than
 * it keeps: the reader saw the whole reply stream, and a long line with no full stop (numbers, a
 * list) or an abbreviation the rules take for an end ("Dr.") would lose most of it.
 */
export function withoutUnfinishedSentence(text: string, language: string): string {
  const sentences = [...sentenceSegmenter(language).segment(text)].filter((segment) =>
    segment.segment.trim(),
  );
  const last = sentences.at(-1);
  if (!last || last.index === 0) return text;
  // Right after the sentence before, they close it ("*He smiled.* She"); after white space they
  // open the next ("*She turns").
  const closers = /\s/u.test(text[last.index - 1]!) ? '' : (CLOSERS.exec(last.segment)?.[0] ?? '');
  const rest = last.segment.slice(closers.length).trim();
  // A list's number alone at the very end ("…\n3.") is the start of an item, not a sentence.
  if (!rest || (WHOLE.test(rest) && !LIST_MARK.test(rest))) return text;
  // A number alone before the unfinished sentence is that sentence's own ("3. Plu").
  const before = sentences.at(-2);
  const end = !closers && before && LIST_MARK.test(before.segment) ? before.index : last.index;
  let kept = (text.slice(0, end).trimEnd() + closers).trimEnd();
  // An action opened and not closed in what is kept is closed, as the model would have.
  if ((kept.match(/\*/g)?.length ?? 0) % 2 === 1) kept = `${kept}*`;
  return kept.trim() && kept.length * 2 >= text.length ? kept : text;
}
