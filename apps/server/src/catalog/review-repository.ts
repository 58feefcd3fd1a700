import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Review, ReviewSummary } from '@mates/api-client';
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

/** A mate's review figures and its ten newest reviews. */
export async function reviewsOf(
  db: Kysely<Database>,
  mateId: string,
): Promise<{ summary: ReviewSummary; recent: Review[] }> {
  const [stars, recent] = await Promise.all([
    db
      .selectFrom('reviews')
      .select(['rating', (eb) => eb.fn.countAll<number>().as('n')])
      .where('mate_id', '=', mateId)
      .groupBy('rating')
      .execute(),
    db
      .selectFrom('reviews')
      .innerJoin('users', 'users.id', 'reviews.user_id')
      .select([
        'reviews.id',
        'reviews.rating',
        'reviews.content',
        'reviews.updated_at',
        'users.id as author_id',
        'users.nickname',
        'users.avatar',
      ])
      .where('reviews.mate_id', '=', mateId)
      .orderBy('reviews.updated_at', 'desc')
      .limit(10)
      .execute(),
  ]);
  const distribution: ReviewSummary['distribution'] = [0, 0, 0, 0, 0];
  for (const row of stars) distribution[row.rating - 1] = Number(row.n);
  const count = distribution.reduce((sum, n) => sum + n, 0);
  const total = distribution.reduce((sum, n, index) => sum + n * (index + 1), 0);
  return {
    summary: { average: count ? Math.round((total / count) * 10) / 10 : null, count, distribution },
    recent: recent.map((row) => ({
      reviewId: row.id,
      mateId,
      author: { creatorId: row.author_id, name: row.nickname, avatar: row.avatar },
      rating: row.rating,
      content: row.content,
      createdAt: row.updated_at,
    })),
  };
}
