import { describe, expect, it } from 'vitest';
import type { LanguageModel } from '../llm/language-model';
import { startGeneration } from './reply-generation';

/** A model that writes `pieces`, one at a time. */
function writing(pieces: string[]): LanguageModel {
  return {
    contextSize: 4096,
    countTokens: (text) => text.length,
    unavailableReason: () => null,
    describe: () => 'pieces',
    close: async () => {},
    async generate(_turns, _options, onText) {
      for (const piece of pieces) {
        await Promise.resolve();
        onText(piece);
      }
      return { finishReason: 'stop', promptTokens: 1, completionTokens: pieces.length };
    },
  };
}

async function read(pieces: string[], speaker?: string): Promise<string> {
  const generation = startGeneration(writing(pieces), [{ role: 'user', content: 'Hi' }], {
    maxTokens: 100,
    signal: new AbortController().signal,
    ...(speaker !== undefined && { speaker }),
  });
  let text = '';
  generation.read((piece) => (text += piece));
  await generation.settled;
  return text;
}

describe("a reply that starts with its speaker's name", () => {
  it('is read without it, however the name arrives', async () => {
    expect(await read(['Lyra: Hello', ' there.'], 'Lyra')).toBe('Hello there.');
    expect(await read(['Ly', 'ra', ':', ' ', 'Hello.'], 'Lyra')).toBe('Hello.');
    expect(await read(['\n', 'Lyra:', '\n*waves*'], 'Lyra')).toBe('\n*waves*');
  });

  it('keeps a start that only looks like the name, and a reply shorter than it', async () => {
    expect(await read(['Ly', 'rics are hard.'], 'Lyra')).toBe('Lyrics are hard.');
    expect(await read(['Lyra says hi.'], 'Lyra')).toBe('Lyra says hi.');
    expect(await read(['Ly'], 'Lyra')).toBe('Ly');
    expect(await read(['Hello, Lyra: here.'], 'Lyra')).toBe('Hello, Lyra: here.');
  });

  it('is read as written without a speaker', async () => {
    expect(await read(['Lyra: Hello'])).toBe('Lyra: Hello');
  });
});
