import type { Kysely, Transaction, Updateable } from 'kysely';
import type { Database, MateTable } from '../db/schema';
import type { MediaStore } from '../media/media-store';
import { CODE, EnvelopeError } from '../http/envelope';
import { findOwnMate } from './own-mates';
import { copyPortrait, removePortrait } from './portrait-files';

/** 4009: another call changed the mate between this call's reading and its writing. */
export const mateConflict = () =>
  new EnvelopeError(
    CODE.conflict,
    'This mate was changed by another of your requests at the same moment. Load it again and retry.',
  );

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
      const written = await trx
        .updateTable('mates')
        .set({ ...change.set, ...(files.copy !== null && { avatar: files.copy }) })
        .where('id', '=', own.id)
        .where('avatar', '=', own.avatar)
        .where('visibility', '=', own.visibility)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (written.numUpdatedRows === 0n) throw mateConflict();
      await change.alsoIn?.(trx);
    });
  } catch (error) {
    if (files.copy !== null) await removePortrait(media, files.copy);
    throw error;
  }
  // Committed: the address people saw while the mate was public stops answering.
  if (files.old !== null) await removePortrait(media, files.old);
}
