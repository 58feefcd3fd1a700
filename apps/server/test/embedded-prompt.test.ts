import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyReader, TEST_GGUF, tinyModel } from './harness';
import { fittingTurns } from '../src/chat/conversation';
import type { PromptSource } from '../src/chat/prompt';

// A chat that fills the embedded model's context, as a send builds its prompt: the prompt fits
// once the model's chat template is around its turns (the tiny model's Llama 2 template costs
// about 11 tokens a turn, more than the 8 a prompt counted), and the chat's next messages read
// their new words only while the history's start stays where it was.
const haveModel = fs.existsSync(TEST_GGUF);
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
    const history: PromptSource['history'] = [{ role: 'mate', content: 'Welcome, traveller.' }];
    let heldFrom: number | null = null;
    const reads: number[] = [];
    for (let turn = 1; turn <= 30; turn += 1) {
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
          },
          history,
        ),
        model,
        REPLY,
        { heldFrom },
      );
      heldFrom = prompt.oldestKept;
      let text = '';
      const result = await model.generate(
        prompt.turns,
        { signal: new AbortController().signal, maxTokens: REPLY, temperature: 0, owner: 'ada' },
        (piece) => (text += piece),
      );
      // All of the prompt was read (llama.cpp dropped none of it to make room), within the context.
      const written = prompt.turns.reduce((sum, one) => sum + model.countTokens(one.content), 0);
      expect(result.promptTokens).toBeGreaterThan(written);
      expect(result.promptTokens + REPLY).toBeLessThanOrEqual(1024);
      reads.push(result.promptTokens - result.cachedPromptTokens!);
      history.push({ role: 'mate', content: text.trim() || '…' });
    }
    // The chat filled the context: its history's start moved on, a few times, not at each send.
    expect(heldFrom).toBeGreaterThan(0);
    const readAgain = reads.filter((read) => read > 200).length;
    expect(readAgain).toBeGreaterThan(0);
    expect(readAgain).toBeLessThan(reads.length / 4);
  });
});
