import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { DialectName } from '../db/dialect';
import type { MediaStore } from '../media/media-store';
import type { SharedAnswer } from '../http/shared-answer';
import type { CatalogCache } from './catalog-cache';

/** What the catalog's services work with. */
export interface CatalogDeps {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Who moderates reports (`ADMIN_EMAILS`): they also open mates in the moderation queue. */
  adminEmails: ReadonlySet<string>;
  /** The shared answers of the catalog (listings, details, hot words, trending). */
  cache: CatalogCache;
  /**
   * An answer as many callers are sent it, written once (the routes pass `SharedAnswer`):
   * what the cache keeps.
   */
  ready: <T>(value: T) => ReadyAnswer<T>;
}

/**
 * An answer kept ready to send to every caller who asks the same: the routes' `SharedAnswer`,
 * written once. Services only make one with `ready` and read its `value`; the type is named
 * here so that they know nothing of how it is sent.
 */
export type ReadyAnswer<T> = SharedAnswer<T>;

/** What the studio's services work with: the database and where portraits are stored. */
export interface StudioDeps {
  db: Kysely<Database>;
  dialect: DialectName;
  media: MediaStore;
}
