import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyReader, TEST_GGUF, tinyModel } from './harness';
import { fittingTurns, promptHold, type PromptHold } from '../src/chat/conversation';
import type { PromptMemory, PromptSource } from '../src/chat/prompt';

// A chat that fills the embedded model's context, as a send builds its prompt: the prompt fits
// once the model's chat template is around its turns (the tiny model's Llama 2 template costs
// about 11 tokens a turn, more than the 8 a prompt counted), and the chat's next messages read
// their new words only while the history's start stays where it was.
const haveModel = fs.existsSync(TEST_GGUF);

/** A send's prompt: its tokens, those read anew, and whether the facts went after the history. */
type Send = { prompt: number; read: number; factsAfter: boolean };
const REPLY = 12;

describe.skipIf(!haveModel)("a full chat's prompts on the tiny GGUF", () => {
  let model: Awaited<ReturnType<typeof tinyModel>>;
  beforeAll(async () => {
    model = await tinyModel({ contextSize: 1024 });
  });
  afterAll(() => model.close());

  it("counts its template's tokens a turn", () => {
    expect(model.turnTokens).toBeGreaterThan(8);
    expect(model.turnTokens).toBeLessThan(20);
  });

  it('fits the context once templated, and reads only the new words while its start holds', async () => {
    const reads = (await chat(30)).map((send) => send.read);
    const readAgain = reads.filter((read) => read > 200).length;
    expect(readAgain).toBeGreaterThan(0);
    expect(readAgain).toBeLessThan(reads.length / 4);
  }, 60_000);

  describe('where the facts recalled change order at each message', () => {
    /** The room's memories at `turn`: `facts`, the most relevant to each message first. */
    const remembering = (facts: string[]) => (turn: number) => ({
      pinned: ['Ada is allergic to cats.'],
      summary: 'Ada arrived at the library by the sea and asked about the harbour.',
      acrossChats: [],
      recalled: [...facts.slice(turn % facts.length), ...facts.slice(0, turn % facts.length)],
      newest: facts,
    });
    /** What a chat's sends read: the first all of it, none again from its start. */
    const readOnce = (sends: Send[]) => {
      expect(sends[0]!.read).toBeGreaterThan(sends[0]!.prompt / 2);
      expect(sends.slice(1).filter((send) => send.read > send.prompt / 2)).toEqual([]);
    };

    it('reads only the new words where all the facts fit', async () => {
      const facts = [
        'Ada came by ship from the north.',
        'Ada is afraid of deep water.',
        'Ada collects sea glass.',
        'Lyra lent Ada a book of maps.',
      ];
      const sends = await chat(16, remembering(facts), 'ada, remembering');
      expect(sends.map((send) => send.factsAfter)).not.toContain(true);
      readOnce(sends);
      // Past the first, a send reads about as much as one with no memories (its history's
      // start moving on aside: a few times).
      const small = sends.filter((send) => send.read < 100).length;
      expect(small).toBeGreaterThan(sends.length * 0.6);
    }, 60_000);

    it('reads the new words and the facts chosen where not all fit', async () => {
      const facts = Array.from({ length: 30 }, (_, i) => `Ada saw boat number ${i} at the pier.`);
      const sends = await chat(16, remembering(facts), 'ada, remembering more');
      expect(sends.map((send) => send.factsAfter)).not.toContain(false);
      readOnce(sends);
      // The facts chosen fill the memory's share, a quarter of the prompt: a send reads them and
      // its new words, a third of its prompt at most (its history's start moving on aside).
      const small = sends.filter((send) => send.read < send.prompt / 3).length;
      expect(small).toBeGreaterThan(sends.length / 2);
    }, 60_000);
  });

  /**
   * A chat of `turns` messages and replies on the tiny model, each prompt built as a send builds
   * it (with `memoryAt(turn)`'s memories), `owner`'s; for each, the prompt's tokens and those
   * read (not taken from what its sequence held).
   */
  async function chat(
    turns: number,
    memoryAt?: (turn: number) => PromptMemory,
    owner = 'ada',
  ): Promise<Send[]> {
    const history: PromptSource['history'] = [{ role: 'mate', content: 'Welcome, traveller.' }];
    // What the room's last prompt tells the next, as a send passes it on.
    let hold: PromptHold = {};
    const sends: Send[] = [];
    for (let turn = 1; turn <= turns; turn += 1) {
      history.push({ role: 'user', content: `Turn ${turn}: what did you see at the harbour?` });
      const prompt = await fittingTurns(
        historyReader(
          {
            mate: {
              name: 'Lyra',
              description: 'Lyra keeps a library by the sea. '.repeat(10),
              personality: 'gentle',
              scenario: '',
              mes_example: '',
              system_prompt: '',
            },
            persona: null,
            userName: 'Ada',
            ...(memoryAt && { memory: memoryAt(turn) }),
          },
          history,
        ),
        model,
        REPLY,
        hold,
      );
      hold = promptHold(prompt);
      let text = '';
      const result = await model.generate(
        prompt.turns,
        { signal: new AbortController().signal, maxTokens: REPLY, temperature: 0, owner },
        (piece) => (text += piece),
      );
      // All of the prompt was read (llama.cpp dropped none of it to make room), within the context.
      const written = prompt.turns.reduce((sum, one) => sum + model.countTokens(one.content), 0);
      expect(result.promptTokens).toBeGreaterThan(written);
      expect(result.promptTokens + REPLY).toBeLessThanOrEqual(1024);
      sends.push({
        prompt: result.promptTokens,
        read: result.promptTokens - result.cachedPromptTokens!,
        factsAfter: prompt.report.recalledAfterHistory,
      });
      history.push({ role: 'mate', content: text.trim() || '…' });
    }
    // The chat filled the context: its history's start moved on (a few times, not at each send).
    expect(hold.heldFrom).toBeGreaterThan(0);
    return sends;
  }
});
