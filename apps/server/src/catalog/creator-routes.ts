import { Hono } from 'hono';
import { z } from 'zod';
import { contract } from '../http/contract';
import type { ApiEnv, Deps } from '../http/context';
import { creatorMatesPage, creatorProfile } from './creator-service';
import { id, pageFields } from './query-schemas';

const matesQuery = z.object({ creatorId: id, ...pageFields });

/**
 * Creator pages: `/mate/creatorInfo` (the header: followers, mates, whether the caller
 * follows) and `/mate/creatorMates` (the creator's mates the caller may list, newest first).
 * Both are open to anonymous callers; an unknown creator is a 4004.
 */
export function creatorRoutes(deps: Deps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/mate');
  api.get('/mate/creatorInfo', z.object({ creatorId: id }), async (c, read) =>
    creatorProfile(deps, (await read()).creatorId, c.get('user')),
  );
  api.get('/mate/creatorMates', matesQuery, async (c, read) =>
    creatorMatesPage(deps, await read(), c.get('user')),
  );
  return routes;
}
