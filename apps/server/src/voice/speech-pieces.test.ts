import { describe, expect, it } from 'vitest';
import { PIECE_BOUNDS, sentenceStream, speechPieces } from './speech-pieces';

const within = (piece: string) =>
  piece.length <= PIECE_BOUNDS.maxChars && piece.split(' ').length <= PIECE_BOUNDS.maxWords;

describe('speechPieces', () => {
  it('splits a reply into its sentences and lines', () => {
    expect(
      speechPieces('Item 12 costs 41.25 dollars. Dr. Smith came at 3 p.m.!\nReally? Yes.'),
    ).toEqual(['Item 12 costs 41.25 dollars.', 'Dr. Smith came at 3 p.m.!', 'Really?', 'Yes.']);
  });

  it('cuts a long sentence at its clauses, within the bounds, saying every word in order', () => {
    const text = Array.from({ length: 40 }, (_, i) => `item ${i} costs ${i + 0.25} dollars`).join(
      ', ',
    );
    const pieces = speechPieces(text);
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.every(within)).toBe(true);
    // Each piece but the last ends after a clause's comma.
    expect(pieces.slice(0, -1).every((piece) => piece.endsWith(','))).toBe(true);
    expect(pieces.join(' ')).toBe(text);
  });

  it('cuts runs with no punctuation at spaces, and a single overlong word anywhere', () => {
    const numbers = Array.from({ length: 400 }, (_, i) => `t${i}`).join(' ');
    const pieces = speechPieces(numbers);
    expect(pieces.every(within)).toBe(true);
    expect(pieces.join(' ')).toBe(numbers);
    const word = 'a'.repeat(500);
    expect(speechPieces(word).join('')).toBe(word);
    expect(speechPieces(word).every(within)).toBe(true);
  });

  it('ends no sentence at a title or an initial', () => {
    expect(
      speechPieces('Dr. Mira Solberg met Mr. Jones. M. Dupont came. So did I. Then we left.'),
    ).toEqual(['Dr. Mira Solberg met Mr. Jones.', 'M. Dupont came.', 'So did I.', 'Then we left.']);
  });

  it('leaves out pieces with nothing to say', () => {
    expect(speechPieces('🙂 ... !\n\n— Hello.')).toEqual(['— Hello.']);
    expect(speechPieces('')).toEqual([]);
  });

  it('cuts the longest sentence a message holds into pieces that say it all, in order', () => {
    const commas = '1, '.repeat(2666).trim();
    const pieces = speechPieces(commas);
    expect(pieces.every(within)).toBe(true);
    expect(pieces.join(' ')).toBe(commas);
    expect(pieces.slice(0, -1).every((piece) => piece.endsWith(','))).toBe(true);
    const glued = '1,'.repeat(4000);
    expect(speechPieces(glued).join('')).toBe(glued);
    expect(speechPieces(glued).every(within)).toBe(true);
  });
});

describe('sentenceStream', () => {
  /** Feeds `text` a few characters at a time, as a model streams it; what comes out, in order. */
  const stream = (text: string, step = 3) => {
    const sentences = sentenceStream();
    const out: { at: number; sentence: string }[] = [];
    for (let at = 0; at < text.length; at += step)
      for (const sentence of sentences.push(text.slice(at, at + step))) out.push({ at, sentence });
    for (const sentence of sentences.end()) out.push({ at: text.length, sentence });
    return out;
  };

  it('hands out each sentence once the next begins, the text as written', () => {
    const text = 'Hello there! How are you today? *smiles*\n\nI am *fine*.';
    const out = stream(text);
    expect(out.map((item) => item.sentence)).toEqual([
      'Hello there! ',
      'How are you today? ',
      '*smiles*\n',
      '\n',
      'I am *fine*.',
    ]);
    expect(out.map((item) => item.sentence).join('')).toBe(text);
    // The first sentence came out long before the text was whole.
    expect(out[0]!.at).toBeLessThan(20);
  });

  it('waits past a title for the rest of its sentence', () => {
    const text = 'I called Dr. Solberg today. She came.';
    expect(stream(text).map((item) => item.sentence)).toEqual([
      'I called Dr. Solberg today. ',
      'She came.',
    ]);
  });

  it('cuts a long sentence with no full stop (a list of numbers) as it streams', () => {
    const text = `I counted: ${Array.from({ length: 400 }, (_, i) => i * 1001).join(', ')}`;
    const out = stream(text, 7);
    expect(out.map((item) => item.sentence).join('')).toBe(text);
    expect(out.length).toBeGreaterThan(10);
    for (const { sentence } of out)
      expect(sentence.length).toBeLessThanOrEqual(PIECE_BOUNDS.maxChars * 2);
    // Pieces end after a comma, never inside a number.
    for (const { sentence } of out.slice(0, -1)) expect(sentence).toMatch(/, $/);
    expect(out[0]!.at).toBeLessThan(PIECE_BOUNDS.maxChars * 2 + 7);
  });
});
