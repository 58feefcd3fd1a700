import { Hono } from 'hono';
import { z } from 'zod';
import type { FavoriteState } from '@mates/api-client';
import { notFound, ok } from '../http/envelope';
import { body, query } from '../http/validate';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { now } from '../db/dialect';
import { matesWithCreators, toMateSummary, visibleTo } from './mate-rows';
import { id } from './query-schemas';
import { toggleFavorite } from './favorites';

/** `/user/favorites`, `/user/doFavorite` (toggle) and `/user/feedback`. */
export function userCatalogRoutes(deps: Deps): Hono<ApiEnv> {
  const { db } = deps;
  const routes = new Hono<ApiEnv>();

  routes.get('/favorites', async (c) => {
    const user = requireUser(c);
    const rows = await visibleTo(matesWithCreators(db), user, { includeOwn: true })
      .innerJoin('favorites', 'favorites.mate_id', 'mates.id')
      .where('favorites.user_id', '=', user.id)
      .orderBy('favorites.created_at', 'desc')
      .execute();
    return ok(c, rows.map(toMateSummary));
  });

  routes.get('/doFavorite', async (c) => {
    const user = requireUser(c);
    const { mateId } = query(c, z.object({ mateId: id }));
    const mate = await visibleTo(matesWithCreators(db), user, { includeOwn: true })
      .where('mates.id', '=', mateId)
      .executeTakeFirst();
    if (!mate) throw notFound('Mate');
    const favorite = await toggleFavorite(db, deps.dialect, user.id, mateId);
    return ok<FavoriteState>(c, { mateId, favorite });
  });

  routes.post('/feedback', async (c) => {
    const input = await body(
      c,
      z.object({
        category: z.enum(['bug', 'idea', 'account', 'billing', 'other']),
        content: z.string().trim().min(1, 'is required').max(5000),
        contact: z.string().max(200).default(''),
      }),
    );
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
    return ok(c, null);
  });
  return routes;
}
