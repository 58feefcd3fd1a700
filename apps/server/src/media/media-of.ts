import type { Config } from '../config';
import type { S3Config } from '../config';
import type { MediaStore } from './media-store';
import { describeBucket } from './describe-bucket';
import { createFolderStore } from './folder-store';

const made = new WeakMap<Config, MediaStore>();

/**
 * The media store of a server's configuration, made once: the bucket `S3_BUCKET` names, or
 * the folder `DATA_DIR` (`$DATA_DIR/media`, `$DATA_DIR/pictures`, `$DATA_DIR/speech`).
 */
export function mediaOf(config: Config): MediaStore {
  let store = made.get(config);
  if (!store) {
    store = config.s3 ? lazyS3Store(config.s3) : createFolderStore(config.dataDir);
    made.set(config, store);
  }
  return store;
}

/**
 * The bucket's store, its module (and the AWS SDK, some 7 MB resident) loaded on first use,
 * so that a server on the folder store never holds them.
 */
function lazyS3Store(s3: S3Config): MediaStore {
  let store: Promise<MediaStore> | undefined;
  const made = () => (store ??= import('./s3-store').then((module) => module.createS3Store(s3)));
  return {
    describe: () => describeBucket(s3),
    put: async (key, body, contentType) => (await made()).put(key, body, contentType),
    putFile: async (key, file, contentType) => (await made()).putFile(key, file, contentType),
    get: async (key) => (await made()).get(key),
    stat: async (key) => (await made()).stat(key),
    read: async (key, range) => (await made()).read(key, range),
    remove: async (key) => (await made()).remove(key),
    check: async () => (await made()).check(),
  };
}
