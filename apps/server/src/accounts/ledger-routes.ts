import { Hono } from 'hono';
import { z } from 'zod';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { now } from '../db/dialect';
import { pageFields } from '../catalog/query-schemas';
import { paging, toPage } from '../catalog/mate-rows';
import { getSpendingCap, toLedgerEntry } from './benefits';

/** The most a daily cap may be: a whole number of chats or gold coins. */
export const MAX_DAILY_CAP = 1_000_000;

const cap = z.number().int().min(0).max(MAX_DAILY_CAP).nullable();

/**
 * `/user/ledger` (the caller's movements of chats and gold coins, newest first, paged),
 * `/user/spendingCap` and `/user/setSpendingCap` (daily caps; `null` is none). Signed in only.
 */
export function ledgerRoutes(deps: Deps): Hono<ApiEnv> {
  const { db } = deps;
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/user');

  api.get('/user/ledger', z.object(pageFields), async (c, read) => {
    const user = requireUser(c);
    const page = paging(await read());
    const [rows, total] = await Promise.all([
      db
        .selectFrom('benefit_ledger')
        // A message reference leads to its chat while the message is there.
        .leftJoin('messages', (join) =>
          join
            .onRef('messages.id', '=', 'benefit_ledger.reference_id')
            .on('benefit_ledger.reference_type', '=', 'message'),
        )
        .selectAll('benefit_ledger')
        .select('messages.room_id')
        .where('benefit_ledger.user_id', '=', user.id)
        .orderBy('benefit_ledger.id', 'desc')
        .limit(page.pageSize)
        .offset(page.offset)
        .execute(),
      db
        .selectFrom('benefit_ledger')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow(),
    ]);
    return toPage(rows.map(toLedgerEntry), page, total.count);
  });

  api.get('/user/spendingCap', (c) => getSpendingCap(db, requireUser(c).id));

  api.post(
    '/user/setSpendingCap',
    z.object({ dailyChats: cap, dailyGoldCoins: cap }),
    async (c, read) => {
      const user = requireUser(c);
      const input = await read();
      await db
        .updateTable('users')
        .set({
          daily_chats_cap: input.dailyChats,
          daily_gold_coins_cap: input.dailyGoldCoins,
          updated_at: now(),
        })
        .where('id', '=', user.id)
        .execute();
      return getSpendingCap(db, user.id);
    },
  );
  return routes;
}
