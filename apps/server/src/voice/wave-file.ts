import { createRequire } from 'node:module';
import type wavefile from 'wavefile';

/** A WAV file as the wavefile library reads it. */
export type WaveFile = InstanceType<typeof wavefile.WaveFile>;

/**
 * `bytes` read as a WAV file by wavefile (it throws on what is not one). The library is
 * required at the first recording, not at start (a server nobody talks to never loads it), and
 * through `require`: it is CommonJS, whose exports Node's ESM loader cannot name.
 */
export function readWaveFile(bytes: Uint8Array): WaveFile {
  const { WaveFile } = createRequire(import.meta.url)('wavefile') as typeof wavefile;
  return new WaveFile(bytes);
}
