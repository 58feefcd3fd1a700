import type { Kysely } from 'kysely';
import type { Creator } from '@mates/api-client';
import type { Database, UserTable } from '../db/schema';
import { listableMateIds } from './listing-repository';

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

/** Whether a user with this id exists (any user may be a creator). */
export async function userExists(db: Kysely<Database>, userId: string): Promise<boolean> {
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .executeTakeFirst();
  return Boolean(user);
}

/** When the user joined; the user must exist. */
export async function joinedAt(db: Kysely<Database>, userId: string): Promise<string> {
  const user = await db
    .selectFrom('users')
    .select('created_at')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return user.created_at;
}
