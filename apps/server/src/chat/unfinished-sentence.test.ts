import { describe, expect, it } from 'vitest';
import { withoutUnfinishedSentence } from './unfinished-sentence';

describe('a reply cut off by its length', () => {
  it('ends at its last whole sentence', () => {
    expect(withoutUnfinishedSentence('He smiled at her for a while. She turned to the', 'en')).toBe(
      'He smiled at her for a while.',
    );
    expect(withoutUnfinishedSentence('Hi! How are you? I was', 'en')).toBe('Hi! How are you?');
    expect(withoutUnfinishedSentence('"Hello there, you are late." She turned to the', 'en')).toBe(
      '"Hello there, you are late."',
    );
    expect(withoutUnfinishedSentence('*smiles* Hello, welcome back.\n\n*She turns to', 'en')).toBe(
      '*smiles* Hello, welcome back.',
    );
    expect(
      withoutUnfinishedSentence('“Be careful out there tonight.” She turned to the', 'en'),
    ).toBe('“Be careful out there tonight.”');
    expect(withoutUnfinishedSentence('Lo dijo. «Ten cuidado.» Y luego', 'es')).toBe(
      'Lo dijo. «Ten cuidado.»',
    );
    expect(withoutUnfinishedSentence('彼は笑った。彼女は窓の', 'ja')).toBe('彼は笑った。');
    expect(withoutUnfinishedSentence('Hola. ¿Qué tal? Yo estaba', 'es')).toBe('Hola. ¿Qué tal?');
  });

  it("keeps an action's closing mark, and closes an action it would leave open", () => {
    expect(withoutUnfinishedSentence('*He smiled at her.* She turned to', 'en')).toBe(
      '*He smiled at her.*',
    );
    expect(withoutUnfinishedSentence('*She walks over to you. She sits and', 'en')).toBe(
      '*She walks over to you.*',
    );
  });

  it('keeps the whole text when the cut would take away more than it keeps, or leave nothing', () => {
    expect(withoutUnfinishedSentence('He smiled. She turned to the window and', 'en')).toBe(
      'He smiled. She turned to the window and',
    );
    expect(withoutUnfinishedSentence('\nShe looked at the sea and', 'en')).toBe(
      '\nShe looked at the sea and',
    );
  });

  it("drops a list's number left alone at the very end", () => {
    expect(
      withoutUnfinishedSentence('1. Walks by the river.\n2. Rainy days by the fire.\n3.', 'en'),
    ).toBe('1. Walks by the river.\n2. Rainy days by the fire.');
  });

  it("drops a list's number left alone with the unfinished item", () => {
    expect(withoutUnfinishedSentence('1. Walks by the river.\n2. Rainy days.\n3. Plu', 'en')).toBe(
      '1. Walks by the river.\n2. Rainy days.',
    );
  });

  it('reads a language tag the sentence rules do not know by its first subtag', () => {
    expect(withoutUnfinishedSentence('他笑了很久很久。她转向', 'zh-yue')).toBe('他笑了很久很久。');
    expect(withoutUnfinishedSentence('He smiled at her for a while. She', 'en-GB-oed')).toBe(
      'He smiled at her for a while.',
    );
  });

  it('keeps a reply whose last sentence is whole, or that is one sentence', () => {
    expect(withoutUnfinishedSentence('He smiled. She turned away.', 'en')).toBe(
      'He smiled. She turned away.',
    );
    expect(withoutUnfinishedSentence('He smiled. "Wait…"', 'en')).toBe('He smiled. "Wait…"');
    expect(withoutUnfinishedSentence('Okay so I was thinking about 3.5 million and', 'en')).toBe(
      'Okay so I was thinking about 3.5 million and',
    );
  });
});
