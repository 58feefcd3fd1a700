// Idle memory: the resident set (VmRSS) of the built server (`dist/main.js`, as `pnpm start` runs
// it) 30 s after it starts, on SQLite: with a hosted model (the server holds no model) and with
// the embedded model (the tiny test GGUF, which the server loads as it starts). Each start uses a data folder seeded by an
// earlier start, as a server's every start but its first. Median of BENCH_IDLE_RUNS (3) starts.
// Linux only (it reads /proc). Prints a table and saves bench/results/idle-memory.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { saveResults, type ResultRow } from './results';

const SERVER = path.resolve(import.meta.dirname, '../dist/main.js');
const GGUF = path.resolve(import.meta.dirname, '../../../fixtures/models/stories260K.gguf');
const RUNS = Number(process.env.BENCH_IDLE_RUNS ?? 3);
const SETTLE_MS = 30_000;

const SETUPS: Record<string, Record<string, string>> = {
  'hosted model': {
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: 'http://127.0.0.1:9/v1',
    LLM_API_KEY: 'sk-bench',
  },
  'embedded tiny GGUF, loaded': { LLM_MODEL: GGUF },
};

/** VmRSS of `pid` in MiB. */
function residentMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** Starts the server on `dataDir`; after `settleMs`, its VmRSS; then stops it. */
async function idleResident(
  env: Record<string, string>,
  dataDir: string,
  settleMs: number,
): Promise<number> {
  const child = spawn(process.execPath, [SERVER], {
    env: { ...process.env, ...env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await sleep(settleMs);
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
    return residentMiB(child.pid!);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

if (!fs.existsSync(SERVER)) throw new Error(`${SERVER} is missing: run pnpm build first`);
const rows: ResultRow[] = [];
for (const [setup, env] of Object.entries(SETUPS)) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-idle-'));
  try {
    await idleResident(env, dataDir, 5_000); // the first start seeds the catalog
    const samples: number[] = [];
    for (let run = 0; run < RUNS; run += 1)
      samples.push(await idleResident(env, dataDir, SETTLE_MS));
    rows.push({
      setup,
      'VmRSS median MiB': Math.round(median(samples) * 10) / 10,
      'min MiB': Math.round(Math.min(...samples) * 10) / 10,
      'max MiB': Math.round(Math.max(...samples) * 10) / 10,
    });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
console.log(
  `\nIdle memory, ${SETTLE_MS / 1000} s after start (${RUNS} starts; load ${os.loadavg()[0]!.toFixed(1)})`,
);
console.table(rows);
saveResults('idle-memory', rows);
