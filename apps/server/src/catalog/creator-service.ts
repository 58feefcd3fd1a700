import type { CreatorProfile, FollowedCreator, MateSummary, Paged } from '@mates/api-client';
import type { Kysely } from 'kysely';
import type { Database, UserTable } from '../db/schema';
import type { DialectName } from '../db/dialect';
import { invalid, missing } from '../domain/errors';
import { paging } from './mate-rows';
import { creatorMates } from './listing-repository';
import { creatorOf, joinedAt, userExists } from './creator-repository';
import { followedCreators, isFollowing, toggleFollow } from './follow-repository';

/** What the creators' and follows' services work with. */
export interface CreatorDeps {
  db: Kysely<Database>;
  dialect: DialectName;
}

/**
 * `/mate/creatorInfo`: the creator's header (followers, and the mates the caller may list, as
 * the list below it holds them), whether the caller follows, is the creator, and since when
 * the creator is here. An unknown creator is a 4004.
 */
export async function creatorProfile(
  { db }: CreatorDeps,
  creatorId: string,
  viewer: UserTable | null,
): Promise<CreatorProfile> {
  const creator = await creatorOf(db, creatorId, viewer);
  if (!creator) throw missing('notices.notFound.creator');
  const [joined, following] = await Promise.all([
    joinedAt(db, creatorId),
    viewer && viewer.id !== creatorId ? isFollowing(db, viewer.id, creatorId) : false,
  ]);
  return { ...creator, isFollowing: following, isSelf: viewer?.id === creatorId, joinedAt: joined };
}

/** `/mate/creatorMates`: the creator's mates the caller may list, newest first. */
export async function creatorMatesPage(
  { db }: CreatorDeps,
  input: { creatorId: string; page?: number; pageSize?: number },
  viewer: UserTable | null,
): Promise<Paged<MateSummary>> {
  if (!(await userExists(db, input.creatorId))) throw missing('notices.notFound.creator');
  return creatorMates(db, input.creatorId, viewer, paging(input));
}

/** `/mate/followCreator`: follows the creator, or unfollows when the user already does. */
export async function followCreator(
  { db, dialect }: CreatorDeps,
  user: UserTable,
  creatorId: string,
): Promise<{ creatorId: string; following: boolean }> {
  if (creatorId === user.id) throw invalid('notices.mates.followSelf');
  if (!(await userExists(db, creatorId))) throw missing('notices.notFound.creator');
  const following = await toggleFollow(db, dialect, user.id, creatorId);
  return { creatorId, following };
}

/** `/mate/followList`: the creators the user follows, most recently followed first. */
export async function followList({ db }: CreatorDeps, user: UserTable): Promise<FollowedCreator[]> {
  const rows = await followedCreators(db, user.id);
  const creators = await Promise.all(rows.map((row) => creatorOf(db, row.creator_id, user)));
  return rows.flatMap((row, index) =>
    creators[index] ? [{ ...creators[index], followedAt: row.created_at }] : [],
  );
}
