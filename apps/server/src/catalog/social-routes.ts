import { Hono } from 'hono';
import { z } from 'zod';
import type { FollowedCreator } from '@mates/api-client';
import { badInput, notFound } from '../http/envelope';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { creatorOf } from './creators';
import { id } from './query-schemas';
import { toggleFollow } from './follows';

/** `/mate/followCreator` (toggle) and `/mate/followList`. */
export function socialRoutes(deps: Deps): Hono<ApiEnv> {
  const { db } = deps;
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/mate');

  api.get('/mate/followCreator', z.object({ creatorId: id }), async (c, read) => {
    const user = requireUser(c);
    const { creatorId } = await read();
    if (creatorId === user.id) throw badInput('creatorId: you cannot follow yourself');
    const creator = await db
      .selectFrom('users')
      .select('id')
      .where('id', '=', creatorId)
      .executeTakeFirst();
    if (!creator) throw notFound('Creator');
    const following = await toggleFollow(db, deps.dialect, user.id, creatorId);
    return { creatorId, following };
  });

  api.get('/mate/followList', async (c) => {
    const user = requireUser(c);
    const rows = await db
      .selectFrom('follows')
      .select(['creator_id', 'created_at'])
      .where('user_id', '=', user.id)
      .orderBy('created_at', 'desc')
      .execute();
    const creators = await Promise.all(rows.map((row) => creatorOf(db, row.creator_id, user)));
    const result: FollowedCreator[] = rows.flatMap((row, index) =>
      creators[index] ? [{ ...creators[index], followedAt: row.created_at }] : [],
    );
    return result;
  });
  return routes;
}
