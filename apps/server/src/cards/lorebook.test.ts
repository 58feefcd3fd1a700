import { describe, expect, it } from 'vitest';
import {
  calledLore,
  cardLorebook as mateLorebook,
  LORE_LIMITS,
  readLorebook as cardLorebook,
  type Lorebook,
} from './lorebook';

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
    expect(contents(book([{ keys: ['fox'], content: 'fox' }]), ['the fox', 'a', 'b'])).toEqual([
      'fox',
    ]);
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
    const keys = huge.entries.flatMap((entry) => entry.keys);
    expect(keys).toHaveLength(LORE_LIMITS.entries * 2);
    expect(keys.every((key) => key.length <= LORE_LIMITS.keyLength)).toBe(true);
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

  it('is read once per mate and save: a mate saved since is read again', () => {
    const mate = {
      id: 'm1',
      updated_at: '2026-12-01T00:00:00.000Z',
      card_extra: JSON.stringify({
        character_book: { entries: [{ keys: ['a'], content: 'one' }] },
      }),
    };
    expect(mateLorebook(mate)?.entries[0]?.content).toBe('one');
    const edited = JSON.stringify({
      character_book: { entries: [{ keys: ['a'], content: 'two' }] },
    });
    expect(mateLorebook({ ...mate, card_extra: edited })?.entries[0]?.content).toBe('one');
    expect(
      mateLorebook({ ...mate, card_extra: edited, updated_at: '2026-12-02T00:00:00.000Z' })
        ?.entries[0]?.content,
    ).toBe('two');
  });
});
