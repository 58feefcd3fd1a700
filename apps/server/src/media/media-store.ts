/**
 * What the store knows of one stored object, enough to serve it: its length, its media type,
 * a validator for caches and its last change.
 */
export interface MediaInfo {
  size: number;
  contentType: string;
  /** A quoted entity tag (`"…"` or `W/"…"`), the same on every server for the same object. */
  etag: string;
  lastModified: Date;
}

/** Bytes `start` to `end` of an object, both included. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where every file the server keeps goes: portraits, drawn pictures and spoken audio. A local
 * folder by default (`DATA_DIR`), any S3-compatible bucket when `S3_BUCKET` is set, so that
 * every server of a deployment reads what any of them wrote.
 *
 * Keys are relative paths such as `media/avatars/<name>.svg`, `pictures/<name>.webp` or
 * `speech/<name>.wav` (see {@link isMediaKey}); `media/…` is what `/media/…` serves to anyone.
 * A store's failures to reach its folder or bucket are {@link StorageUnavailable} errors.
 */
export interface MediaStore {
  /** Where the files are, for the start-up log. */
  describe: () => string;
  /** Writes an object whole (replacing one of the same key); readers never see part of it. */
  put: (key: string, body: Uint8Array | string, contentType: string) => Promise<void>;
  /**
   * Writes the local file `file` as an object, streamed (a file of any size costs no more
   * memory than a small one); readers never see part of it.
   */
  putFile: (key: string, file: string, contentType: string) => Promise<void>;
  /** The object's bytes, or `null` when there is none under `key`. */
  get: (key: string) => Promise<Buffer | null>;
  /** What is known of the object, or `null` when there is none under `key`. */
  stat: (key: string) => Promise<MediaInfo | null>;
  /** The object's bytes (or a range of them) as a stream, or `null` when there is none. */
  read: (key: string, range?: ByteRange) => Promise<ReadableStream<Uint8Array> | null>;
  /** Removes an object; nothing happens when it is already gone. */
  remove: (key: string) => Promise<void>;
  /**
   * Resolves when the store can be reached and written now (the folder takes a file, the
   * bucket answers); throws a {@link StorageUnavailable} saying why otherwise. For readiness.
   */
  check: () => Promise<void>;
}

/**
 * Removes `keys` from `store` after a change already made (a message edited or gone): a key the
 * store cannot remove is logged (`could not remove <what> <key>, left in the store: …`) and the
 * rest go on, since
 * the change stands and only a file is left behind (docs/operations.md).
 */
export async function removeLeftFiles(
  store: Pick<MediaStore, 'remove'>,
  keys: readonly (string | null)[],
  what: string,
  log: { error: (message: string) => void },
): Promise<void> {
  for (const key of keys)
    if (key)
      await store
        .remove(key)
        .catch((error: unknown) =>
          log.error(
            `could not remove ${what} ${key}, left in the store: ${(error as Error).message}`,
          ),
        );
}

/**
 * The store could not be reached or refused (a bucket that is down or denies us, a full or
 * read-only disk): an outside fault, answered with a clear message rather than a crash.
 */
export class StorageUnavailable extends Error {
  override readonly name = 'StorageUnavailable';
}

/** What a caller is told when the store fails (an envelope's message, a 503's body). */
export const STORAGE_UNAVAILABLE =
  'Stored files (portraits, pictures, voice) cannot be reached just now. Please try again in a moment.';

/** Whether `error` or one of its causes is a {@link StorageUnavailable}. */
export function isStorageUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof StorageUnavailable) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

const SEGMENT = '[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}';
const KEY = new RegExp(`^${SEGMENT}(?:/${SEGMENT}){0,3}$`);

/**
 * Whether `key` may name an object: up to four `/`-separated names of letters, digits, `_`,
 * `-` and `.`, none starting with a dot (so no `..`, no hidden files, nothing outside the
 * store's folder).
 */
export function isMediaKey(key: string): boolean {
  return KEY.test(key);
}

/** Throws unless `key` passes {@link isMediaKey}: keys come from the database and from URLs. */
export function checkMediaKey(key: string): string {
  if (!isMediaKey(key)) throw new Error(`not a media key: ${JSON.stringify(key)}`);
  return key;
}

/** The media types of the files we keep, by the ending of their names. */
const TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  webp: 'image/webp',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  opus: 'audio/opus',
  aac: 'audio/aac',
  flac: 'audio/flac',
  webm: 'audio/webm',
};

/** The media type of a key by its ending (`application/octet-stream` for any other). */
export function contentTypeOf(key: string): string {
  const ending = /\.([a-z0-9]+)$/i.exec(key)?.[1]?.toLowerCase();
  return (ending && TYPES[ending]) || 'application/octet-stream';
}
