import type { FavoriteState, MateSummary, Tag, TagGroup } from '@mates/api-client';
import type { Kysely } from 'kysely';
import type { Database, UserTable } from '../db/schema';
import type { DialectName } from '../db/dialect';
import { missing } from '../domain/errors';
import { favoriteMates, mateVisibleTo } from './listing-repository';
import { toggleFavorite } from './favorite-repository';
import { addUserFeedback, type UserFeedback } from './report-repository';
import { tagsInOrder } from './tag-repository';

/** What the user's own catalog calls work with. */
export interface UserCatalogDeps {
  db: Kysely<Database>;
  dialect: DialectName;
}

/** `/user/favorites`: the user's favorites they may still see, most recently chosen first. */
export function favorites({ db }: UserCatalogDeps, user: UserTable): Promise<MateSummary[]> {
  return favoriteMates(db, user);
}

/** `/user/doFavorite`: adds a mate the user may see to their favorites, or removes it. */
export async function toggleFavoriteMate(
  { db, dialect }: UserCatalogDeps,
  user: UserTable,
  mateId: string,
): Promise<FavoriteState> {
  if (!(await mateVisibleTo(db, mateId, user))) throw missing('notices.notFound.mate');
  const favorite = await toggleFavorite(db, dialect, user.id, mateId);
  return { mateId, favorite };
}

/** `/user/feedback`: keeps what someone tells the team, with who they are when signed in. */
export async function sendFeedback(
  { db }: UserCatalogDeps,
  user: UserTable | null,
  feedback: UserFeedback,
): Promise<null> {
  await addUserFeedback(db, user?.id ?? null, feedback);
  return null;
}

/** `/extra/tagsMap`: every tag group with its tags, in display order. */
export async function tagGroups({ db }: { db: Kysely<Database> }): Promise<TagGroup[]> {
  const { groups, tags } = await tagsInOrder(db);
  return groups.map((group): TagGroup => ({
    key: group.key,
    label: group.label,
    tags: tags
      .filter((tag) => tag.group_key === group.key)
      .map((tag): Tag => ({ key: tag.key, label: tag.label, group: group.key })),
  }));
}
