import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_GGUF, tinyModel } from '../../test/harness';
import { sessionTurns } from './embedded';
import { ModelBusyError, type ChatTurn } from './language-model';

const haveModel = fs.existsSync(TEST_GGUF);
if (!haveModel)
  console.warn(`Embedded provider tests skipped: no model at ${TEST_GGUF} (set MATES_TEST_GGUF).`);
const never = () => new AbortController().signal;

describe.skipIf(!haveModel)('embedded llama.cpp provider on the tiny GGUF', () => {
  let model: Awaited<ReturnType<typeof tinyModel>>;
  beforeAll(async () => {
    model = await tinyModel();
  });
  afterAll(() => model.close());

  it('loads once and reports its real context size and token counts', () => {
    expect(model.unavailableReason()).toBeNull();
    expect(model.contextSize).toBe(2048);
    expect(model.countTokens('Once upon a time')).toBeGreaterThan(2);
  });

  it('holds output to a JSON schema with its grammar', async () => {
    const schema = {
      type: 'object',
      properties: {
        suggestions: {
          type: 'array',
          items: { type: 'string', maxLength: 60 },
          minItems: 3,
          maxItems: 3,
        },
      },
      required: ['suggestions'],
      additionalProperties: false,
    };
    let text = '';
    await model.generate(
      [{ role: 'user', content: 'Suggest three things' }],
      { signal: never(), maxTokens: 400, jsonSchema: schema },
      (piece) => (text += piece),
    );
    const parsed = JSON.parse(text) as { suggestions: string[] };
    expect(parsed.suggestions).toHaveLength(3);
    expect(parsed.suggestions.every((item) => typeof item === 'string' && item.length <= 60)).toBe(
      true,
    );
  });

  it('queues one conversation behind the busy slot and refuses the next with ModelBusyError', async () => {
    const turns = [{ role: 'user' as const, content: 'Tell me a story' }];
    const first = model.generate(turns, { signal: never(), maxTokens: 60 }, () => {});
    const second = model.generate(turns, { signal: never(), maxTokens: 10 }, () => {});
    const third = model.generate(turns, { signal: never(), maxTokens: 10 }, () => {});
    await expect(third).rejects.toBeInstanceOf(ModelBusyError);
    await expect(first).resolves.toMatchObject({ completionTokens: expect.any(Number) });
    await expect(second).resolves.toMatchObject({ completionTokens: expect.any(Number) });
  });

  it("answers a prompt that ends with a card's post-history instructions", async () => {
    let text = '';
    const result = await model.generate(
      [
        { role: 'system', content: 'You are Lyra, a librarian.' },
        { role: 'assistant', content: 'Welcome to the library.' },
        { role: 'user', content: 'Which book do you like?' },
        { role: 'system', content: 'Answer in one short sentence.' },
      ],
      { signal: never(), maxTokens: 20 },
      (piece) => (text += piece),
    );
    expect(text.trim()).not.toBe('');
    expect(result.completionTokens).toBeGreaterThan(0);
  });

  it('ends where the model writes a stop text, leaving it out', async () => {
    let text = '';
    const result = await model.generate(
      [{ role: 'user', content: 'Tell me a long story about the sea.' }],
      { signal: never(), maxTokens: 200, stop: [' ', '\n'] },
      (piece) => (text += piece),
    );
    // Words follow each other with spaces: the first one ends it, long before 200 tokens.
    expect(result.finishReason).toBe('stop');
    expect(result.completionTokens).toBeLessThan(200);
    expect(text).not.toMatch(/[ \n]/);
  });

  it('stops within a token of an abort', async () => {
    const controller = new AbortController();
    let pieces = 0;
    const result = await model.generate(
      [{ role: 'user', content: 'Once' }],
      { signal: controller.signal, maxTokens: 300 },
      () => {
        pieces += 1;
        if (pieces === 4) controller.abort();
      },
    );
    expect(pieces).toBeLessThanOrEqual(5);
    expect(result.finishReason).toBe('stop');
  });
});

describe.skipIf(!haveModel)("a conversation's next message on the tiny GGUF", () => {
  let model: Awaited<ReturnType<typeof tinyModel>>;
  beforeAll(async () => {
    model = await tinyModel({ parallel: 2 });
  });
  afterAll(() => model.close());

  const card = (name: string): ChatTurn[] => [
    { role: 'system', content: `You are ${name}, who tells stories by the sea. `.repeat(12) },
    { role: 'assistant', content: `Hello, I am ${name}.` },
  ];
  /** An answer in `owner`'s chat (`null`: nobody's, as a memory's summary asks). */
  const answer = async (turns: ChatTurn[], owner: string | null = 'ada') => {
    let text = '';
    const result = await model.generate(
      turns,
      { signal: never(), maxTokens: 12, temperature: 0, ...(owner !== null && { owner }) },
      (piece) => (text += piece),
    );
    return { text, result };
  };

  it('reads only what is new since its last reply, on the sequence that read the rest', async () => {
    const lyra = [...card('Lyra'), { role: 'user' as const, content: 'Tell me a story.' }];
    const kai = [...card('Kai'), { role: 'user' as const, content: 'Tell me a story.' }];
    const first = await answer(lyra);
    // Nothing held yet: all of it is read.
    expect(first.result.cachedPromptTokens).toBe(0);
    expect(first.result.promptTokens).toBeGreaterThan(100);
    // Another conversation meanwhile takes the other sequence, not Lyra's.
    expect((await answer(kai)).result.cachedPromptTokens).toBe(0);
    const next = await answer([
      ...lyra,
      { role: 'assistant', content: first.text },
      { role: 'user', content: 'And then?' },
    ]);
    expect(next.result.promptTokens).toBeGreaterThan(first.result.promptTokens);
    // The card, the greeting, the first message and reply came from the cache: only the new
    // message (and the template's marks around it) was read.
    expect(next.result.cachedPromptTokens).toBeGreaterThanOrEqual(first.result.promptTokens - 2);
    expect(next.result.promptTokens - next.result.cachedPromptTokens!).toBeLessThan(30);
  });

  it("never reads on from another person's words, nor keeps a generation's with no owner", async () => {
    const turns = [...card('Mira'), { role: 'user' as const, content: 'My secret is 4471.' }];
    expect((await answer(turns, 'dee')).result.cachedPromptTokens).toBe(0);
    // The same prompt from someone else (a guess at Dee's words): nothing of Dee's is taken
    // up, not even the card they share, so the time and the count say nothing of Dee's.
    expect((await answer(turns, 'bo')).result.cachedPromptTokens).toBe(0);
    expect((await answer(turns, 'cy')).result.cachedPromptTokens).toBe(0);
    expect((await answer(turns, 'dee')).result.cachedPromptTokens).toBe(0);
    // Nobody's (a memory's summary, a draft): never kept for anyone, itself included.
    expect((await answer(turns, null)).result.cachedPromptTokens).toBe(0);
    expect((await answer(turns, null)).result.cachedPromptTokens).toBe(0);
  });

  it("keeps a chat's sequence from another chat of the same person while one is empty", async () => {
    const lyra = [...card('Lyra'), { role: 'user' as const, content: 'A story, please.' }];
    // Both sequences made empty by a stranger's generations.
    await Promise.all([answer(lyra, 'stranger'), answer(lyra, 'stranger')]);
    await answer(lyra, null);
    await answer(lyra, null);
    const first = await answer(lyra);
    // A second chat of the same person with the same mate shares the card and greeting: it
    // takes the other sequence, not the first chat's.
    await answer([...card('Lyra'), { role: 'user', content: 'Who are you?' }]);
    const next = await answer([
      ...lyra,
      { role: 'assistant', content: first.text },
      { role: 'user', content: 'And then?' },
    ]);
    expect(next.result.promptTokens - next.result.cachedPromptTokens!).toBeLessThan(30);
  });
});

describe("a prompt's turns as a chat session takes them", () => {
  const system = { role: 'system' as const, content: 'You are Lyra.' };
  const history = [
    { role: 'assistant' as const, content: 'Welcome.' },
    { role: 'user' as const, content: 'Hello!' },
  ];

  it('answers the last turn, after the others', () => {
    expect(sessionTurns([system, ...history])).toEqual({
      history: [system, history[0]],
      prompt: 'Hello!',
    });
  });

  it("ends the text answered with a card's post-history instructions", () => {
    const instructions = { role: 'system' as const, content: 'Stay in character.' };
    expect(sessionTurns([system, ...history, instructions])).toEqual({
      history: [system, history[0]],
      prompt: 'Hello!\n\nStay in character.',
    });
  });
});
