import type { Config } from '../config';
import type { MediaStore } from './media-store';
import { createFolderStore } from './folder-store';
import { createS3Store } from './s3-store';

const made = new WeakMap<Config, MediaStore>();

/**
 * The media store of a server's configuration, made once: the bucket `S3_BUCKET` names, or
 * the folder `DATA_DIR` (`$DATA_DIR/media`, `$DATA_DIR/pictures`, `$DATA_DIR/speech`).
 */
export function mediaOf(config: Config): MediaStore {
  let store = made.get(config);
  if (!store) {
    store = config.s3 ? createS3Store(config.s3) : createFolderStore(config.dataDir);
    made.set(config, store);
  }
  return store;
}
