import type { Kysely } from 'kysely';
import {
  ROLE_DRAFT_COST_CHATS,
  type BillingPeriod,
  type Package,
  type SubscriptionInfo,
} from '@mates/api-client';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import { fromJson } from '../db/dialect';
import { packagesOnSale, type PackageRow } from '../payments/package-repository';
import { subscriptionOf } from '../payments/plan-repository';
import { toSubscription } from '../payments/plan-service';
import { DEFAULT_BENEFITS_FOR_VISITORS, getBenefits } from './benefits';

/** What the subscription page's service works with. */
export interface SubscriptionDeps {
  db: Kysely<Database>;
  config: Pick<Config, 'payments' | 'image' | 'speech'>;
}

/** A stored package as the API shows it. */
function toPackage(row: PackageRow): Package {
  return {
    packageId: row.id,
    name: row.name,
    description: row.description,
    price: { amount: row.price_amount, currency: row.price_currency },
    period: row.period as BillingPeriod,
    chats: row.chats,
    goldCoins: row.gold_coins,
    features: fromJson<string[]>(row.features, []),
  };
}

/**
 * What is on sale and what things cost, and for a signed-in caller (`userId`), their plan and
 * balances (a visitor's are {@link DEFAULT_BENEFITS_FOR_VISITORS}).
 */
export async function subscriptionInfo(
  deps: SubscriptionDeps,
  userId: string | null,
): Promise<SubscriptionInfo> {
  const { db, config } = deps;
  const [packages, subscription, benefits] = await Promise.all([
    packagesOnSale(db),
    userId ? subscriptionOf(db, userId) : undefined,
    userId ? getBenefits(db, userId) : DEFAULT_BENEFITS_FOR_VISITORS,
  ]);
  return {
    packages: packages.map(toPackage),
    current: subscription ? toSubscription(subscription) : null,
    benefits,
    // Without Stripe keys packages are shown and nothing can be bought.
    payments: config.payments !== null,
    costs: {
      chatMessage: 1,
      picture: config.image?.cost ?? null,
      voiceClip: config.speech?.cost ?? null,
      generatedCharacter: ROLE_DRAFT_COST_CHATS,
    },
  };
}
