import { describe, expect, it } from 'vitest';
import { cardExtrasOf, readCardExtras } from './card-extras';

describe("a card's extras", () => {
  it('are its lorebook and post-history instructions; none when it has neither', () => {
    const extras = readCardExtras(
      JSON.stringify({
        post_history_instructions: 'Short answers.',
        character_book: { entries: [{ keys: ['a'], content: 'one' }] },
      }),
    );
    expect(extras.instructions).toBe('Short answers.');
    expect(extras.lore?.entries.map((entry) => entry.content)).toEqual(['one']);
    expect(readCardExtras('{"character_version":"2"}')).toEqual({ lore: null, instructions: '' });
    // As PostgreSQL's driver hands it: parsed already.
    expect(readCardExtras({ post_history_instructions: 'Parsed.' }).instructions).toBe('Parsed.');
    expect(readCardExtras(null)).toEqual({ lore: null, instructions: '' });
  });

  it('are read once per mate and save: a mate saved since is read again', async () => {
    const stored = (content: string) =>
      JSON.stringify({ character_book: { entries: [{ keys: ['a'], content }] } });
    let reads = 0;
    const load = (content: string) => async () => {
      reads++;
      return stored(content);
    };
    const mate = { id: 'm1', updated_at: '2026-12-01T00:00:00.000Z' };
    const first = async (content: string, at = mate.updated_at) =>
      (await cardExtrasOf({ ...mate, updated_at: at }, load(content))).lore?.entries[0]?.content;
    expect(await first('one')).toBe('one');
    expect(await first('two')).toBe('one');
    expect(reads).toBe(1);
    expect(await first('two', '2026-12-02T00:00:00.000Z')).toBe('two');
    expect(reads).toBe(2);
  });
});
