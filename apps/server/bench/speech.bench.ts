// The embedded speech engine (Flite in a worker process, MP3 by LAME in the same process) on
// prose and on number-heavy text: seconds of audio made per second of CPU (the server's and the
// worker's together), the wait for the first piece, and the size against 16 kHz WAV. One worker
// process, so that its CPU is one core's. Saves bench/results/speech.json.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseBuffer } from 'music-metadata';
import { createEmbeddedSpeech } from '../src/voice/embedded-speech';
import { fliteText } from '../src/voice/flite-text';
import { speechPieces } from '../src/voice/speech-pieces';
import { createLogger } from '../src/logging/logger';
import { saveResults, type ResultRow } from './results';

/** About 1,500 characters of each kind: what a long reply is. */
const TEXTS: Record<string, string> = {
  prose: (
    'The night market opened at dusk, and the lanterns swayed over the stalls. An old woman ' +
    'sold pears from a basket, and a boy played a fiddle badly but with great joy. '
  )
    .repeat(10)
    .slice(0, 1500),
  'number-heavy': Array.from(
    { length: 60 },
    (_, i) =>
      `item ${i + 12} costs ${(41.25 + i * 3.5).toFixed(2)} dollars on 2026-11-${(i % 28) + 1}`,
  )
    .join(', ')
    .slice(0, 1500),
};
const ROUNDS = 3;

/** CPU seconds so far of each of this process's children running the speech worker (Linux). */
function workerCpuSeconds(): Map<number, number> {
  const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  const listed = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], {
    encoding: 'utf8',
  });
  const seconds = new Map<number, number>();
  for (const line of listed.split('\n').filter((one) => one.includes('speech-worker'))) {
    const pid = Number.parseInt(line.trim(), 10);
    // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    seconds.set(pid, (Number(fields[11]) + Number(fields[12])) / ticks);
  }
  return seconds;
}

/** The workers' CPU seconds since `before` (a worker that died meanwhile is not counted). */
function workerCpuSince(before: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of workerCpuSeconds()) total += seconds - (before.get(pid) ?? 0);
  return total;
}

const ownCpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/**
 * The longest messages (8,000 characters) of the kinds that made the text's preparation, on the
 * event loop, quadratic: a currency amount looked for from every digit of `1,1,1,…` (357 ms
 * before the fix, 2 ms after), a sentence split whole for each of its pieces (`a a a …`: 88 ms
 * before, 6 ms after; 2 cores).
 */
const HARD_TEXTS: Record<string, string> = {
  "'1,' × 4,000": '1,'.repeat(4000),
  "'1,' × 4,000 and €": `${'1,'.repeat(4000)}€`,
  "'1, ' × 2,667": '1, '.repeat(2667),
  "'a ' × 4,000": 'a '.repeat(4000),
};
const preparation: ResultRow[] = [];
for (const [kind, text] of Object.entries(HARD_TEXTS)) {
  const times = Array.from({ length: 5 }, () => {
    const start = performance.now();
    speechPieces(fliteText(text));
    return performance.now() - start;
  }).sort((a, b) => a - b);
  preparation.push({ text: kind, characters: text.length, 'ms p50': Number(times[2]!.toFixed(1)) });
}
console.log('Preparing a text for Flite (fliteText, then speechPieces), on the event loop:');
console.table(preparation);

const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-speech-bench-'));
const engine = createEmbeddedSpeech({
  threads: 1,
  tempDir,
  log: createLogger({ level: 'warn', format: 'json' }),
});

async function speak(text: string) {
  const start = performance.now();
  const audio = await engine.synthesize(
    { text, voice: 'embedded-slt' },
    { signal: new AbortController().signal },
  );
  let first = NaN;
  const parts: Uint8Array[] = [];
  for await (const chunk of audio.chunks) {
    if (parts.length === 0) first = performance.now() - start;
    parts.push(chunk);
  }
  const mp3 = Buffer.concat(parts);
  const { format } = await parseBuffer(mp3, { mimeType: 'audio/mpeg', size: mp3.length });
  return { first, seconds: format.duration ?? 0, bytes: mp3.length };
}

await speak('Warming up.'); // The worker process starts and compiles Flite and LAME once.
const rows: ResultRow[] = [];
for (const [kind, text] of Object.entries(TEXTS)) {
  let audioSeconds = 0;
  let bytes = 0;
  const firsts: number[] = [];
  const ownBefore = ownCpuSeconds();
  const workersBefore = workerCpuSeconds();
  const wallBefore = performance.now();
  for (let round = 0; round < ROUNDS; round += 1) {
    const heard = await speak(text);
    audioSeconds += heard.seconds;
    bytes += heard.bytes;
    firsts.push(heard.first);
  }
  const cpu = ownCpuSeconds() - ownBefore + workerCpuSince(workersBefore);
  const wall = (performance.now() - wallBefore) / 1000;
  rows.push({
    text: kind,
    characters: text.length,
    'audio s': Number((audioSeconds / ROUNDS).toFixed(1)),
    'audio s per CPU s': Number((audioSeconds / cpu).toFixed(1)),
    'audio s per wall s': Number((audioSeconds / wall).toFixed(1)),
    'first piece ms p50': Math.round(firsts.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!),
    'MP3 KB': Math.round(bytes / ROUNDS / 1024),
    'WAV KB (16 kHz)': Math.round(((audioSeconds / ROUNDS) * 32_000) / 1024),
  });
}

console.log(
  `Embedded speech (Flite, one worker process, MP3 32 kb/s) on ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}: ${ROUNDS} rounds of each text.`,
);
console.table(rows);
saveResults('speech', [...preparation, ...rows]);
await engine.close();
fs.rmSync(tempDir, { recursive: true, force: true });
