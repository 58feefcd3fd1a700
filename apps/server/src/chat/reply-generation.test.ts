import { describe, expect, it } from 'vitest';
import type { LanguageModel } from '../llm/language-model';
import { startGeneration } from './reply-generation';

/** A model that writes `pieces`, one at a time, as far as its signal lets it; `asked` what it was told. */
function writing(
  pieces: string[],
  asked: { stop?: string[]; written?: number } = {},
): LanguageModel {
  return {
    contextSize: 4096,
    countTokens: (text) => text.length,
    unavailableReason: () => null,
    describe: () => 'pieces',
    close: async () => {},
    async generate(_turns, options, onText) {
      asked.stop = options.stop;
      asked.written = 0;
      for (const piece of pieces) {
        await Promise.resolve();
        if (options.signal.aborted) break;
        onText(piece);
        asked.written++;
      }
      return { finishReason: 'stop', promptTokens: 1, completionTokens: pieces.length };
    },
  };
}

async function read(
  pieces: string[],
  speaker?: string,
  stop?: string[],
  asked: Parameters<typeof writing>[1] = {},
): Promise<string> {
  const generation = startGeneration(writing(pieces, asked), [{ role: 'user', content: 'Hi' }], {
    maxTokens: 100,
    signal: new AbortController().signal,
    ...(speaker !== undefined && { speaker }),
    ...(stop !== undefined && { stop }),
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

describe('a reply that writes one of its stop sequences (a model that does not stop there itself)', () => {
  const stop = ['\nAda:', '\nBo:'];

  it('ends before it, however it arrives, and the model is stopped', async () => {
    const asked: Parameters<typeof writing>[1] = {};
    const pieces = ['Fine, thanks.', '\nA', 'da', ': And you?', '\nKai: Great.'];
    expect(await read(pieces, undefined, stop, asked)).toBe('Fine, thanks.');
    // Asked of the model too, and stopped once written: its last piece was never asked for.
    expect(asked.stop).toEqual(stop);
    expect(asked.written).toBe(4);
    expect(await read(['Hi.\nBo: hey\nAda: yo'], undefined, stop)).toBe('Hi.');
  });

  it('keeps what only begins like one, and what is held when the reply ends', async () => {
    expect(await read(['One.', '\nAd', 'am came in.'], undefined, stop)).toBe(
      'One.\nAdam came in.',
    );
    expect(await read(['Two.\n', '\nBob: no'], undefined, stop)).toBe('Two.\n\nBob: no');
    expect(await read(['Three.', '\nAd'], undefined, stop)).toBe('Three.\nAd');
  });

  it("works with the speaker's name taken off the opening", async () => {
    expect(await read(['Lyra: Hello.', '\nAda: hi'], 'Lyra', stop)).toBe('Hello.');
  });
});
