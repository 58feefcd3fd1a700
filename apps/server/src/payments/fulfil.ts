import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type Stripe from 'stripe';
import type { CheckoutTable, Database, PackageTable } from '../db/schema';
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

/**
 * What became of one delivered event: `refused` is a paid checkout that is not what was sold
 * (see {@link Refused}), recorded on the checkout and granted nothing.
 */
export type Fulfilment = 'fulfilled' | 'duplicate' | 'ignored' | 'refused';

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
 * payment's own row, which PostgreSQL lets only one transaction make. `prepare` is read before
 * the transaction (calls to Stripe never hold a database transaction open).
 */
export async function fulfilEvent(
  db: Kysely<Database>,
  event: Stripe.Event,
  prepared: Prepared = {},
): Promise<{ result: Fulfilment; problem?: string }> {
  return db.transaction().execute(async (trx) => {
    const first = await trx
      .insertInto('payment_events')
      .values({ id: event.id, type: event.type, processed_at: now() })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!first) return { result: 'duplicate' };
    const applied = await apply(trx, event, prepared);
    if (typeof applied === 'object') return { result: 'refused', problem: applied.problem };
    return { result: applied ? 'fulfilled' : 'ignored' };
  });
}

/**
 * What an event needs from Stripe besides itself: the subscription a checkout started; for a
 * refund or a lost chargeback, the charge (a dispute names it only by its id), the plan's
 * invoice its payment paid, and the payment itself (its metadata names the checkout).
 */
export interface Prepared {
  subscription?: Stripe.Subscription;
  charge?: Stripe.Charge;
  /** The invoice the payment paid, by its id, where it paid one. */
  invoiceId?: string;
  /** That invoice, where no plan payment of Mates is stored for it yet. */
  invoice?: Stripe.Invoice;
  paymentIntent?: Stripe.PaymentIntent;
}

/**
 * Reads from Stripe what `event` needs (see {@link Prepared}), before its transaction: calls to
 * Stripe never hold one open. Only what the database does not already know is asked.
 */
export async function prepareEvent(
  stripe: Stripe,
  db: Kysely<Database>,
  event: Stripe.Event,
): Promise<Prepared> {
  const prepared: Prepared = {};
  if (
    (event.type === 'checkout.session.completed' ||
      event.type === 'checkout.session.async_payment_succeeded') &&
    event.data.object.subscription
  ) {
    const id = event.data.object.subscription;
    prepared.subscription = typeof id === 'string' ? await stripe.subscriptions.retrieve(id) : id;
  }
  let charge: Stripe.Charge | undefined;
  if (event.type === 'charge.refunded') charge = event.data.object;
  if (event.type === 'charge.dispute.closed' && event.data.object.status === 'lost') {
    const id = idOf(event.data.object.charge);
    // A charge this account does not have (another account's dispute) is none of Mates'.
    charge = id
      ? (prepared.charge = await stripe.charges.retrieve(id).catch((error: unknown) => {
          if ((error as { statusCode?: number }).statusCode === 404) return undefined;
          throw error;
        }))
      : undefined;
  }
  const intent = idOf(charge?.payment_intent);
  if (!charge || !intent) return prepared;
  const known = await db
    .selectFrom('checkouts')
    .select('id')
    .where('stripe_payment_intent', '=', intent)
    .executeTakeFirst();
  if (known) return prepared;
  // A plan's payment: its invoice, through the invoice payment that ties the two.
  const [payment] = (
    await stripe.invoicePayments.list({
      payment: { type: 'payment_intent', payment_intent: intent },
      limit: 1,
    })
  ).data;
  const invoiceId = idOf(payment?.invoice);
  if (invoiceId) {
    prepared.invoiceId = invoiceId;
    const stored = await db
      .selectFrom('plan_payments')
      .select('invoice_id')
      .where('invoice_id', '=', invoiceId)
      .executeTakeFirst();
    if (!stored) prepared.invoice = await stripe.invoices.retrieve(invoiceId);
  } else if (!charge.metadata?.checkoutId) {
    prepared.paymentIntent = await stripe.paymentIntents.retrieve(intent);
  }
  return prepared;
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

/**
 * What is wrong with a paid `session` as the payment of `checkout`, or null when it is what was
 * sold: the checkout's own session, paid the amount and currency the checkout sold (its
 * package's price when it began; for one begun before prices were stored, the package's now).
 */
function notAsSold(
  session: Stripe.Checkout.Session,
  checkout: Selectable<CheckoutTable>,
  pack: Selectable<PackageTable>,
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
  const checkout = await trx
    .selectFrom('checkouts')
    .selectAll()
    .where('id', '=', checkoutId)
    .executeTakeFirst();
  if (!checkout || checkout.state === 'paid') return false;
  const pack = await packageOf(trx, checkout.package_id);
  if (!pack) return false;
  const problem = notAsSold(session, checkout, pack);
  if (problem) {
    const refused = await trx
      .updateTable('checkouts')
      .set({ state: 'failed', problem, updated_at: now() })
      .where('id', '=', checkout.id)
      .where('state', '<>', 'paid')
      .executeTakeFirst();
    return Number(refused.numUpdatedRows) > 0 ? { problem } : false;
  }
  const paid = await trx
    .updateTable('checkouts')
    .set({
      state: 'paid',
      stripe_payment_intent: idOf(session.payment_intent),
      chats_granted: pack.chats,
      gold_coins_granted: pack.gold_coins,
      updated_at: now(),
    })
    .where('id', '=', checkout.id)
    .where('state', '<>', 'paid')
    .executeTakeFirst();
  // Another event of this payment made it paid first (and granted it).
  if (Number(paid.numUpdatedRows) === 0) return false;
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
    const invoice = idOf(session.invoice);
    if (invoice) await recordPlanPayment(trx, invoice, checkout.user_id, pack);
  }
  return true;
}

/**
 * What one of a plan's payments granted, by its invoice, for a refund to take back. Whether it
 * was stored now: false when the invoice has its row already (another event of the same payment
 * stored it, and granted it).
 */
async function recordPlanPayment(
  trx: Trx,
  invoiceId: string,
  userId: string,
  pack: Selectable<PackageTable>,
): Promise<boolean> {
  const stored = await trx
    .insertInto('plan_payments')
    .values({
      invoice_id: invoiceId,
      user_id: userId,
      package_id: pack.id,
      chats_granted: pack.chats,
      gold_coins_granted: pack.gold_coins,
      created_at: now(),
    })
    .onConflict((oc) => oc.column('invoice_id').doNothing())
    .returning('invoice_id')
    .executeTakeFirst();
  return Boolean(stored);
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
  if (!(await recordPlanPayment(trx, invoice.id, subscription.user_id, pack))) return false;
  const lineEnd = invoice.lines?.data?.[0]?.period?.end;
  await trx
    .updateTable('subscriptions')
    .set({
      status: 'active',
      ...(lineEnd && { current_period_end: new Date(lineEnd * 1000).toISOString() }),
      // The later of the two, as the row is now (an event applied meanwhile may be newer).
      stripe_event_at: sql<number>`case when stripe_event_at > ${created} then stripe_event_at else ${created} end`,
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
  // Stripe does not promise order: an event older than the last one applied is stale. Checked
  // again by the change itself: an event about the plan applied meanwhile (on PostgreSQL, by
  // another transaction, which this one waits for) may be newer.
  if (created < Number(row.stripe_event_at)) return false;
  const end = periodEnd(subscription);
  const changed = await trx
    .updateTable('subscriptions')
    .set({
      status: type === 'customer.subscription.deleted' ? 'canceled' : statusOf(subscription),
      cancel_at_period_end:
        type === 'customer.subscription.deleted' ? false : subscription.cancel_at_period_end,
      ...(end && { current_period_end: end }),
      stripe_event_at: created,
    })
    .where('user_id', '=', row.user_id)
    .where('stripe_event_at', '<=', created)
    .executeTakeFirst();
  return Number(changed.numUpdatedRows) > 0;
}

/** A payment of Mates as a refund or a chargeback finds it: a pack's checkout or a plan's month. */
interface Payment {
  userId: string;
  packageId: string;
  plan: boolean;
  chatsGranted: number;
  goldCoinsGranted: number;
  amountRefunded: number;
  amountDisputed: number;
  /** Records what refunds and chargebacks have taken back so far. */
  update: (amounts: { amount_refunded: number; amount_disputed: number }) => Promise<unknown>;
}

/**
 * The payment `intent` was: a pack's checkout, or the plan's month whose invoice it paid. Its
 * row is read by a write that changes nothing, which on PostgreSQL locks it until the commit:
 * two refunds (or a refund and a chargeback) of one payment delivered at once to two servers
 * then take back one after the other, each from what the other left.
 */
async function paymentOf(trx: Trx, intent: string, invoiceId?: string): Promise<Payment | null> {
  const checkout = await trx
    .updateTable('checkouts')
    .set((eb) => ({ amount_refunded: eb.ref('amount_refunded') }))
    .where('stripe_payment_intent', '=', intent)
    .returningAll()
    .executeTakeFirst();
  if (checkout)
    return {
      userId: checkout.user_id,
      packageId: checkout.package_id,
      plan: false,
      chatsGranted: checkout.chats_granted,
      goldCoinsGranted: checkout.gold_coins_granted,
      amountRefunded: checkout.amount_refunded,
      amountDisputed: checkout.amount_disputed,
      update: (amounts) =>
        trx
          .updateTable('checkouts')
          .set({ ...amounts, updated_at: now() })
          .where('id', '=', checkout.id)
          .execute(),
    };
  const month = invoiceId
    ? await trx
        .updateTable('plan_payments')
        .set((eb) => ({ amount_refunded: eb.ref('amount_refunded') }))
        .where('invoice_id', '=', invoiceId)
        .returningAll()
        .executeTakeFirst()
    : undefined;
  if (!month) return null;
  return {
    userId: month.user_id,
    packageId: month.package_id,
    plan: true,
    chatsGranted: month.chats_granted,
    goldCoinsGranted: month.gold_coins_granted,
    amountRefunded: month.amount_refunded,
    amountDisputed: month.amount_disputed,
    update: (amounts) =>
      trx
        .updateTable('plan_payments')
        .set(amounts)
        .where('invoice_id', '=', month.invoice_id)
        .execute(),
  };
}

/** The migration from which on every plan payment is stored (`plan_payments`). */
const PLAN_PAYMENTS_MIGRATION = '2026-11-26-0025-plan-payments';

/**
 * Whether the payment a refund or chargeback names is one of Mates' whose own event has not
 * come yet (Stripe does not promise order): a pack's or a plan's checkout still open, of a
 * package that exists; or a renewal of a plan stored here, paid since plan payments are stored
 * (its `invoice.paid` not applied yet). A month paid before that (the upgrade's migration) has
 * no row and never will: its refund is ignored rather than asked again for days. The stored
 * period cannot tell the two apart: `customer.subscription.updated` moves it on at the
 * renewal, before the invoice is paid.
 */
async function grantStillToCome(trx: Trx, charge: Stripe.Charge, prepared: Prepared) {
  const invoice = prepared.invoice;
  const checkoutId = invoice
    ? invoice.parent?.subscription_details?.metadata?.checkoutId
    : (charge.metadata?.checkoutId ?? prepared.paymentIntent?.metadata?.checkoutId);
  if (!checkoutId) return false;
  if (invoice && invoice.billing_reason === 'subscription_cycle') {
    const subscription = idOf(invoice.parent?.subscription_details?.subscription ?? null);
    const running =
      subscription &&
      (await trx
        .selectFrom('subscriptions')
        .innerJoin('packages', 'packages.id', 'subscriptions.package_id')
        .select('subscriptions.user_id')
        .where('subscriptions.stripe_subscription_id', '=', subscription)
        .executeTakeFirst());
    if (!running) return false;
    const { rows } = await sql<{ timestamp: string | Date }>`
      select timestamp from kysely_migration where name = ${PLAN_PAYMENTS_MIGRATION}`.execute(trx);
    // In whole seconds, as Stripe gives times: paid in the second the migration ran counts.
    const storedSince = rows[0] ? Math.floor(new Date(rows[0].timestamp).getTime() / 1000) : 0;
    return (invoice.status_transitions?.paid_at ?? invoice.created) >= storedSince;
  }
  if (invoice && invoice.billing_reason !== 'subscription_create') return false;
  const unpaid = await trx
    .selectFrom('checkouts')
    .innerJoin('packages', 'packages.id', 'checkouts.package_id')
    .select('checkouts.state')
    .where('checkouts.id', '=', checkoutId)
    .where('checkouts.state', 'in', ['open', 'cancelled'])
    .executeTakeFirst();
  return Boolean(unpaid);
}

/**
 * A payment refunded (in whole or in part) or charged back (a chargeback lost): takes back the
 * same share of what that payment granted (a pack, or a plan's month), as far as it is unspent;
 * what was spent already is said in the ledger row. `total` is the charge's amount refunded so
 * far, or the dispute's amount. A refund and a chargeback of the same payment never take back
 * more than the payment gave. One that comes before the payment's own event is
 * {@link EventTooEarly}, so that it applies after the payment rather than never.
 */
async function paymentTakenBack(
  trx: Trx,
  charge: Stripe.Charge,
  how: 'refund' | 'chargeback',
  total: number,
  prepared: Prepared,
): Promise<boolean> {
  const intent = idOf(charge.payment_intent);
  if (!intent || charge.amount <= 0) return false;
  const payment = await paymentOf(trx, intent, prepared.invoiceId);
  if (!payment) {
    if (await grantStillToCome(trx, charge, prepared)) throw new EventTooEarly();
    return false;
  }
  const refunded =
    how === 'refund' ? Math.max(payment.amountRefunded, total) : payment.amountRefunded;
  const disputed =
    how === 'chargeback' ? Math.max(payment.amountDisputed, total) : payment.amountDisputed;
  if (refunded === payment.amountRefunded && disputed === payment.amountDisputed) return false;
  await payment.update({ amount_refunded: refunded, amount_disputed: disputed });
  const share = (amount: number, granted: number) =>
    Math.floor((granted * Math.min(amount, charge.amount)) / charge.amount);
  const before = payment.amountRefunded + payment.amountDisputed;
  const after = refunded + disputed;
  const want = {
    chats: share(after, payment.chatsGranted) - share(before, payment.chatsGranted),
    goldCoins: share(after, payment.goldCoinsGranted) - share(before, payment.goldCoinsGranted),
  };
  const pack = await packageOf(trx, payment.packageId);
  const name = `${pack?.name ?? payment.packageId}${payment.plan ? ' plan' : ''}`;
  const what = how === 'refund' ? 'payment refunded' : 'chargeback lost';
  await takeBackUpTo(
    trx,
    payment.userId,
    want,
    (taken) => {
      const spent = [
        want.chats > taken.chats ? `${want.chats - taken.chats} chats` : '',
        want.goldCoins > taken.goldCoins ? `${want.goldCoins - taken.goldCoins} gold coins` : '',
      ].filter(Boolean);
      return spent.length
        ? `${what}: ${name} (${spent.join(' and ')} already spent)`
        : `${what}: ${name}`;
    },
    { type: 'package', id: payment.packageId },
  );
  return true;
}
