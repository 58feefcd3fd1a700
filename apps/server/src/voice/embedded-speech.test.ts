import { afterAll, describe, expect, it } from 'vitest';
import { createEmbeddedSpeech } from './embedded-speech';
import { SpeechProviderError } from './speech-engine';

const engine = createEmbeddedSpeech({ threads: 2 });
afterAll(() => engine.close());

const LONG = 'The night market opened at dusk, and the lanterns swayed over the stalls. '.repeat(4);

async function bytesOf(text: string, voice = 'embedded-slt'): Promise<Buffer> {
  const audio = await engine.synthesize({ text, voice }, { signal: new AbortController().signal });
  const chunks: Uint8Array[] = [];
  for await (const chunk of audio.chunks) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe('the embedded speech engine', () => {
  it('keeps the event loop free while four syntheses run in worker threads', async () => {
    const order: string[] = [];
    const runs = Array.from({ length: 4 }, () =>
      bytesOf(LONG).then(() => void order.push('spoken')),
    );
    // A timer set after the four started runs before any of them is done: none holds the loop.
    await new Promise((resolve) => setTimeout(resolve, 0));
    order.push('timer');
    await Promise.all(runs);
    expect(order).toEqual(['timer', 'spoken', 'spoken', 'spoken', 'spoken']);
  });

  it('varies a voice by its settings: the brighter Sally is not Sally', async () => {
    const text = 'Good morning.';
    expect(await bytesOf(text, 'embedded-slt-bright')).not.toEqual(await bytesOf(text));
  });

  it('refuses a voice it does not have', async () => {
    await expect(bytesOf('Hi', 'embedded-nobody')).rejects.toBeInstanceOf(SpeechProviderError);
  });

  it('passes text as it is, shell characters included', async () => {
    const wav = await bytesOf('Tea; rm -rf / && echo "$HOME" `id` -o /etc/passwd');
    expect(wav.subarray(0, 4).toString()).toBe('RIFF');
  });
});
