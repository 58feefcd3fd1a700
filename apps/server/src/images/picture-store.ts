import { randomBytes } from 'node:crypto';
import type { MediaStore } from '../media/media-store';
import { serveStored, type ServeOptions } from '../media/serve-stored';

/**
 * Where drawn pictures are kept: `pictures/<key>` in the media store (`$DATA_DIR/pictures`, or
 * the bucket), outside the public `media/` part: they are served only through signed links to
 * the room's owner, or shared links. Keys are opaque names the store made.
 */
export interface PictureStore {
  /** Stores a WebP picture; answers its key. */
  put: (data: Buffer) => Promise<string>;
  /** The picture's bytes, or `null` when there is none under `key`. */
  get: (key: string) => Promise<Buffer | null>;
  /** Answers `request` with the picture (404 when there is none), from any server. */
  serve: (key: string, request: Request, options: ServeOptions) => Promise<Response>;
  /** Removes a picture; nothing happens when it is already gone. */
  remove: (key: string) => Promise<void>;
}

const KEY = /^[A-Za-z0-9_-]{20,64}\.webp$/;

/** The pictures of the media store `media`. */
export function createPictureStore(media: MediaStore): PictureStore {
  const keyOf = (key: string) => {
    // Keys come from the database, but a key never reaches outside `pictures/`.
    if (!KEY.test(key)) throw new Error(`not a picture key: ${key}`);
    return `pictures/${key}`;
  };
  return {
    async put(data) {
      const key = `${randomBytes(18).toString('base64url')}.webp`;
      await media.put(keyOf(key), data, 'image/webp');
      return key;
    },
    get: (key) => media.get(keyOf(key)),
    serve: (key, request, options) => serveStored(media, keyOf(key), request, options),
    remove: (key) => media.remove(keyOf(key)),
  };
}
