import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { DialectName } from '../db/dialect';
import { inUserTransaction } from '../db/user-lock';
import { notice } from '../http/envelope';

/** The most mates one user may keep (deleted ones do not count). */
export const MAX_MATES_PER_USER = 200;

/** A 5007 when `userId` already keeps {@link MAX_MATES_PER_USER} mates. */
export async function checkMateQuota(
  db: Kysely<Database> | Transaction<Database>,
  userId: string,
): Promise<void> {
  const { n } = await db
    .selectFrom('mates')
    .select(sql<number>`count(*)`.as('n'))
    .where('creator_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  if (Number(n) >= MAX_MATES_PER_USER)
    throw notice(
      `You already have ${MAX_MATES_PER_USER} mates, the most one account can keep. Delete one you no longer need to make room.`,
    );
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
