import { Hono } from 'hono';
import { z } from 'zod';
import { USER_FEEDBACK_CATEGORIES } from '@mates/api-client';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { id } from './query-schemas';
import { favorites, sendFeedback, toggleFavoriteMate } from './user-catalog-service';

const feedbackPayload = z.object({
  category: z.enum(USER_FEEDBACK_CATEGORIES),
  content: z.string().trim().min(1, 'is required').max(5000),
  contact: z.string().max(200).default(''),
});

/** `/user/favorites`, `/user/doFavorite` (toggle) and `/user/feedback`. */
export function userCatalogRoutes(deps: Deps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/user');
  api.get('/user/favorites', (c) => favorites(deps, requireUser(c)));
  api.get('/user/doFavorite', z.object({ mateId: id }), async (c, read) => {
    const user = requireUser(c);
    return toggleFavoriteMate(deps, user, (await read()).mateId);
  });
  api.post('/user/feedback', feedbackPayload, async (c, read) =>
    sendFeedback(deps, c.get('user'), await read()),
  );
  return routes;
}
