import { randomBytes } from 'node:crypto';
import type { MediaStore } from '../media/media-store';
import { serveStored } from '../media/serve-stored';

/** File name endings of the audio kept, by media type (anything else is kept as `.bin`). */
export const SPEECH_FILE_ENDINGS: Readonly<Record<string, string>> = {
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
  /** Stores the file whole under {@link key}. */
  finish: () => Promise<void>;
  /** Throws away what was written. */
  abort: () => Promise<void>;
}

/**
 * Where spoken audio is kept: `speech/<key>` in the media store (`$DATA_DIR/speech`, or the
 * bucket), outside the public `media/` part: it is served only through signed links. Keys are
 * opaque names the store made (or a caller's stable name, for samples).
 */
export interface SpeechStore {
  /** Starts a new file of media type `mimeType`, under a fresh key or `name` when given. */
  create: (mimeType: string, name?: string) => SpeechFileWriter;
  /** The whole file (for its length in time), or `null`. */
  get: (key: string) => Promise<Buffer | null>;
  /** Answers `request` with the file as `mimeType`, one `Range` honoured (404 when none). */
  serve: (key: string, mimeType: string, request: Request) => Promise<Response>;
  /** Removes a file; nothing happens when it is already gone. */
  remove: (key: string) => Promise<void>;
}

/**
 * The audio of the media store `media`. A clip is a few seconds to a minute of audio: it is
 * gathered as it is made and stored whole when finished, so no reader, on any server, sees
 * half of one.
 */
export function createSpeechStore(media: MediaStore): SpeechStore {
  const keyOf = (key: string) => {
    // Keys come from the database, but a key never reaches outside `speech/`.
    if (!KEY.test(key)) throw new Error(`not a speech key: ${key}`);
    return `speech/${key}`;
  };
  return {
    create(mimeType, name) {
      const type = mimeType.split(';')[0]!.trim();
      const base = name ?? randomBytes(18).toString('base64url');
      const key = `${base}.${SPEECH_FILE_ENDINGS[type] ?? 'bin'}`;
      keyOf(key);
      let parts: Uint8Array[] = [];
      return {
        key,
        async write(chunk) {
          parts.push(chunk);
        },
        async finish() {
          await media.put(keyOf(key), Buffer.concat(parts), type);
          parts = [];
        },
        async abort() {
          parts = [];
        },
      };
    },
    get: (key) => media.get(keyOf(key)),
    serve: (key, mimeType, request) =>
      serveStored(media, keyOf(key), request, {
        contentType: mimeType,
        cacheControl: 'private, max-age=3600',
      }),
    remove: (key) => media.remove(keyOf(key)),
  };
}
