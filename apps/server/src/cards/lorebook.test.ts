import { describe, expect, it } from 'vitest';
import { calledLore, LORE_LIMITS, readLorebook as cardLorebook, type Lorebook } from './lorebook';

const book = (entries: object[], more: object = {}): Lorebook =>
  cardLorebook(JSON.stringify({ character_book: { entries, ...more } }))!;
const contents = (lore: Lorebook, recent: string[]) =>
  calledLore(lore, recent).map((entry) => entry.content);

describe("a card's lorebook", () => {
  it('is called by a key as a word of its own, in any case unless the entry says', () => {
    const lore = book([
      { keys: ['fox'], content: 'fox' },
      { keys: ['Ana'], content: 'Ana', case_sensitive: true },
    ]);
    expect(contents(lore, ['A FOX! And ana.'])).toEqual(['fox']);
    expect(contents(lore, ['Foxes and Anabel.'])).toEqual([]);
    expect(contents(lore, ['fox-like Ana'])).toEqual(['fox', 'Ana']);
  });

  it('finds a key inside a word of a script written without spaces', () => {
    const lore = book([{ keys: ['灯台'], content: 'lighthouse' }]);
    expect(contents(lore, ['あの灯台は古い'])).toEqual(['lighthouse']);
  });

  it('looks through the last messages only, as deep as the card says', () => {
    const lore = book([{ keys: ['fox'], content: 'fox' }], { scan_depth: 1 });
    expect(contents(lore, ['the fox', 'nothing'])).toEqual([]);
    // SillyTavern's two when the card does not say: the message answered and the one before.
    const fox = book([{ keys: ['fox'], content: 'fox' }]);
    expect(contents(fox, ['the fox', 'a'])).toEqual(['fox']);
    expect(contents(fox, ['the fox', 'a', 'b'])).toEqual([]);
  });

  it('wants a secondary key too for a selective entry, and orders by priority', () => {
    const lore = book([
      { keys: ['fox'], secondary_keys: ['night'], selective: true, content: 'night fox' },
      { keys: ['fox'], content: 'low', priority: 1 },
      { keys: ['fox'], content: 'high', priority: 9 },
    ]);
    expect(contents(lore, ['a fox'])).toEqual(['high', 'low']);
    expect(contents(lore, ['a fox at night'])).toEqual(['high', 'low', 'night fox']);
  });

  it('uses none of what it cannot: switched off, empty, pattern keys, no book', () => {
    expect(
      cardLorebook(
        JSON.stringify({
          character_book: {
            entries: [
              { keys: ['a'], content: 'off', enabled: false },
              { keys: ['a'], content: '  ' },
              { keys: ['/a+/i'], content: 'pattern' },
              {},
            ],
          },
        }),
      ),
    ).toBeNull();
    expect(cardLorebook('{"other":1}')).toBeNull();
    expect(cardLorebook(null)).toBeNull();
    // PostgreSQL hands the column parsed.
    expect(
      cardLorebook({ character_book: { entries: [{ keys: ['a'], content: 'x' }] } }),
    ).not.toBeNull();
  });

  it('uses a bounded part of a huge book: anyone may publish one, and it is read at every send', () => {
    const huge = book(
      Array.from({ length: 5000 }, (_, i) => ({
        keys: [`w${i}`, `the w${i}`, 'x'.repeat(LORE_LIMITS.keyLength + 1)],
        content: `entry ${i}`,
      })),
    );
    expect(huge.entries).toHaveLength(LORE_LIMITS.entries);
    // The key longer than a key may be is not one.
    expect(huge.entries.flatMap((entry) => entry.keys)).toHaveLength(LORE_LIMITS.entries * 2);
    expect(contents(huge, ['w1 and w999 and w1000'])).toEqual(['entry 1', 'entry 999']);
    // Keys past the book's share are not used.
    const many = book([
      { keys: Array.from({ length: LORE_LIMITS.keys }, (_, i) => `k${i}`), content: 'first' },
      { keys: ['late'], content: 'second' },
    ]);
    expect(contents(many, ['late k7'])).toEqual(['first']);
    // Only the end of a long message is looked through.
    expect(contents(huge, [`w3 ${'.'.repeat(LORE_LIMITS.scanned)}`])).toEqual([]);
  });

  it("decides by SillyTavern's selective logic: any, not all, not any, all", () => {
    const logic = (selectiveLogic: number) =>
      book([
        {
          keys: ['dragon'],
          secondary_keys: ['friendly', 'green'],
          selective: true,
          content: 'the dragon',
          extensions: { selectiveLogic },
        },
      ]);
    const texts = ['a dragon', 'a friendly dragon', 'a friendly green dragon'];
    const called = (selectiveLogic: number) =>
      texts.map((text) => contents(logic(selectiveLogic), [text]).length === 1);
    expect(called(0)).toEqual([false, true, true]);
    expect(called(1)).toEqual([true, true, false]);
    expect(called(2)).toEqual([true, false, false]);
    expect(called(3)).toEqual([false, false, true]);
  });

  it('finds keys of several words as words, whatever stands between them', () => {
    const lore = book([{ keys: ['the old light'], content: 'light' }]);
    expect(contents(lore, ['Look at The old-light!'])).toEqual(['light']);
    expect(contents(lore, ['the older light'])).toEqual([]);
  });

  it('keeps the higher order first when priorities are equal, as SillyTavern drops the lower', () => {
    const lore = book([
      { keys: ['fox'], content: 'early', insertion_order: 1 },
      { keys: ['fox'], content: 'late', insertion_order: 9 },
    ]);
    expect(contents(lore, ['fox'])).toEqual(['late', 'early']);
  });

  it('answers a book made to be slow (keys beside letters, runs of one word) in one pass', () => {
    const slow = book(
      Array.from({ length: LORE_LIMITS.entries }, (_, i) => ({
        keys: ['a.', `${'a '.repeat(40)}b${i}`, '灯'.repeat(50) + String(i)],
        content: `entry ${i}`,
      })),
    );
    const text = 'a.'.repeat(7999);
    // Every entry has "a", a word of the text: all are called; the runs of "a" end in no "b".
    expect(contents(slow, [text])).toHaveLength(LORE_LIMITS.entries);
    const runs = book([{ keys: [`${'a '.repeat(40)}b`], content: 'run' }]);
    expect(contents(runs, ['a '.repeat(8000)])).toEqual([]);
  });
});
