import { describe, expect, it } from 'vitest';
import { PIECE_BOUNDS, speechPieces } from './speech-pieces';

const within = (piece: string) =>
  piece.length <= PIECE_BOUNDS.maxChars && piece.split(' ').length <= PIECE_BOUNDS.maxWords;

describe('speechPieces', () => {
  it('splits a reply into its sentences and lines', () => {
    expect(
      speechPieces('Item 12 costs 41.25 dollars. Dr. Smith came at 3 p.m.!\nReally? Yes.'),
    ).toEqual(['Item 12 costs 41.25 dollars.', 'Dr.', 'Smith came at 3 p.m.!', 'Really?', 'Yes.']);
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
