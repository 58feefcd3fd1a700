import { Hono } from 'hono';
import { contract } from '../http/contract';
import type { ApiEnv, Deps } from '../http/context';
import { tagGroups } from './user-catalog-service';

/** `/extra/tags` and `/extra/tagsMap`, in display order. */
export function tagRoutes(deps: Deps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/extra');
  api.get('/extra/tags', async () => (await tagGroups(deps)).flatMap((group) => group.tags));
  api.get('/extra/tagsMap', () => tagGroups(deps));
  return routes;
}
