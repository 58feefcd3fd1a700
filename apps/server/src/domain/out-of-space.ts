import { en } from '../i18n/en';

/** What a caller is told when the disk under the database or the stored files is full (5007). */
export const OUT_OF_SPACE = en.notices.server.full;

/**
 * The codes a full disk shows up as: Node's file system calls (`ENOSPC`), SQLite
 * (`SQLITE_FULL`, also a `max_page_count` reached) and PostgreSQL (SQLSTATE 53100, disk_full).
 */
const FULL = new Set(['ENOSPC', 'SQLITE_FULL', '53100']);

/**
 * Whether `error` or one of its causes (at most 5 deep: a store wraps the file system's error)
 * says the disk is full: a fault outside the process, to be told as such rather than a 5000.
 * Here, not in `http/`, so that services may tell a full disk from their own failures.
 */
export function isOutOfSpace(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && FULL.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
