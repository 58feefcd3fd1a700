import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';

/** File name endings of the audio kept, by media type (anything else is kept as `.bin`). */
const EXTENSIONS: Record<string, string> = {
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/opus': 'opus',
  'audio/aac': 'aac',
  'audio/flac': 'flac',
  'audio/webm': 'webm',
};

const KEY = /^[A-Za-z0-9_-]{20,90}\.(wav|mp3|ogg|opus|aac|flac|webm|bin)$/;

/** A file being written as its audio is made. */
export interface SpeechFileWriter {
  /** Its key once finished. */
  readonly key: string;
  /** Appends bytes. */
  write: (chunk: Uint8Array) => Promise<void>;
  /** Makes the file readable under {@link key}. */
  finish: () => Promise<void>;
  /** Throws away what was written. */
  abort: () => Promise<void>;
}

/**
 * Where spoken audio is kept. One interface so that an object store can take the local folder's
 * place; keys are opaque names the store made (or a caller's stable name, for samples).
 */
export interface SpeechStore {
  /** Starts a new file of media type `mimeType`, under a fresh key or `name` when given. */
  create: (mimeType: string, name?: string) => SpeechFileWriter;
  /** The file's size in bytes, or `null` when there is none under `key`. */
  size: (key: string) => Promise<number | null>;
  /** The bytes from `start` to `end` inclusive, as a stream. */
  read: (key: string, start: number, end: number) => ReadableStream<Uint8Array>;
  /** The whole file (for its length in time), or `null`. */
  get: (key: string) => Promise<Buffer | null>;
  /** Removes a file; nothing happens when it is already gone. */
  remove: (key: string) => Promise<void>;
}

/**
 * Audio as files in `dir` (`$DATA_DIR/speech`, outside the public `media` folder: it is served
 * only through signed links). A file is written under a temporary name and renamed when whole,
 * so a reader never sees half of one.
 */
export function createFolderSpeechStore(dir: string): SpeechStore {
  const fileOf = (key: string) => {
    // Keys come from the database, but a key never reaches outside the folder.
    if (!KEY.test(key)) throw new Error(`not a speech key: ${key}`);
    return path.join(dir, key);
  };
  const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';
  return {
    create(mimeType, name) {
      const base = name ?? randomBytes(18).toString('base64url');
      const key = `${base}.${EXTENSIONS[mimeType.split(';')[0]!.trim()] ?? 'bin'}`;
      const target = fileOf(key);
      const partial = path.join(dir, `.${randomBytes(9).toString('base64url')}.partial`);
      let handle: fsp.FileHandle | null = null;
      const open = async () => {
        if (!handle) {
          await fsp.mkdir(dir, { recursive: true });
          handle = await fsp.open(partial, 'wx');
        }
        return handle;
      };
      return {
        key,
        async write(chunk) {
          await (await open()).write(chunk);
        },
        async finish() {
          await (await open()).close();
          await fsp.rename(partial, target);
        },
        async abort() {
          await handle?.close().catch(() => {});
          await fsp.rm(partial, { force: true });
        },
      };
    },
    async size(key) {
      try {
        return (await fsp.stat(fileOf(key))).size;
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    read(key, start, end) {
      return Readable.toWeb(
        fs.createReadStream(fileOf(key), { start, end }),
      ) as ReadableStream<Uint8Array>;
    },
    async get(key) {
      try {
        return await fsp.readFile(fileOf(key));
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async remove(key) {
      await fsp.rm(fileOf(key), { force: true });
    },
  };
}
