import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';

/** What an entry's bytes come from, asked for only when the zip gets to the entry. */
export type EntrySource =
  | { kind: 'bytes'; make: () => Promise<Buffer | string> }
  | { kind: 'stream'; open: () => Promise<Readable | null> }
  | { kind: 'lines'; lines: () => AsyncIterable<string> };

/** One file of the zip. */
export interface ZipEntry {
  /** Its path inside the zip (`chats/…`). */
  name: string;
  source: EntrySource;
  /** Already compressed (pictures, audio): stored as they are. */
  stored?: boolean;
}

/**
 * Writes `entries` into a zip at `file` with yazl, one entry at a time: each entry's bytes are
 * made (or its stream opened) only when the zip gets to it, and the zip goes to the file
 * through a pipe that waits for the disk, so memory holds one entry at a time, whatever the
 * account's size. An entry whose stream is `null` (a file gone missing) is left out.
 * `onEntry` is told after each entry; `signal` stops it (the file is then incomplete).
 */
export async function writeZip(
  file: string,
  entries: AsyncIterable<ZipEntry>,
  options: { signal: AbortSignal; onEntry: () => void },
): Promise<void> {
  const zip = new ZipFile();
  const output = fs.createWriteStream(file);
  let failure: unknown = null;
  zip.on('error', (error: unknown) => (failure ??= error));
  const written = pipeline(zip.outputStream as Readable, output, { signal: options.signal });
  // Entries are added as the zip reaches them: each `open` waits for the one before to end.
  let previous: Promise<void> = Promise.resolve();
  for await (const entry of entries) {
    if (options.signal.aborted) break;
    const done = previous;
    let finished!: () => void;
    previous = new Promise<void>((resolve) => (finished = resolve));
    await done;
    if (failure) break;
    const stream = await openEntry(entry.source).catch((error: unknown) => {
      failure ??= error;
      return null;
    });
    if (failure) break;
    if (!stream) {
      finished();
      continue;
    }
    stream.once('end', () => {
      options.onEntry();
      finished();
    });
    stream.once('error', (error) => {
      failure ??= error;
      finished();
    });
    zip.addReadStream(stream, entry.name, { compress: !entry.stored, mtime: new Date() });
  }
  await previous;
  if (failure || options.signal.aborted) {
    (zip.outputStream as Readable).destroy(
      failure instanceof Error ? failure : (options.signal.reason as Error),
    );
    await written.catch(() => {});
    throw failure ?? options.signal.reason;
  }
  zip.end();
  await written;
}

async function openEntry(source: EntrySource): Promise<Readable | null> {
  if (source.kind === 'bytes') {
    const bytes = await source.make();
    return Readable.from([typeof bytes === 'string' ? Buffer.from(bytes) : bytes]);
  }
  if (source.kind === 'lines') return Readable.from(asBuffers(source.lines()));
  return source.open();
}

async function* asBuffers(lines: AsyncIterable<string>): AsyncIterable<Buffer> {
  for await (const line of lines) yield Buffer.from(line);
}
