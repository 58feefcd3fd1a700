import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Where drawn pictures are kept. One interface so that an object store (S3) can take the
 * local folder's place; keys are opaque names the store made.
 */
export interface PictureStore {
  /** Stores a WebP picture; answers its key. */
  put: (data: Buffer) => Promise<string>;
  /** The picture's bytes, or `null` when there is none under `key`. */
  get: (key: string) => Promise<Buffer | null>;
  /** Removes a picture; nothing happens when it is already gone. */
  remove: (key: string) => Promise<void>;
}

const KEY = /^[A-Za-z0-9_-]{20,64}\.webp$/;

/**
 * Pictures as files in `dir` (`$DATA_DIR/pictures`, outside the public `media` folder: they
 * are served only through signed links to the room's owner).
 */
export function createFolderPictureStore(dir: string): PictureStore {
  const fileOf = (key: string) => {
    // Keys come from the database, but a key never reaches outside the folder.
    if (!KEY.test(key)) throw new Error(`not a picture key: ${key}`);
    return path.join(dir, key);
  };
  return {
    async put(data) {
      await fs.mkdir(dir, { recursive: true });
      const key = `${randomBytes(18).toString('base64url')}.webp`;
      await fs.writeFile(fileOf(key), data, { flag: 'wx' });
      return key;
    },
    async get(key) {
      try {
        return await fs.readFile(fileOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async remove(key) {
      await fs.rm(fileOf(key), { force: true });
    },
  };
}
