import { describe, expect, it } from 'vitest';
import { fittingTurns, HISTORY_SLACK } from './conversation';
import { historyReader } from '../../test/harness';
import { buildPrompt, type PromptSource } from './prompt';

/** One token a word: a 300-token context, 20 of them for the reply. */
const model = {
  contextSize: 300,
  countTokens: (text: string) => text.split(/\s+/).filter(Boolean).length,
};
const REPLY = 20;
const mate = {
  name: 'Lyra',
  description: 'Lyra keeps a library.',
  personality: 'patient',
  scenario: '',
  mes_example: '',
  system_prompt: '',
};

/** A room of `count` stored messages of ten words each, at positions 0, 1, 2… */
function room(count: number) {
  const history: PromptSource['history'] = Array.from({ length: count }, (_, index) => ({
    role: index % 2 === 0 ? 'mate' : 'user',
    content: `message ${index} says some more words to fill it`,
  }));
  return { history, read: historyReader({ mate, persona: null, userName: 'Ada' }, history) };
}

/** Where a prompt's history starts: the position of its first message. */
const firstOf = (turns: { content: string }[]) =>
  Number(/message (\d+)/.exec(turns[1]!.content)![1]);

describe("a prompt's history once its chat no longer fits", () => {
  it('is all of a chat that fits, as before', async () => {
    const { read } = room(8);
    const prompt = await fittingTurns(read, model, REPLY, { heldFrom: 3 });
    expect(prompt.oldestKept).toBe(0);
    expect(prompt.turns).toHaveLength(9);
  });

  it('moves on past a quarter of its room more than it must, then starts there while it fits', async () => {
    const chat = room(60);
    const most = buildPrompt({ ...(await chat.read(60)), language: 'en' }, model, REPLY).report;
    expect(most.leftOut).toBeGreaterThan(0);
    const first = await fittingTurns(chat.read, model, REPLY);
    // Fewer turns than fit: a quarter of the history's tokens left free, at most a turn more (a
    // turn costs 18: its ten words and the template's 8).
    const held = first.report.history.tokens;
    expect(held).toBeLessThanOrEqual(Math.floor(most.history.tokens * (1 - HISTORY_SLACK)));
    expect(held).toBeGreaterThan(most.history.tokens * (1 - HISTORY_SLACK) - 18);
    expect(first.oldestKept).toBe(first.report.leftOut);
    expect(firstOf(first.turns)).toBe(first.oldestKept);

    // The next sends start where it did, each a message and a reply longer, while they fit.
    const heldFrom = first.oldestKept;
    let same = 0;
    for (;;) {
      chat.history.push(
        { role: 'user', content: 'and one more message of the person here' },
        { role: 'mate', content: 'and the reply of the mate to that one' },
      );
      const next = await fittingTurns(chat.read, model, REPLY, { heldFrom });
      if (next.oldestKept !== heldFrom) {
        // Full again: it moved on past a quarter more, never to where the newest that fit start.
        const fits = buildPrompt(
          { ...(await chat.read(chat.history.length)), language: 'en' },
          model,
          REPLY,
        ).report;
        expect(next.oldestKept).toBeGreaterThan(heldFrom!);
        expect(next.oldestKept).toBeGreaterThan(fits.leftOut);
        break;
      }
      same += 1;
      expect(firstOf(next.turns)).toBe(heldFrom);
      // The prompt before it, then the new words: it begins as the one before did.
      expect(next.turns.slice(1).at(-1)!.content).toBe(chat.history.at(-1)!.content);
    }
    // A quarter of the history's room free (some 60 tokens), 32 a send (two turns of eight
    // words): two sends more at the same start.
    expect(same).toBe(2);
  });

  it('does not start where the last prompt did once that is out of what fits, or past the turn answered', async () => {
    const chat = room(60);
    const fits = buildPrompt({ ...(await chat.read(60)), language: 'en' }, model, REPLY).report;
    const moved = await fittingTurns(chat.read, model, REPLY);
    // Too far back: the history from there would not fit.
    const early = await fittingTurns(chat.read, model, REPLY, { heldFrom: fits.leftOut - 1 });
    expect(early.oldestKept).toBe(moved.oldestKept);
    // At the turn answered (a prompt of one long message before): not a history of one turn.
    const late = await fittingTurns(chat.read, model, REPLY, { heldFrom: 59 });
    expect(late.oldestKept).toBe(moved.oldestKept);
    // A hint between the two is taken as it is.
    const between = await fittingTurns(chat.read, model, REPLY, { heldFrom: fits.leftOut + 1 });
    expect(between.oldestKept).toBe(fits.leftOut + 1);
  });

  it('moves back to leave no more than a quarter of its room free (a roomier prompt than the last)', async () => {
    const chat = room(60);
    const moved = await fittingTurns(chat.read, model, REPLY);
    // Past where moving on leaves a quarter free (a group's last speaker had a longer card).
    const far = await fittingTurns(chat.read, model, REPLY, { heldFrom: moved.oldestKept! + 3 });
    expect(far.oldestKept).toBe(moved.oldestKept);
  });

  it("holds as much as fits where its system turn is not the last prompt's", async () => {
    const chat = room(60);
    const fits = buildPrompt({ ...(await chat.read(60)), language: 'en' }, model, REPLY).report;
    const moved = await fittingTurns(chat.read, model, REPLY);
    // The memories recalled changed: the prompt differs from its start, nothing to keep.
    const changed = await fittingTurns(chat.read, model, REPLY, {
      heldFrom: moved.oldestKept,
      heldSystem: 'another system turn',
    });
    expect(changed.oldestKept).toBe(fits.leftOut);
    // The same system turn: the start is kept.
    const same = await fittingTurns(chat.read, model, REPLY, {
      heldFrom: moved.oldestKept,
      heldSystem: moved.turns[0]!.content,
    });
    expect(same.oldestKept).toBe(moved.oldestKept);
  });
});
