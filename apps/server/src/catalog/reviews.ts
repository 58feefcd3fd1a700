import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { DialectName } from '../db/dialect';
import { inUserTransaction } from '../db/user-lock';

/** What a user writes in a review. */
export interface ReviewFields {
  mateId: string;
  rating: number;
  /** Absent keeps the words of the user's earlier review (none for a first one). */
  content?: string;
}

/**
 * Writes the user's one review of a mate (a new one, or over their earlier one) and keeps the
 * mate's review count and rating sum with it; answers the review's id and words. Parallel
 * reviews of one user run in turn (the user's lock), so the last one wins and is counted once.
 */
export function saveReview(
  db: Kysely<Database>,
  dialect: DialectName,
  userId: string,
  review: ReviewFields,
  at: string,
): Promise<{ reviewId: string; content: string }> {
  return inUserTransaction(db, dialect, userId, async (trx) => {
    const previous = await trx
      .selectFrom('reviews')
      .select(['id', 'rating', 'content'])
      .where('user_id', '=', userId)
      .where('mate_id', '=', review.mateId)
      .executeTakeFirst();
    const reviewId = previous?.id ?? randomUUID();
    const content = review.content ?? previous?.content ?? '';
    const fields = { rating: review.rating, content, updated_at: at };
    if (previous) {
      await trx.updateTable('reviews').set(fields).where('id', '=', reviewId).execute();
    } else {
      await trx
        .insertInto('reviews')
        .values({
          id: reviewId,
          user_id: userId,
          mate_id: review.mateId,
          created_at: at,
          ...fields,
        })
        .execute();
    }
    await trx
      .updateTable('mates')
      .set((eb) => ({
        reviews_count: previous ? eb.ref('reviews_count') : eb('reviews_count', '+', 1),
        rating_sum: eb('rating_sum', '+', review.rating - (previous?.rating ?? 0)),
      }))
      .where('id', '=', review.mateId)
      .execute();
    return { reviewId, content };
  });
}
