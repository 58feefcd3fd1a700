import type { Kysely, Selectable, Transaction } from 'kysely';
import type Stripe from 'stripe';
import type { Database, PackageTable } from '../db/schema';
import { now } from '../db/dialect';
import { addBenefits, takeBackUpTo } from '../accounts/benefits';

type Trx = Transaction<Database>;

/**
 * An event that arrived before what it depends on (a renewal for a subscription whose checkout
 * is not fulfilled yet). The webhook answers 503 and nothing is written, so Stripe delivers it
 * again later, by then in order.
 */
export class EventTooEarly extends Error {
  override name = 'EventTooEarly';
}

/** What became of one delivered event. */
export type Fulfilment = 'fulfilled' | 'duplicate' | 'ignored';

/**
 * Applies one verified Stripe event, exactly once: the event's id is written in the same
 * transaction as its effect, so a second delivery (Stripe delivers at least once) finds it and
 * changes nothing, and a failure writes neither. `prepare` is read before the transaction
 * (calls to Stripe never hold a database transaction open).
 */
export async function fulfilEvent(
  db: Kysely<Database>,
  event: Stripe.Event,
  prepared: Prepared = {},
): Promise<Fulfilment> {
  return db.transaction().execute(async (trx) => {
    const first = await trx
      .insertInto('payment_events')
      .values({ id: event.id, type: event.type, processed_at: now() })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!first) return 'duplicate';
    const applied = await apply(trx, event, prepared);
    return applied ? 'fulfilled' : 'ignored';
  });
}

/**
 * What an event needs from Stripe besides itself: the subscription a checkout started; the
 * payment a refunded charge was part of (its metadata names the checkout).
 */
export interface Prepared {
  subscription?: Stripe.Subscription;
  paymentIntent?: Stripe.PaymentIntent;
}

async function apply(trx: Trx, event: Stripe.Event, prepared: Prepared): Promise<boolean> {
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
      return chargeRefunded(trx, event.data.object, prepared.paymentIntent);
    default:
      return false;
  }
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/** When a subscription's current period ends, as stored (ISO). */
function periodEnd(subscription: Stripe.Subscription): string | null {
  const end = subscription.items?.data?.[0]?.current_period_end;
  return end ? new Date(end * 1000).toISOString() : null;
}

/** What Stripe's subscription status means here. */
function statusOf(subscription: Stripe.Subscription): 'active' | 'canceled' | 'expired' {
  switch (subscription.status) {
    case 'canceled':
      return 'canceled';
    case 'unpaid':
    case 'incomplete_expired':
      return 'expired';
    default:
      return 'active';
  }
}

function addPeriod(from: Date, period: string): string {
  const end = new Date(from);
  if (period === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCMonth(end.getUTCMonth() + 1);
  return end.toISOString();
}

async function packageOf(trx: Trx, id: string): Promise<Selectable<PackageTable> | undefined> {
  return trx.selectFrom('packages').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A paid checkout: its package's chats and gold coins, and for a plan, the subscription. */
async function sessionPaid(
  trx: Trx,
  session: Stripe.Checkout.Session,
  subscription: Stripe.Subscription | undefined,
): Promise<boolean> {
  if (session.payment_status === 'unpaid') return false; // an async payment: wait for its event
  const checkoutId = session.metadata?.checkoutId;
  if (!checkoutId) return false; // not started by Mates
  const checkout = await trx
    .selectFrom('checkouts')
    .selectAll()
    .where('id', '=', checkoutId)
    .executeTakeFirst();
  if (!checkout || checkout.state === 'paid') return false;
  const pack = await packageOf(trx, checkout.package_id);
  if (!pack) return false;
  await trx
    .updateTable('checkouts')
    .set({
      state: 'paid',
      stripe_payment_intent: idOf(session.payment_intent),
      chats_granted: pack.chats,
      gold_coins_granted: pack.gold_coins,
      updated_at: now(),
    })
    .where('id', '=', checkout.id)
    .execute();
  const plan = pack.period !== 'once';
  await addBenefits(
    trx,
    checkout.user_id,
    { chats: pack.chats, goldCoins: pack.gold_coins },
    {
      kind: 'purchase',
      reason: plan ? `${pack.name} plan, first ${pack.period}` : pack.name,
      reference: { type: 'package', id: pack.id },
    },
  );
  if (plan) {
    const started = new Date();
    const row = {
      package_id: pack.id,
      status: subscription ? statusOf(subscription) : 'active',
      started_at: started.toISOString(),
      current_period_end:
        (subscription && periodEnd(subscription)) ?? addPeriod(started, pack.period),
      stripe_subscription_id: idOf(session.subscription),
      stripe_customer_id: idOf(session.customer),
      cancel_at_period_end: subscription?.cancel_at_period_end ?? false,
    };
    await trx
      .insertInto('subscriptions')
      .values({ user_id: checkout.user_id, ...row })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
      .execute();
  }
  return true;
}

/** A checkout that ended unpaid (refused, or never finished in time). */
async function sessionEnded(
  trx: Trx,
  session: Stripe.Checkout.Session,
  state: 'failed' | 'expired',
): Promise<boolean> {
  const checkoutId = session.metadata?.checkoutId;
  if (!checkoutId) return false;
  const changed = await trx
    .updateTable('checkouts')
    .set({ state, updated_at: now() })
    .where('id', '=', checkoutId)
    .where('state', 'in', ['open', 'cancelled'])
    .executeTakeFirst();
  return Number(changed.numUpdatedRows) > 0;
}

/** The subscription an invoice bills, by its Stripe id. */
function invoiceSubscription(invoice: Stripe.Invoice): string | null {
  return idOf(invoice.parent?.subscription_details?.subscription ?? null);
}

/** A plan's invoice paid: each renewal grants the package again. */
async function invoicePaid(trx: Trx, invoice: Stripe.Invoice, created: number): Promise<boolean> {
  // The first invoice is the checkout's own payment, granted with the checkout.
  if (invoice.billing_reason !== 'subscription_cycle') return false;
  const stripeId = invoiceSubscription(invoice);
  if (!stripeId) return false;
  const subscription = await trx
    .selectFrom('subscriptions')
    .selectAll()
    .where('stripe_subscription_id', '=', stripeId)
    .executeTakeFirst();
  if (!subscription) {
    if (invoice.parent?.subscription_details?.metadata?.checkoutId) throw new EventTooEarly();
    return false;
  }
  const pack = await packageOf(trx, subscription.package_id);
  if (!pack) return false;
  const lineEnd = invoice.lines?.data?.[0]?.period?.end;
  await trx
    .updateTable('subscriptions')
    .set({
      status: 'active',
      ...(lineEnd && { current_period_end: new Date(lineEnd * 1000).toISOString() }),
      stripe_event_at: Math.max(Number(subscription.stripe_event_at), created),
    })
    .where('user_id', '=', subscription.user_id)
    .execute();
  await addBenefits(
    trx,
    subscription.user_id,
    { chats: pack.chats, goldCoins: pack.gold_coins },
    {
      kind: 'renewal',
      reason: `${pack.name} plan renewed`,
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
  const row = await trx
    .selectFrom('subscriptions')
    .selectAll()
    .where('stripe_subscription_id', '=', subscription.id)
    .executeTakeFirst();
  if (!row) {
    if (subscription.metadata?.checkoutId) throw new EventTooEarly();
    return false;
  }
  // Stripe does not promise order: an event older than the last one applied is stale.
  if (created < Number(row.stripe_event_at)) return false;
  const end = periodEnd(subscription);
  await trx
    .updateTable('subscriptions')
    .set({
      status: type === 'customer.subscription.deleted' ? 'canceled' : statusOf(subscription),
      cancel_at_period_end:
        type === 'customer.subscription.deleted' ? false : subscription.cancel_at_period_end,
      ...(end && { current_period_end: end }),
      stripe_event_at: created,
    })
    .where('user_id', '=', row.user_id)
    .execute();
  return true;
}

/**
 * A payment refunded (in whole or in part): takes back the same share of what the pack
 * granted, as far as it is unspent; what was spent already is said in the ledger row. A refund
 * of a checkout of Mates (`paymentIntent`'s metadata) that is not fulfilled yet came first:
 * {@link EventTooEarly}, so that it applies after the payment rather than never.
 */
async function chargeRefunded(
  trx: Trx,
  charge: Stripe.Charge,
  paymentIntent: Stripe.PaymentIntent | undefined,
): Promise<boolean> {
  const intent = idOf(charge.payment_intent);
  if (!intent || charge.amount <= 0) return false;
  const checkout = await trx
    .selectFrom('checkouts')
    .selectAll()
    .where('stripe_payment_intent', '=', intent)
    .executeTakeFirst();
  if (!checkout) {
    const checkoutId = charge.metadata?.checkoutId ?? paymentIntent?.metadata?.checkoutId;
    // Only one its payment can still fulfil: open, of a package that still exists.
    const unpaid =
      checkoutId &&
      (await trx
        .selectFrom('checkouts')
        .innerJoin('packages', 'packages.id', 'checkouts.package_id')
        .select('checkouts.state')
        .where('checkouts.id', '=', checkoutId)
        .where('checkouts.state', 'in', ['open', 'cancelled'])
        .executeTakeFirst());
    if (unpaid) throw new EventTooEarly();
    return false;
  }
  if (charge.amount_refunded <= checkout.amount_refunded) return false;
  const pack = await packageOf(trx, checkout.package_id);
  const share = (refunded: number, granted: number) =>
    Math.floor((granted * Math.min(refunded, charge.amount)) / charge.amount);
  const want = {
    chats:
      share(charge.amount_refunded, checkout.chats_granted) -
      share(checkout.amount_refunded, checkout.chats_granted),
    goldCoins:
      share(charge.amount_refunded, checkout.gold_coins_granted) -
      share(checkout.amount_refunded, checkout.gold_coins_granted),
  };
  await trx
    .updateTable('checkouts')
    .set({ amount_refunded: charge.amount_refunded, updated_at: now() })
    .where('id', '=', checkout.id)
    .execute();
  const name = pack?.name ?? checkout.package_id;
  await takeBackUpTo(
    trx,
    checkout.user_id,
    want,
    (taken) => {
      const spent = [
        want.chats > taken.chats ? `${want.chats - taken.chats} chats` : '',
        want.goldCoins > taken.goldCoins ? `${want.goldCoins - taken.goldCoins} gold coins` : '',
      ].filter(Boolean);
      return spent.length
        ? `payment refunded: ${name} (${spent.join(' and ')} already spent)`
        : `payment refunded: ${name}`;
    },
    { type: 'package', id: checkout.package_id },
  );
  return true;
}
