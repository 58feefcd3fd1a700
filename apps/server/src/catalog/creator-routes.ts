import { Hono } from 'hono';
import { z } from 'zod';
import type { CreatorProfile } from '@mates/api-client';
import { notFound } from '../http/envelope';
import { contract } from '../http/contract';
import type { ApiEnv, Deps } from '../http/context';
import { creatorOf } from './creators';
import { paging } from './mate-rows';
import { listableMateIds, pageOfMates } from './mate-ids';
import { id, pageFields } from './query-schemas';

/**
 * Creator pages: `/mate/creatorInfo` (the header: followers, mates, whether the caller
 * follows) and `/mate/creatorMates` (the creator's mates the caller may list, newest first).
 * Both are open to anonymous callers; an unknown creator is a 4004.
 */
export function creatorRoutes(deps: Deps): Hono<ApiEnv> {
  const { db } = deps;
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/mate');

  /** The creator's mates that `viewer` may list: the same rows as every other listing. */
  const matesOf = (creatorId: string, viewer: Parameters<typeof listableMateIds>[1]) =>
    listableMateIds(db, viewer).where('mates.creator_id', '=', creatorId);

  api.get('/mate/creatorInfo', z.object({ creatorId: id }), async (c, read) => {
    const { creatorId } = await read();
    const viewer = c.get('user');
    const creator = await creatorOf(db, creatorId, viewer);
    if (!creator) throw notFound('Creator');
    const [joined, following] = await Promise.all([
      db
        .selectFrom('users')
        .select('created_at')
        .where('id', '=', creatorId)
        .executeTakeFirstOrThrow(),
      viewer && viewer.id !== creatorId
        ? db
            .selectFrom('follows')
            .select('creator_id')
            .where('user_id', '=', viewer.id)
            .where('creator_id', '=', creatorId)
            .executeTakeFirst()
        : undefined,
    ]);
    const profile: CreatorProfile = {
      // Its mates: what the list below the header holds for this caller (see creatorOf).
      ...creator,
      isFollowing: Boolean(following),
      isSelf: viewer?.id === creatorId,
      joinedAt: joined.created_at,
    };
    return profile;
  });

  const matesQuery = z.object({ creatorId: id, ...pageFields });
  api.get('/mate/creatorMates', matesQuery, async (c, read) => {
    const input = await read();
    const creator = await db
      .selectFrom('users')
      .select('id')
      .where('id', '=', input.creatorId)
      .executeTakeFirst();
    if (!creator) throw notFound('Creator');
    const filtered = matesOf(input.creatorId, c.get('user'));
    return pageOfMates(db, filtered, filtered.orderBy('mates.created_at', 'desc'), paging(input));
  });

  return routes;
}
