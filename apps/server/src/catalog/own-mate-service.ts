import type { Kysely, Transaction, Updateable } from 'kysely';
import type { MateVisibility } from '@mates/api-client';
import type { Database, MateTable } from '../db/schema';
import type { DialectName } from '../db/dialect';
import { inUserTransaction } from '../db/user-lock';
import { DomainError, forbidden, invalid, refused } from '../domain/errors';
import type { MediaStore } from '../media/media-store';
import { countOwnMates, findOwnMate, writeMateAsRead } from './mate-repository';
import { copyPortrait, removePortrait } from './portrait-files';

/** The most mates one user may keep (deleted ones do not count). */
export const MAX_MATES_PER_USER = 200;

/** 4009: another call changed the mate between this call's reading and its writing. */
export const mateConflict = () => new DomainError('conflict', 'notices.mates.changedMeanwhile');

/** A 5007 when `userId` already keeps {@link MAX_MATES_PER_USER} mates. */
export async function checkMateQuota(
  db: Kysely<Database> | Transaction<Database>,
  userId: string,
): Promise<void> {
  if ((await countOwnMates(db, userId)) >= MAX_MATES_PER_USER)
    throw refused('notices.mates.quota', { count: MAX_MATES_PER_USER });
}

/**
 * Runs `insert` (which adds one mate of `userId`) only while the user is under the quota; the
 * user's row is locked first, so that calls sent at once cannot each count the same room.
 */
export function withinMateQuota<T>(
  db: Kysely<Database>,
  dialect: DialectName,
  userId: string,
  insert: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return inUserTransaction(db, dialect, userId, async (trx) => {
    await checkMateQuota(trx, userId);
    return insert(trx);
  });
}

/**
 * Refuses a visibility the mate may not take: `public` and `private` need a greeting (the
 * first message of every room; a draft may lack one), and a mate moderators hid cannot be
 * made public by its owner. One that was public when hidden stays public underneath (hiding
 * is a layer over visibility), so it can still be edited as it is.
 */
export function checkVisibility(
  mate: { first_mes: string; hidden_at: string | null; visibility: string | null },
  visibility: MateVisibility,
): void {
  if (visibility !== 'draft' && !mate.first_mes.trim())
    throw invalid(
      visibility === 'public' ? 'notices.mates.greetingPublic' : 'notices.mates.greetingPrivate',
    );
  if (visibility === 'public' && mate.hidden_at && mate.visibility !== 'public')
    throw forbidden('notices.mates.hiddenPublic');
}

/** What one call changes on a mate of the caller's, decided from the row as it is now. */
export interface OwnMateChange {
  /** The columns to write. */
  set: Updateable<MateTable>;
  /** Whether the portrait moves to a new secret address (a mate leaving `public`). */
  hidePortrait: boolean;
  /** Further writes in the same transaction, once the row is written. */
  alsoIn?: (trx: Transaction<Database>) => Promise<void>;
}

/**
 * Changes one of `userId`'s mates (4004 when it is not theirs or is deleted) so that calls
 * on one mate at the same time cannot undo each other: the row is read again inside the
 * transaction, `plan` decides from it (throwing to refuse, `null` to change nothing), and the
 * row is written only while its portrait, visibility and deletion are still as read; else
 * 4009. A portrait that moves is copied to its new address before the commit and the old
 * file removed after it, so that the row never points at a file that is not there.
 */
export async function changeOwnMate(
  db: Kysely<Database>,
  media: MediaStore,
  userId: string,
  mateId: string,
  plan: (own: MateTable) => OwnMateChange | null,
): Promise<void> {
  const files: { copy: string | null; old: string | null } = { copy: null, old: null };
  try {
    await db.transaction().execute(async (trx) => {
      const own = await findOwnMate(trx, userId, mateId);
      const change = plan(own);
      if (!change) return;
      if (change.hidePortrait) {
        // A missing file (or one another call just moved) is drawn afresh instead.
        const copy = await copyPortrait(media, own.avatar, own.name);
        if (copy !== own.avatar) Object.assign(files, { copy, old: own.avatar });
      }
      const set = { ...change.set, ...(files.copy !== null && { avatar: files.copy }) };
      if (!(await writeMateAsRead(trx, own, set, { visibility: true }))) throw mateConflict();
      await change.alsoIn?.(trx);
    });
  } catch (error) {
    if (files.copy !== null) await removePortrait(media, files.copy);
    throw error;
  }
  // Committed: the address people saw while the mate was public stops answering.
  if (files.old !== null) await removePortrait(media, files.old);
}
