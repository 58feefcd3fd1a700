import type { Kysely } from 'kysely';
import type { Creator, Review, ReviewSummary } from '@mates/api-client';
import type { Database, UserTable } from '../db/schema';
import { listableMateIds } from './mate-ids';

/**
 * A creator with follower and mate counts, or `undefined`. The mates counted are those `viewer`
 * may list (public, not hidden, mature ones only for a viewer who turned them on): the same as
 * the creator's page lists, so every place that names the number agrees.
 */
export async function creatorOf(
  db: Kysely<Database>,
  creatorId: string,
  viewer: UserTable | null,
): Promise<Creator | undefined> {
  const row = await db
    .selectFrom('users')
    .select((eb) => [
      'users.id',
      'users.nickname',
      'users.avatar',
      'users.bio',
      eb
        .selectFrom('follows')
        .select((f) => f.fn.countAll<number>().as('n'))
        .whereRef('follows.creator_id', '=', 'users.id')
        .as('followers'),
      eb
        .selectFrom(
          listableMateIds(db, viewer).where('mates.creator_id', '=', creatorId).as('listed'),
        )
        .select((m) => m.fn.countAll<number>().as('n'))
        .as('mates'),
    ])
    .where('users.id', '=', creatorId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    creatorId: row.id,
    name: row.nickname,
    avatar: row.avatar,
    bio: row.bio,
    followers: Number(row.followers ?? 0),
    mates: Number(row.mates ?? 0),
  };
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
