import { en } from '../i18n/en';

/** What a caller is told when the disk under the database or the stored files is full (5007). */
export const OUT_OF_SPACE = en.notices.server.full;

// Where it always was, for the routes and modules that import it from here.
export { isOutOfSpace } from '../domain/out-of-space';
