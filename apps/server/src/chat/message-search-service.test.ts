import { describe, expect, it } from 'vitest';
import { snippetOf } from './message-search-service';
import { likelyShare } from './message-search-repository';

const text = (parts: { text: string }[]) => parts.map((part) => part.text).join('');

describe('snippetOf', () => {
  it('marks every word that starts with a word searched, accents and case aside', () => {
    expect(snippetOf('Ève met Eve at the éveil café.', ['eve'])).toEqual([
      { text: 'Ève', match: true },
      { text: ' met ', match: false },
      { text: 'Eve', match: true },
      { text: ' at the ', match: false },
      { text: 'éveil', match: true },
      { text: ' café.', match: false },
    ]);
  });

  it('shows the words around the first match of a long message, cut at spaces', () => {
    const long = `${'before '.repeat(60)}the needle ${'after '.repeat(60)}`.trim();
    const parts = snippetOf(long, ['needle']);
    expect(parts[0]!.text.startsWith('…before ')).toBe(true);
    expect(parts.at(-1)!.text.endsWith(' after…')).toBe(true);
    expect(parts.find((part) => part.match)).toEqual({ text: 'needle', match: true });
    expect(text(parts).length).toBeLessThanOrEqual(165);
    expect(text(parts)).toMatch(/^…before /);
  });

  it('marks earlier words searched whole and the last one as a word’s start', () => {
    expect(snippetOf('Keep the keeper of the lighthouse.', ['keep', 'light'])).toEqual([
      { text: 'Keep', match: true },
      { text: ' the keeper of the ', match: false },
      { text: 'lighthouse', match: true },
      { text: '.', match: false },
    ]);
  });

  it('keeps the message whole when it is short, and plain when nothing matches', () => {
    expect(snippetOf('  Short\n and  sweet ', ['nothing'])).toEqual([
      { text: 'Short and sweet', match: false },
    ]);
  });
});

describe('likelyShare', () => {
  const common = new Map([
    ['the', 0.8],
    ['tide', 0.05],
    ['tidal', 0.01],
  ]);
  it('is the least share of the words, a word not among the common ones none', () => {
    expect(likelyShare(['the', 'tide'], common)).toBe(0.05);
    expect(likelyShare(['the', 'anchor'], common)).toBe(0);
    expect(likelyShare(['anchor', 'the'], common)).toBe(0);
  });
  it('counts every common word the last word starts, and only whole earlier words', () => {
    expect(likelyShare(['tid'], common)).toBeCloseTo(0.06);
    expect(likelyShare(['tid', 'the'], common)).toBe(0);
    expect(likelyShare(['t'], common)).toBeCloseTo(0.86);
    expect(
      likelyShare(
        ['t'],
        new Map([
          ['the', 0.8],
          ['to', 0.7],
        ]),
      ),
    ).toBe(1);
  });
});
