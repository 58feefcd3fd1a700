import { Hono } from 'hono';
import { z } from 'zod';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { pageFields } from '../catalog/query-schemas';
import { getSpendingCap, ledgerPage, setSpendingCap } from './ledger-service';

/** The most a daily cap may be: a whole number of chats or gold coins. */
export const MAX_DAILY_CAP = 1_000_000;

const cap = z.number().int().min(0).max(MAX_DAILY_CAP).nullable();

/**
 * `/user/ledger` (the caller's movements of chats and gold coins, newest first, paged, their
 * reasons in the caller's language),
 * `/user/spendingCap` and `/user/setSpendingCap` (daily caps; `null` is none). Signed in only.
 */
export function ledgerRoutes(deps: Deps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/user');

  api.get('/user/ledger', z.object(pageFields), async (c, read) => {
    const user = requireUser(c);
    return ledgerPage(deps, user.id, await read(), c.get('language'));
  });

  api.get('/user/spendingCap', (c) => getSpendingCap(deps, requireUser(c).id));

  api.post(
    '/user/setSpendingCap',
    z.object({ dailyChats: cap, dailyGoldCoins: cap }),
    async (c, read) => {
      const user = requireUser(c);
      return setSpendingCap(deps, user.id, await read());
    },
  );
  return routes;
}
