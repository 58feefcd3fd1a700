import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { createEmbeddedSpeech } from './embedded-speech';
import { SpeechProviderError } from './speech-engine';
import { captureLog } from '../../test/log-capture';

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
  it('keeps the event loop free while four syntheses run in worker processes', async () => {
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

/** The processes this test process started that run the speech worker. */
function speechProcesses(): number[] {
  const listed = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], {
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((line) => line.includes('speech-worker'))
    .map((line) => Number.parseInt(line.trim(), 10));
}

describe('a fault inside the embedded engine', () => {
  it('ends only its worker process: tried once more in a fresh one, then failed', async () => {
    // One process at a time, so the one killed is the one speaking.
    const lines: string[] = [];
    const single = createEmbeddedSpeech({ threads: 1, log: captureLog('debug', lines).logger });
    const say = async (text: string) => {
      const audio = await single.synthesize(
        { text, voice: 'embedded-rms' },
        { signal: new AbortController().signal },
      );
      const chunks: Uint8Array[] = [];
      for await (const chunk of audio.chunks) chunks.push(chunk);
      return Buffer.concat(chunks);
    };
    const others = speechProcesses();
    const own = () => speechProcesses().filter((pid) => !others.includes(pid));
    await say('Warming up.');
    const [first] = own();
    expect(first).toBeDefined();
    /** Kills the process speaking (as a native crash in node:wasi would), once one is. */
    const crash = async (not: number[]) => {
      await expect.poll(() => own().filter((pid) => !not.includes(pid))).toHaveLength(1);
      const [pid] = own().filter((candidate) => !not.includes(candidate));
      process.kill(pid!, 'SIGKILL');
      return pid!;
    };

    // One death: the synthesis is made again in a fresh process, and it is real audio.
    const survived = say(LONG);
    await crash([]);
    expect((await survived).subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(lines).toEqual([expect.stringMatching(/a worker process died .*trying again/)]);

    // Two deaths in a row: the synthesis fails as the engine's, and the server goes on.
    const failing = say(LONG.repeat(2));
    const second = await crash([]);
    await crash([second]);
    await expect(failing).rejects.toMatchObject({ name: 'SpeechProviderError', failure: 'failed' });
    expect((await say('Still here.')).subarray(0, 4).toString('latin1')).toBe('RIFF');
    await single.close();
  });
});
