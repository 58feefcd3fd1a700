import { describe, expect, it } from 'vitest';
import { plainPreview } from './plain-text';

describe('a message as a preview line', () => {
  it('drops the marks a bubble renders', () => {
    expect(plainPreview('*waves* **Hello** [there](https://example.com)')).toBe(
      'waves Hello there',
    );
  });

  it('keeps the words of paragraphs, lines and list items apart', () => {
    expect(plainPreview('*smiles*\n\nHi! How was\nyour day?\n\n- one\n- two')).toBe(
      'smiles Hi! How was your day? one two',
    );
  });

  it('reads a table row by row, without its pipes and dashes', () => {
    expect(
      plainPreview(
        'Our week:\n\n| Day | Plan |\n|---|---|\n| Mon | Rest |\n| Tue | ~~Gym~~ Park |',
      ),
    ).toBe('Our week: Day, Plan; Mon, Rest; Tue, Gym Park');
  });

  it('keeps a single tilde as roleplay writes it, and cuts a long message with an ellipsis', () => {
    expect(plainPreview('hi~ see you~')).toBe('hi~ see you~');
    expect(plainPreview('word '.repeat(40), 20)).toBe('word word word word…');
  });
});
