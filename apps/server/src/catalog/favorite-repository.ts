import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { now, type DialectName } from '../db/dialect';
import { inUserTransaction } from '../db/user-lock';

/**
 * Adds the mate to the user's favorites, or removes it when it is there, and keeps the
 * mate's favorites counter with the rows; answers whether it is a favorite now. Parallel
 * toggles of one user run in turn (the user's lock), so each sees the one before it.
 */
export function toggleFavorite(
  db: Kysely<Database>,
  dialect: DialectName,
  userId: string,
  mateId: string,
): Promise<boolean> {
  return inUserTransaction(db, dialect, userId, async (trx) => {
    const removed = await trx
      .deleteFrom('favorites')
      .where('user_id', '=', userId)
      .where('mate_id', '=', mateId)
      .executeTakeFirst();
    const added = Number(removed.numDeletedRows) === 0;
    if (added) {
      await trx
        .insertInto('favorites')
        .values({ user_id: userId, mate_id: mateId, created_at: now() })
        .execute();
    }
    await trx
      .updateTable('mates')
      .set((eb) => ({ favorites_count: eb('favorites_count', '+', added ? 1 : -1) }))
      .where('id', '=', mateId)
      .execute();
    return added;
  });
}

/** Whether `userId` keeps `mateId` as a favorite. */
export async function isFavorite(
  db: Kysely<Database>,
  userId: string,
  mateId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('favorites')
    .select('mate_id')
    .where('user_id', '=', userId)
    .where('mate_id', '=', mateId)
    .executeTakeFirst();
  return Boolean(row);
}
