import { Hono } from 'hono';
import {
  ROLE_DRAFT_COST_CHATS,
  type BillingPeriod,
  type SubscriptionInfo,
} from '@mates/api-client';
import { contract } from '../http/contract';
import type { ApiEnv, Deps } from '../http/context';
import { fromJson } from '../db/dialect';
import { DEFAULT_BENEFITS_FOR_VISITORS, getBenefits } from './benefits';
import { toSubscription } from '../payments/plan-service';

/** `/subscription/info`: what is on sale, and for a signed-in caller, what they have. */
export function subscriptionRoutes(deps: Deps): Hono<ApiEnv> {
  const { db } = deps;
  const routes = new Hono<ApiEnv>();
  contract(routes, '/subscription').get('/subscription/info', async (c) => {
    const user = c.get('user');
    const [packages, subscription, benefits] = await Promise.all([
      db.selectFrom('packages').selectAll().where('on_sale', '=', true).orderBy('sort').execute(),
      user
        ? db
            .selectFrom('subscriptions')
            .selectAll()
            .where('user_id', '=', user.id)
            .executeTakeFirst()
        : undefined,
      user ? getBenefits(db, user.id) : DEFAULT_BENEFITS_FOR_VISITORS,
    ]);
    const result: SubscriptionInfo = {
      packages: packages.map((row) => ({
        packageId: row.id,
        name: row.name,
        description: row.description,
        price: { amount: row.price_amount, currency: row.price_currency },
        period: row.period as BillingPeriod,
        chats: row.chats,
        goldCoins: row.gold_coins,
        features: fromJson<string[]>(row.features, []),
      })),
      current: subscription ? toSubscription(subscription) : null,
      benefits,
      // Without Stripe keys packages are shown and nothing can be bought.
      payments: deps.config.payments !== null,
      costs: {
        chatMessage: 1,
        picture: deps.config.image?.cost ?? null,
        voiceClip: deps.config.speech?.cost ?? null,
        generatedCharacter: ROLE_DRAFT_COST_CHATS,
      },
    };
    return result;
  });
  return routes;
}
