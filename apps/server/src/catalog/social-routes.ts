import { Hono } from 'hono';
import { z } from 'zod';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { followCreator, followList } from './creator-service';
import { id } from './query-schemas';

/** `/mate/followCreator` (toggle) and `/mate/followList`. */
export function socialRoutes(deps: Deps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/mate');
  api.get('/mate/followCreator', z.object({ creatorId: id }), async (c, read) => {
    const user = requireUser(c);
    return followCreator(deps, user, (await read()).creatorId);
  });
  api.get('/mate/followList', (c) => followList(deps, requireUser(c)));
  return routes;
}
