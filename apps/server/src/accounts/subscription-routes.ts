import { Hono } from 'hono';
import { contract } from '../http/contract';
import type { ApiEnv, Deps } from '../http/context';
import { subscriptionInfo } from './subscription-service';

/** `/subscription/info`: what is on sale, and for a signed-in caller, what they have. */
export function subscriptionRoutes(deps: Deps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  contract(routes, '/subscription').get('/subscription/info', (c) =>
    subscriptionInfo(deps, c.get('user')?.id ?? null),
  );
  return routes;
}
