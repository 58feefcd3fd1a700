import { Hono } from 'hono';
import { z } from 'zod';
import { USER_FEEDBACK_CATEGORIES } from '@mates/api-client';
import { notFound } from '../http/envelope';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { now } from '../db/dialect';
import { matesWithCreators, toMateSummary, visibleTo } from './mate-rows';
import { id } from './query-schemas';
import { toggleFavorite } from './favorites';

/** `/user/favorites`, `/user/doFavorite` (toggle) and `/user/feedback`. */
export function userCatalogRoutes(deps: Deps): Hono<ApiEnv> {
  const { db } = deps;
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/user');

  api.get('/user/favorites', async (c) => {
    const user = requireUser(c);
    const rows = await visibleTo(matesWithCreators(db), user, { includeOwn: true })
      .innerJoin('favorites', 'favorites.mate_id', 'mates.id')
      .where('favorites.user_id', '=', user.id)
      .orderBy('favorites.created_at', 'desc')
      .execute();
    return rows.map(toMateSummary);
  });

  api.get('/user/doFavorite', z.object({ mateId: id }), async (c, read) => {
    const user = requireUser(c);
    const { mateId } = await read();
    const mate = await visibleTo(matesWithCreators(db), user, { includeOwn: true })
      .where('mates.id', '=', mateId)
      .executeTakeFirst();
    if (!mate) throw notFound('Mate');
    const favorite = await toggleFavorite(db, deps.dialect, user.id, mateId);
    return { mateId, favorite };
  });

  const feedbackPayload = z.object({
    category: z.enum(USER_FEEDBACK_CATEGORIES),
    content: z.string().trim().min(1, 'is required').max(5000),
    contact: z.string().max(200).default(''),
  });
  api.post('/user/feedback', feedbackPayload, async (c, read) => {
    const input = await read();
    await db
      .insertInto('user_feedback')
      .values({
        user_id: c.get('user')?.id ?? null,
        category: input.category,
        content: input.content,
        contact: input.contact,
        created_at: now(),
      })
      .execute();
    return null;
  });
  return routes;
}
