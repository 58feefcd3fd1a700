import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import {
  checkMediaKey,
  contentTypeOf,
  StorageUnavailable,
  type MediaInfo,
  type MediaStore,
} from './media-store';

const missing = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/** A disk fault (full, read-only, no permission) as the store's own error. */
const unavailable = (error: unknown, what: string): never => {
  throw new StorageUnavailable(`the media folder: ${what}: ${(error as Error).message}`, {
    cause: error,
  });
};

/**
 * Files in the folder `root` (`DATA_DIR`): the key is the path below it, so
 * `media/avatars/x.svg` is `$DATA_DIR/media/avatars/x.svg`, where Mates has always kept it.
 * A file is written under a temporary name and renamed when whole, so a reader (another
 * request, another process on the same folder) never sees half of one.
 */
export function createFolderStore(root: string): MediaStore {
  const fileOf = (key: string) => path.join(root, checkMediaKey(key));
  return {
    describe: () => `folder ${root}`,
    async put(key, body, _contentType) {
      const file = fileOf(key);
      const partial = path.join(
        path.dirname(file),
        `.${randomBytes(9).toString('base64url')}.partial`,
      );
      try {
        await fsp.mkdir(path.dirname(file), { recursive: true });
        await fsp.writeFile(partial, body, { flag: 'wx' });
        await fsp.rename(partial, file);
      } catch (error) {
        await fsp.rm(partial, { force: true }).catch(() => {});
        unavailable(error, `writing ${key}`);
      }
    },
    async putFile(key, source, _contentType) {
      const file = fileOf(key);
      const partial = path.join(
        path.dirname(file),
        `.${randomBytes(9).toString('base64url')}.partial`,
      );
      try {
        await fsp.mkdir(path.dirname(file), { recursive: true });
        await fsp.copyFile(source, partial, fs.constants.COPYFILE_EXCL);
        await fsp.rename(partial, file);
      } catch (error) {
        await fsp.rm(partial, { force: true }).catch(() => {});
        unavailable(error, `writing ${key}`);
      }
    },
    async get(key) {
      const file = fileOf(key);
      try {
        return await fsp.readFile(file);
      } catch (error) {
        return missing(error) ? null : unavailable(error, `reading ${key}`);
      }
    },
    async stat(key): Promise<MediaInfo | null> {
      const file = fileOf(key);
      try {
        const stats = await fsp.stat(file);
        if (!stats.isFile()) return null;
        return {
          size: stats.size,
          contentType: contentTypeOf(key),
          // Weak: a copy of the folder elsewhere has the same bytes but other times.
          etag: `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`,
          lastModified: stats.mtime,
        };
      } catch (error) {
        return missing(error) ? null : unavailable(error, `reading ${key}`);
      }
    },
    async read(key, range) {
      const file = fileOf(key);
      let handle: fsp.FileHandle;
      try {
        handle = await fsp.open(file, 'r');
      } catch (error) {
        return missing(error) ? null : unavailable(error, `reading ${key}`);
      }
      // The stream closes the handle when it ends or is cancelled.
      const stream = handle.createReadStream(range ? { start: range.start, end: range.end } : {});
      return Readable.toWeb(stream) as ReadableStream<Uint8Array>;
    },
    async remove(key) {
      const file = fileOf(key);
      try {
        await fsp.rm(file, { force: true });
      } catch (error) {
        unavailable(error, `removing ${key}`);
      }
    },
    async check() {
      // A file written and removed: a folder that is gone, read-only or full says so here.
      const probe = path.join(root, `.${randomBytes(9).toString('base64url')}.probe`);
      try {
        await fsp.mkdir(root, { recursive: true });
        await fsp.writeFile(probe, 'ok', { flag: 'wx' });
      } catch (error) {
        unavailable(error, 'writing a probe file');
      } finally {
        await fsp.rm(probe, { force: true }).catch(() => {});
      }
    },
  };
}
