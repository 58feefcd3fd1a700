import type { Kysely, Transaction } from 'kysely';
import type Stripe from 'stripe';
import type { Database } from '../db/schema';
import { addBenefits } from '../accounts/benefits';
import type { Reason } from '../accounts/ledger-reasons';
import {
  checkoutById,
  endUnpaidCheckout,
  markCheckoutPaid,
  refuseCheckout,
  type CheckoutRow,
} from './checkout-repository';
import { packageById, type PackageRow } from './package-repository';
import { recordEvent } from './payment-event-repository';
import {
  changePlan,
  planOfStripeSubscription,
  recordPlanPayment,
  renewPlan,
  savePlan,
} from './plan-repository';
import {
  EventTooEarly,
  idOf,
  invoiceSubscription,
  periodEnd,
  statusOf,
  type Fulfilment,
  type Prepared,
} from './stripe-events';
import { paymentTakenBack } from './take-back-service';

type Trx = Transaction<Database>;

/** A paid session that is not what its checkout sold: why, as stored in `checkouts.problem`. */
interface Refused {
  problem: string;
}

/**
 * Applies one verified Stripe event, exactly once: the event's id is written in the same
 * transaction as its effect, so a second delivery (Stripe delivers at least once) finds it and
 * changes nothing, and a failure writes neither. Distinct events about one payment (Stripe
 * sends `checkout.session.completed` and `…async_payment_succeeded` for the same checkout,
 * each maybe to another server) grant it once too: each grant is a conditional change of the
 * payment's own row, which PostgreSQL lets only one transaction make. `prepared` is read before
 * the transaction (calls to Stripe never hold a database transaction open).
 */
export async function fulfilEvent(
  deps: { db: Kysely<Database> },
  event: Stripe.Event,
  prepared: Prepared = {},
): Promise<{ result: Fulfilment; problem?: string }> {
  return deps.db.transaction().execute(async (trx) => {
    if (!(await recordEvent(trx, event))) return { result: 'duplicate' };
    const applied = await apply(trx, event, prepared);
    if (typeof applied === 'object') return { result: 'refused', problem: applied.problem };
    return { result: applied ? 'fulfilled' : 'ignored' };
  });
}

async function apply(
  trx: Trx,
  event: Stripe.Event,
  prepared: Prepared,
): Promise<boolean | Refused> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return sessionPaid(trx, event.data.object, prepared.subscription);
    case 'checkout.session.async_payment_failed':
      return sessionEnded(trx, event.data.object, 'failed');
    case 'checkout.session.expired':
      return sessionEnded(trx, event.data.object, 'expired');
    case 'invoice.paid':
      return invoicePaid(trx, event.data.object, event.created);
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return subscriptionChanged(trx, event.data.object, event.created, event.type);
    case 'charge.refunded':
      return paymentTakenBack(
        trx,
        event.data.object,
        'refund',
        event.data.object.amount_refunded,
        prepared,
      );
    case 'charge.dispute.closed':
      if (event.data.object.status !== 'lost' || !prepared.charge) return false;
      return paymentTakenBack(
        trx,
        prepared.charge,
        'chargeback',
        event.data.object.amount,
        prepared,
      );
    default:
      return false;
  }
}

function addPeriod(from: Date, period: string): string {
  const end = new Date(from);
  if (period === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCMonth(end.getUTCMonth() + 1);
  return end.toISOString();
}

/**
 * What is wrong with a paid `session` as the payment of `checkout`, or null when it is what was
 * sold: the checkout's own session, paid the amount and currency the checkout sold (its
 * package's price when it began; for one begun before prices were stored, the package's now).
 */
function notAsSold(
  session: Stripe.Checkout.Session,
  checkout: CheckoutRow,
  pack: PackageRow,
): string | null {
  if (session.id !== checkout.stripe_session_id)
    return `paid session ${session.id} is not the checkout's (${checkout.stripe_session_id ?? 'none'})`;
  const amount = checkout.price_amount ?? pack.price_amount;
  const currency = (checkout.price_currency ?? pack.price_currency).toUpperCase();
  const paid = (session.currency ?? '').toUpperCase();
  if (session.amount_total === amount && paid === currency) return null;
  return `paid ${session.amount_total ?? 'no amount'} ${paid || 'in no currency'}, sold for ${amount} ${currency}`;
}

/**
 * A paid checkout: its package's chats and gold coins, and for a plan, the subscription. The
 * checkout becomes `paid` by a conditional change (`where state <> 'paid'`), and only the
 * event that made it grants: on PostgreSQL a second transaction waits for the first's row,
 * then finds it paid. A session that is not what was sold is refused: the checkout is marked
 * `failed` with the reason in `problem`, and nothing is granted.
 */
async function sessionPaid(
  trx: Trx,
  session: Stripe.Checkout.Session,
  subscription: Stripe.Subscription | undefined,
): Promise<boolean | Refused> {
  if (session.payment_status === 'unpaid') return false; // an async payment: wait for its event
  const checkoutId = session.metadata?.checkoutId;
  if (!checkoutId) return false; // not started by Mates
  const checkout = await checkoutById(trx, checkoutId);
  if (!checkout || checkout.state === 'paid') return false;
  const pack = await packageById(trx, checkout.package_id);
  if (!pack) return false;
  const problem = notAsSold(session, checkout, pack);
  if (problem) return (await refuseCheckout(trx, checkout.id, problem)) ? { problem } : false;
  const paid = await markCheckoutPaid(trx, checkout.id, {
    paymentIntent: idOf(session.payment_intent),
    chats: pack.chats,
    goldCoins: pack.gold_coins,
  });
  // Another event of this payment made it paid first (and granted it).
  if (!paid) return false;
  const plan = pack.period !== 'once';
  await addBenefits(
    trx,
    checkout.user_id,
    { chats: pack.chats, goldCoins: pack.gold_coins },
    {
      kind: 'purchase',
      reason: plan
        ? planBought(pack)
        : { key: 'ledger.reasons.package', args: { name: pack.name } },
      reference: { type: 'package', id: pack.id },
    },
  );
  if (plan) await planStarted(trx, session, subscription, checkout.user_id, pack);
  return true;
}

/** The ledger's reason for a plan's first period: `Plus plan, first month`. */
function planBought(pack: PackageRow): Reason {
  const args = { name: pack.name };
  if (pack.period === 'year') return { key: 'ledger.reasons.planFirstYear', args };
  return { key: 'ledger.reasons.planFirstMonth', args };
}

/**
 * The plan a paid checkout bought: stored as Stripe's subscription says (or from now, for one
 * period, when Stripe gave none), with its first invoice's payment for a refund to find.
 */
async function planStarted(
  trx: Trx,
  session: Stripe.Checkout.Session,
  subscription: Stripe.Subscription | undefined,
  userId: string,
  pack: PackageRow,
): Promise<void> {
  const started = new Date();
  await savePlan(trx, userId, {
    package_id: pack.id,
    status: subscription ? statusOf(subscription) : 'active',
    started_at: started.toISOString(),
    current_period_end:
      (subscription && periodEnd(subscription)) ?? addPeriod(started, pack.period),
    stripe_subscription_id: idOf(session.subscription),
    stripe_customer_id: idOf(session.customer),
    cancel_at_period_end: subscription?.cancel_at_period_end ?? false,
  });
  const invoice = idOf(session.invoice);
  if (invoice) await recordPlanPayment(trx, planPayment(invoice, userId, pack));
}

/** What one of a plan's payments granted, by its invoice, for a refund to take back. */
function planPayment(invoiceId: string, userId: string, pack: PackageRow) {
  return { invoiceId, userId, packageId: pack.id, chats: pack.chats, goldCoins: pack.gold_coins };
}

/** A checkout that ended unpaid (refused, or never finished in time). */
async function sessionEnded(
  trx: Trx,
  session: Stripe.Checkout.Session,
  state: 'failed' | 'expired',
): Promise<boolean> {
  const checkoutId = session.metadata?.checkoutId;
  if (!checkoutId) return false;
  return endUnpaidCheckout(trx, checkoutId, state);
}

/**
 * A plan's invoice paid: each renewal grants the package again, once per invoice. The invoice's
 * row in `plan_payments` is written first and grants only when it is new: of two events for
 * one invoice at once, PostgreSQL makes the second wait for the first's row, then find it.
 */
async function invoicePaid(trx: Trx, invoice: Stripe.Invoice, created: number): Promise<boolean> {
  // The first invoice is the checkout's own payment, granted with the checkout.
  if (invoice.billing_reason !== 'subscription_cycle') return false;
  const stripeId = invoiceSubscription(invoice);
  if (!stripeId) return false;
  const subscription = await planOfStripeSubscription(trx, stripeId);
  if (!subscription) {
    if (invoice.parent?.subscription_details?.metadata?.checkoutId) throw new EventTooEarly();
    return false;
  }
  const pack = await packageById(trx, subscription.package_id);
  if (!pack) return false;
  if (!(await recordPlanPayment(trx, planPayment(invoice.id, subscription.user_id, pack))))
    return false;
  const lineEnd = invoice.lines?.data?.[0]?.period?.end;
  await renewPlan(trx, subscription.user_id, {
    ...(lineEnd && { currentPeriodEnd: new Date(lineEnd * 1000).toISOString() }),
    eventAt: created,
  });
  await addBenefits(
    trx,
    subscription.user_id,
    { chats: pack.chats, goldCoins: pack.gold_coins },
    {
      kind: 'renewal',
      reason: { key: 'ledger.reasons.planRenewed', args: { name: pack.name } },
      reference: { type: 'package', id: pack.id },
    },
  );
  return true;
}

/** A plan changed at Stripe (cancelled at period end, resumed, renewed, ended). */
async function subscriptionChanged(
  trx: Trx,
  subscription: Stripe.Subscription,
  created: number,
  type: 'customer.subscription.updated' | 'customer.subscription.deleted',
): Promise<boolean> {
  const row = await planOfStripeSubscription(trx, subscription.id);
  if (!row) {
    if (subscription.metadata?.checkoutId) throw new EventTooEarly();
    return false;
  }
  // Stripe does not promise order: an event older than the last one applied is stale. Checked
  // again by the change itself: an event about the plan applied meanwhile (on PostgreSQL, by
  // another transaction, which this one waits for) may be newer.
  if (created < Number(row.stripe_event_at)) return false;
  const deleted = type === 'customer.subscription.deleted';
  return changePlan(trx, row.user_id, {
    status: deleted ? 'canceled' : statusOf(subscription),
    cancelAtPeriodEnd: deleted ? false : subscription.cancel_at_period_end,
    currentPeriodEnd: periodEnd(subscription),
    eventAt: created,
  });
}
