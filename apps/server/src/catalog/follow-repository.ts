import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { now, type DialectName } from '../db/dialect';
import { inUserTransaction } from '../db/user-lock';

/**
 * Follows the creator, or unfollows when the user already does; answers whether the user
 * follows now. Parallel toggles of one user run in turn (the user's lock).
 */
export function toggleFollow(
  db: Kysely<Database>,
  dialect: DialectName,
  userId: string,
  creatorId: string,
): Promise<boolean> {
  return inUserTransaction(db, dialect, userId, async (trx) => {
    const removed = await trx
      .deleteFrom('follows')
      .where('user_id', '=', userId)
      .where('creator_id', '=', creatorId)
      .executeTakeFirst();
    const following = Number(removed.numDeletedRows) === 0;
    if (following) {
      await trx
        .insertInto('follows')
        .values({ user_id: userId, creator_id: creatorId, created_at: now() })
        .execute();
    }
    return following;
  });
}

/** Whether `userId` follows `creatorId`. */
export async function isFollowing(
  db: Kysely<Database>,
  userId: string,
  creatorId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('follows')
    .select('creator_id')
    .where('user_id', '=', userId)
    .where('creator_id', '=', creatorId)
    .executeTakeFirst();
  return Boolean(row);
}

/** The creators `userId` follows, with when they began, most recent first. */
export function followedCreators(
  db: Kysely<Database>,
  userId: string,
): Promise<{ creator_id: string; created_at: string }[]> {
  return db
    .selectFrom('follows')
    .select(['creator_id', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .execute();
}
