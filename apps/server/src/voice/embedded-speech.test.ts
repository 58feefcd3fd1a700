import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseBuffer } from 'music-metadata';
import { createEmbeddedSpeech, sweepSpeechFolders } from './embedded-speech';
import { ProviderError } from '../domain/provider-error';
import { captureLog } from '../../test/log-capture';

/** The data folder's temporary folders of the engines of this file. */
const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-embedded-test-'));
const engine = createEmbeddedSpeech({ threads: 2, tempDir });
afterAll(async () => {
  await engine.close();
  fs.rmSync(tempDir, { recursive: true, force: true });
});

/** Every file under `dir`, as paths relative to it. */
const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .flatMap((entry) =>
      entry.isFile() ? [path.relative(dir, path.join(entry.parentPath, entry.name))] : [],
    );

/** The length in seconds of an MP3 stream (every frame counted). */
async function secondsOf(mp3: Uint8Array): Promise<number> {
  const { format } = await parseBuffer(
    mp3,
    { mimeType: 'audio/mpeg', size: mp3.length },
    { duration: true },
  );
  return format.duration ?? 0;
}

/** The first bytes of an MP3 frame: the 11-bit sync word. */
const isMp3 = (bytes: Uint8Array) => bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0;

const LONG = 'The night market opened at dusk, and the lanterns swayed over the stalls. '.repeat(4);
/** One piece (within its bounds), long to speak: the worker is still at it when it is killed. */
const ONE_PIECE =
  'In 1987, 2345 lanterns cost 678.90 dollars, 1234.56 euros, 7890 pounds and 3456 yen at 11:45';

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
    await expect(bytesOf('Hi', 'embedded-nobody')).rejects.toBeInstanceOf(ProviderError);
  });

  it('passes text as it is, shell characters included', async () => {
    const mp3 = await bytesOf('Tea; rm -rf / && echo "$HOME" `id` -o /etc/passwd -voice kal');
    expect(isMp3(mp3)).toBe(true);
  });
});

describe('what the embedded engine reads (issue 36)', () => {
  it('speaks number-heavy replies whole: its worker died with a V8 fatal error on them', async () => {
    // 120 numbers with no full stop (489 characters): one utterance for Flite, which grew its
    // memory until node:wasi crashed the process (SIGSEGV); 400 of them died with a V8 fatal
    // error in the worker's speak. The same for a reply listing prices.
    const numbers = Array.from({ length: 120 }, (_, i) => `t${i}`).join(' ');
    const prices = Array.from(
      { length: 24 },
      (_, i) => `item ${i + 12} costs ${(41.25 + i * 3.5).toFixed(2)} dollars`,
    ).join(', ');
    for (const text of [numbers, prices]) {
      const mp3 = await bytesOf(text);
      expect(isMp3(mp3)).toBe(true);
      // Every number read: at least a quarter of a second each.
      expect(await secondsOf(mp3)).toBeGreaterThan(text.split(' ').length / 4);
    }
  }, 180_000);

  it('reads dates, prices, accents, emoji and other scripts, or skips them, never failing', async () => {
    const text =
      'On 2026-11-28 at 14:05 the café in Besançon sold crêpes for €4.50 🥞, naïve señor! ' +
      'Straße, œuvre, 日本語, Ελληνικά, русский 🙂. 1234567890123456789012345678901234567890.';
    const mp3 = await bytesOf(text);
    expect(isMp3(mp3)).toBe(true);
    expect(await secondsOf(mp3)).toBeGreaterThan(5);
  });

  it('answers a text with nothing it can read as rejected, not as a crash', async () => {
    await expect(bytesOf('🙂🥞 日本語')).rejects.toMatchObject({
      name: 'ProviderError',
      provider: 'speech',
      failure: 'rejected',
    });
  });

  it('answers a long reply piece by piece, each one playable MP3 on its own', async () => {
    const sentences = [
      'The ferry waited at the pier.',
      'Fog rolled over the hills, and the gulls went quiet.',
      'By noon the harbour was a grey page again.',
    ];
    const audio = await engine.synthesize(
      { text: sentences.join(' '), voice: 'embedded-awb' },
      { signal: new AbortController().signal },
    );
    expect(audio.mimeType).toBe('audio/mpeg');
    const pieces: Uint8Array[] = [];
    for await (const chunk of audio.chunks) pieces.push(chunk);
    // One piece a sentence: the first is heard while the others are made.
    expect(pieces).toHaveLength(3);
    for (const piece of pieces) {
      expect(isMp3(piece)).toBe(true);
      expect(await secondsOf(piece)).toBeGreaterThan(1);
    }
    const whole = await secondsOf(Buffer.concat(pieces));
    expect(whole).toBeCloseTo(
      (await Promise.all(pieces.map(secondsOf))).reduce((a, b) => a + b),
      1,
    );
  });

  it('removes the folders a killed server left, not those of a server at work', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-embedded-sweep-'));
    const left = path.join(root, `${deadPid()}-killed`);
    const working = path.join(root, '4343-working');
    for (const dir of [left, working]) fs.mkdirSync(path.join(dir, 'piece-1'), { recursive: true });
    fs.writeFileSync(path.join(left, 'piece-1', 'speech.wav'), 'RIFF');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(left, twoHoursAgo, twoHoursAgo);
    const another = createEmbeddedSpeech({ threads: 1, tempDir: root });
    try {
      await expect.poll(() => fs.existsSync(left)).toBe(false);
      expect(fs.existsSync(working)).toBe(true);
    } finally {
      await another.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('keeps the folder of a server that is running, however long it stood idle', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-embedded-sweep-'));
    // The parent of this test process: running, and not this process.
    const idle = path.join(root, `${process.ppid}-idle`);
    const dead = path.join(root, `${deadPid()}-dead`);
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    for (const dir of [idle, dead]) {
      fs.mkdirSync(dir);
      fs.utimesSync(dir, twoHoursAgo, twoHoursAgo);
    }
    try {
      await sweepSpeechFolders(root, path.join(root, `${process.pid}-own`));
      expect(fs.existsSync(idle)).toBe(true);
      expect(fs.existsSync(dead)).toBe(false);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('speaks again after its idle folder was swept away', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-embedded-swept-'));
    const first = createEmbeddedSpeech({ threads: 1, tempDir: root });
    const [own] = fs.readdirSync(root);
    // Idle for two hours, then a server started in a container where the first one had the
    // same pid (often 1) sweeps it as a dead server's.
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(path.join(root, own!), twoHoursAgo, twoHoursAgo);
    const second = createEmbeddedSpeech({ threads: 1, tempDir: root });
    try {
      await expect.poll(() => fs.existsSync(path.join(root, own!))).toBe(false);
      const audio = await first.synthesize(
        { text: 'Still here.', voice: 'embedded-slt' },
        { signal: new AbortController().signal },
      );
      const chunks: Uint8Array[] = [];
      for await (const chunk of audio.chunks) chunks.push(chunk);
      expect(isMp3(Buffer.concat(chunks))).toBe(true);
    } finally {
      await first.close();
      await second.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('leaves nothing on disk: the text is never written, its folders are removed', async () => {
    await bytesOf('My secret is the blue door on Mill Lane.');
    expect(filesUnder(tempDir)).toEqual([]);
  });
});

/** The id of a process that ran and ended: nothing runs under it now. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

/**
 * The processes this test process started that run the speech worker of an engine whose folder
 * is under `folder` (its workers carry the folder in their command line): not those of another
 * engine, or of a server a test file before this one left running in the same process.
 */
function speechProcesses(folder: string): number[] {
  const listed = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], {
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((line) => line.includes('speech-worker') && line.includes(folder))
    .map((line) => Number.parseInt(line.trim(), 10));
}

describe('a fault inside the embedded engine', () => {
  it('ends only its worker process: tried once more in a fresh one, then failed', async () => {
    // One process at a time, so the one killed is the one speaking.
    const lines: string[] = [];
    const singleDir = path.join(tempDir, 'single');
    const single = createEmbeddedSpeech({
      threads: 1,
      tempDir: singleDir,
      log: captureLog('debug', lines).logger,
    });
    const say = async (text: string) => {
      const audio = await single.synthesize(
        { text, voice: 'embedded-rms' },
        { signal: new AbortController().signal },
      );
      const chunks: Uint8Array[] = [];
      for await (const chunk of audio.chunks) chunks.push(chunk);
      return Buffer.concat(chunks);
    };
    const own = () => speechProcesses(singleDir);
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

    // One death: the synthesis is made again in a fresh process, and it is real audio. A kill
    // that lands before the task reached the process (a loaded machine) is no death of this
    // synthesis (it goes to the next process, unlogged): then it is tried again, a few times.
    const killed: number[] = [];
    for (let round = 0; round < 5 && lines.length === 0; round += 1) {
      const survived = say(ONE_PIECE);
      killed.push(await crash(killed));
      expect(isMp3(await survived)).toBe(true);
    }
    expect(lines).toEqual([expect.stringMatching(/a worker process died .*trying again/)]);

    // Its process killed again and again: the synthesis fails as the engine's after a bounded
    // number of tries (a second death; a task sent to a process that was just killed is tried
    // again without counting, a few times), and the server goes on.
    const failing = say(ONE_PIECE);
    let settled = false;
    failing.then(
      () => (settled = true),
      () => (settled = true),
    );
    const deaths = killed.length;
    await expect
      .poll(
        () => {
          for (const pid of own().filter((candidate) => !killed.includes(candidate))) {
            if (settled) break;
            killed.push(pid);
            try {
              process.kill(pid, 'SIGKILL');
            } catch {
              // Gone already.
            }
          }
          return settled;
        },
        { timeout: 60_000, interval: 5 },
      )
      .toBe(true);
    await expect(failing).rejects.toMatchObject({
      name: 'ProviderError',
      provider: 'speech',
      failure: 'failed',
    });
    expect(killed.length - deaths).toBeLessThanOrEqual(5);
    expect(isMp3(await say('Still here.'))).toBe(true);
    // Whatever the dead workers were writing, the parent removed it.
    expect(filesUnder(singleDir)).toEqual([]);
    await single.close();
  }, 120_000);
});
