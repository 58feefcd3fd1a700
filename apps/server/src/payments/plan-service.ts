import type { Subscription, SubscriptionStatus } from '@mates/api-client';
import { toBool } from '../db/dialect';
import { refused } from '../domain/errors';
import { setPlanEnd, subscriptionOf, type SubscriptionRow } from './plan-repository';
import { readyStripe, stripeTrouble, type PaymentDeps } from './payment-deps';

/** A stored subscription as the API shows it. */
export function toSubscription(row: SubscriptionRow): Subscription {
  return {
    packageId: row.package_id,
    status: row.status as SubscriptionStatus,
    startedAt: new Date(row.started_at).toISOString(),
    currentPeriodEnd: new Date(row.current_period_end).toISOString(),
    cancelAtPeriodEnd: toBool(row.cancel_at_period_end),
  };
}

/**
 * Ends the user's plan at its period's end (`cancelAtPeriodEnd`), or keeps it going again:
 * changed at Stripe first, then stored as Stripe answered. Refused without an active plan
 * bought through Stripe.
 */
export async function changePlanEnd(
  deps: PaymentDeps,
  userId: string,
  cancelAtPeriodEnd: boolean,
): Promise<Subscription> {
  const row = await subscriptionOf(deps.db, userId);
  if (!row?.stripe_subscription_id || row.status !== 'active')
    throw refused('notices.payments.noPlan');
  const updated = await readyStripe(deps)
    .subscriptions.update(row.stripe_subscription_id, {
      cancel_at_period_end: cancelAtPeriodEnd,
    })
    .catch((error: unknown) => stripeTrouble(deps, error));
  const end = updated.items?.data?.[0]?.current_period_end;
  await setPlanEnd(deps.db, userId, {
    cancelAtPeriodEnd: updated.cancel_at_period_end,
    ...(end && { currentPeriodEnd: new Date(end * 1000).toISOString() }),
  });
  const saved = await subscriptionOf(deps.db, userId);
  // Read a moment ago: gone only with its user, deleted meanwhile.
  if (!saved) throw new Error(`the plan of user ${userId} is gone`);
  return toSubscription(saved);
}
