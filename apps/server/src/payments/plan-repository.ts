import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, PlanPaymentTable, SubscriptionTable } from '../db/schema';
import { now } from '../db/dialect';
import type { TakenBackAmounts } from './checkout-repository';

/** A stored plan (one per user). */
export type SubscriptionRow = Selectable<SubscriptionTable>;

/** A stored payment of a plan, by its invoice. */
export type PlanPaymentRow = Selectable<PlanPaymentTable>;

/** What a paid plan checkout stores of its plan (everything but the user). */
export type PlanFields = Omit<Insertable<SubscriptionTable>, 'user_id'>;

/** The user's plan, if they have or had one. */
export function subscriptionOf(
  db: Kysely<Database>,
  userId: string,
): Promise<SubscriptionRow | undefined> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Whether the user has an active plan bought through Stripe. */
export async function holdsStripePlan(db: Kysely<Database>, userId: string): Promise<boolean> {
  const held = await db
    .selectFrom('subscriptions')
    .select('status')
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .where('stripe_subscription_id', 'is not', null)
    .executeTakeFirst();
  return Boolean(held);
}

/** Stores whether the user's plan ends at its period's end, and that end when Stripe gave it. */
export async function setPlanEnd(
  db: Kysely<Database>,
  userId: string,
  change: { cancelAtPeriodEnd: boolean; currentPeriodEnd?: string },
): Promise<void> {
  await db
    .updateTable('subscriptions')
    .set({
      cancel_at_period_end: change.cancelAtPeriodEnd,
      ...(change.currentPeriodEnd && { current_period_end: change.currentPeriodEnd }),
    })
    .where('user_id', '=', userId)
    .execute();
}

/** Writes the user's plan: a new one, or the one stored replaced. */
export async function savePlan(
  trx: Transaction<Database>,
  userId: string,
  plan: PlanFields,
): Promise<void> {
  await trx
    .insertInto('subscriptions')
    .values({ user_id: userId, ...plan })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(plan))
    .execute();
}

/** The plan Stripe knows as `stripeId`. */
export function planOfStripeSubscription(
  trx: Transaction<Database>,
  stripeId: string,
): Promise<SubscriptionRow | undefined> {
  return trx
    .selectFrom('subscriptions')
    .selectAll()
    .where('stripe_subscription_id', '=', stripeId)
    .executeTakeFirst();
}

/** Whether Stripe's subscription `stripeId` is a plan stored here, of a package that exists. */
export async function isRunningPlan(
  trx: Transaction<Database>,
  stripeId: string,
): Promise<boolean> {
  const running = await trx
    .selectFrom('subscriptions')
    .innerJoin('packages', 'packages.id', 'subscriptions.package_id')
    .select('subscriptions.user_id')
    .where('subscriptions.stripe_subscription_id', '=', stripeId)
    .executeTakeFirst();
  return Boolean(running);
}

/**
 * A renewal paid: the user's plan is active again, until `currentPeriodEnd` when the invoice
 * says, and its newest event is the later of `eventAt` and the one stored.
 */
export async function renewPlan(
  trx: Transaction<Database>,
  userId: string,
  renewal: { currentPeriodEnd?: string; eventAt: number },
): Promise<void> {
  await trx
    .updateTable('subscriptions')
    .set({
      status: 'active',
      ...(renewal.currentPeriodEnd && { current_period_end: renewal.currentPeriodEnd }),
      // The later of the two, as the row is now (an event applied meanwhile may be newer).
      stripe_event_at: sql<number>`case when stripe_event_at > ${renewal.eventAt} then stripe_event_at else ${renewal.eventAt} end`,
    })
    .where('user_id', '=', userId)
    .execute();
}

/**
 * Applies a plan change Stripe made at `eventAt`, only while no newer event is applied (the
 * condition is checked by the change itself: on PostgreSQL another transaction's newer event,
 * which this one waits for, wins); whether it changed.
 */
export async function changePlan(
  trx: Transaction<Database>,
  userId: string,
  change: {
    status: string;
    cancelAtPeriodEnd: boolean;
    currentPeriodEnd: string | null;
    eventAt: number;
  },
): Promise<boolean> {
  const changed = await trx
    .updateTable('subscriptions')
    .set({
      status: change.status,
      cancel_at_period_end: change.cancelAtPeriodEnd,
      ...(change.currentPeriodEnd && { current_period_end: change.currentPeriodEnd }),
      stripe_event_at: change.eventAt,
    })
    .where('user_id', '=', userId)
    .where('stripe_event_at', '<=', change.eventAt)
    .executeTakeFirst();
  return Number(changed.numUpdatedRows) > 0;
}

/**
 * Stores what one of a plan's payments granted, by its invoice; false when the invoice has its
 * row already (on PostgreSQL a second transaction waits for the first's row, then finds it).
 */
export async function recordPlanPayment(
  trx: Transaction<Database>,
  payment: {
    invoiceId: string;
    userId: string;
    packageId: string;
    chats: number;
    goldCoins: number;
  },
): Promise<boolean> {
  const stored = await trx
    .insertInto('plan_payments')
    .values({
      invoice_id: payment.invoiceId,
      user_id: payment.userId,
      package_id: payment.packageId,
      chats_granted: payment.chats,
      gold_coins_granted: payment.goldCoins,
      created_at: now(),
    })
    .onConflict((oc) => oc.column('invoice_id').doNothing())
    .returning('invoice_id')
    .executeTakeFirst();
  return Boolean(stored);
}

/** Whether the plan payment of invoice `invoiceId` is stored. */
export async function planPaymentStored(db: Kysely<Database>, invoiceId: string): Promise<boolean> {
  const stored = await db
    .selectFrom('plan_payments')
    .select('invoice_id')
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
  return Boolean(stored);
}

/**
 * The plan payment of invoice `invoiceId`, read by a write that changes nothing, which on
 * PostgreSQL locks its row until the commit.
 */
export function lockPlanPayment(
  trx: Transaction<Database>,
  invoiceId: string,
): Promise<PlanPaymentRow | undefined> {
  return trx
    .updateTable('plan_payments')
    .set((eb) => ({ amount_refunded: eb.ref('amount_refunded') }))
    .where('invoice_id', '=', invoiceId)
    .returningAll()
    .executeTakeFirst();
}

/** Records what refunds and chargebacks have taken back of a plan payment. */
export async function setPlanPaymentTakenBack(
  trx: Transaction<Database>,
  invoiceId: string,
  amounts: TakenBackAmounts,
): Promise<void> {
  await trx.updateTable('plan_payments').set(amounts).where('invoice_id', '=', invoiceId).execute();
}
