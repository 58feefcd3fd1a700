import type { Transaction } from 'kysely';
import type Stripe from 'stripe';
import type { Database } from '../db/schema';
import { takeBackUpTo } from '../accounts/benefits';
import type { KeyedReason, Reason } from '../accounts/ledger-reasons';
import {
  isUnpaidCheckout,
  lockCheckoutPaidBy,
  setCheckoutTakenBack,
  type TakenBackAmounts,
} from './checkout-repository';
import { packageById } from './package-repository';
import { migrationRanAt } from './payment-event-repository';
import { isRunningPlan, lockPlanPayment, setPlanPaymentTakenBack } from './plan-repository';
import { EventTooEarly, idOf, invoiceSubscription, type Prepared } from './stripe-events';

type Trx = Transaction<Database>;

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
  update: (amounts: TakenBackAmounts) => Promise<unknown>;
}

/**
 * The payment `intent` was: a pack's checkout, or the plan's month whose invoice it paid. Its
 * row is read by a write that changes nothing, which on PostgreSQL locks it until the commit:
 * two refunds (or a refund and a chargeback) of one payment delivered at once to two servers
 * then take back one after the other, each from what the other left.
 */
async function paymentOf(trx: Trx, intent: string, invoiceId?: string): Promise<Payment | null> {
  const checkout = await lockCheckoutPaidBy(trx, intent);
  if (checkout)
    return {
      userId: checkout.user_id,
      packageId: checkout.package_id,
      plan: false,
      chatsGranted: checkout.chats_granted,
      goldCoinsGranted: checkout.gold_coins_granted,
      amountRefunded: checkout.amount_refunded,
      amountDisputed: checkout.amount_disputed,
      update: (amounts) => setCheckoutTakenBack(trx, checkout.id, amounts),
    };
  const month = invoiceId ? await lockPlanPayment(trx, invoiceId) : undefined;
  if (!month) return null;
  return {
    userId: month.user_id,
    packageId: month.package_id,
    plan: true,
    chatsGranted: month.chats_granted,
    goldCoinsGranted: month.gold_coins_granted,
    amountRefunded: month.amount_refunded,
    amountDisputed: month.amount_disputed,
    update: (amounts) => setPlanPaymentTakenBack(trx, month.invoice_id, amounts),
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
    const subscription = invoiceSubscription(invoice);
    if (!subscription || !(await isRunningPlan(trx, subscription))) return false;
    const ranAt = await migrationRanAt(trx, PLAN_PAYMENTS_MIGRATION);
    // In whole seconds, as Stripe gives times: paid in the second the migration ran counts.
    const storedSince = ranAt ? Math.floor(ranAt.getTime() / 1000) : 0;
    return (invoice.status_transitions?.paid_at ?? invoice.created) >= storedSince;
  }
  if (invoice && invoice.billing_reason !== 'subscription_create') return false;
  return isUnpaidCheckout(trx, checkoutId);
}

/**
 * A payment refunded (in whole or in part) or charged back (a chargeback lost): takes back the
 * same share of what that payment granted (a pack, or a plan's month), as far as it is unspent;
 * what was spent already is said in the ledger row. `total` is the charge's amount refunded so
 * far, or the dispute's amount. A refund and a chargeback of the same payment never take back
 * more than the payment gave. One that comes before the payment's own event is
 * {@link EventTooEarly}, so that it applies after the payment rather than never.
 */
export async function paymentTakenBack(
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
  const want = shareTakenBack(charge.amount, payment, refunded + disputed);
  const pack = await packageById(trx, payment.packageId);
  const name = pack?.name ?? payment.packageId;
  const what: KeyedReason | string = payment.plan
    ? { key: 'ledger.parts.plan', args: { name } }
    : name;
  await takeBackUpTo(
    trx,
    payment.userId,
    want,
    (taken) =>
      takenBackReason(how, what, {
        chats: want.chats - taken.chats,
        goldCoins: want.goldCoins - taken.goldCoins,
      }),
    { type: 'package', id: payment.packageId },
  );
  return true;
}

/**
 * The ledger's reason for a payment taken back: `payment refunded: Plus plan`, with what was
 * already spent of it when some was (`(52 gold coins already spent)`).
 */
function takenBackReason(
  how: 'refund' | 'chargeback',
  what: KeyedReason | string,
  spent: { chats: number; goldCoins: number },
): Reason {
  const chats: KeyedReason = { key: 'ledger.parts.chats', args: { count: spent.chats } };
  const coins: KeyedReason = { key: 'ledger.parts.goldCoins', args: { count: spent.goldCoins } };
  const said: KeyedReason | null =
    spent.chats > 0 && spent.goldCoins > 0
      ? { key: 'ledger.parts.both', args: { chats, goldCoins: coins } }
      : spent.chats > 0
        ? chats
        : spent.goldCoins > 0
          ? coins
          : null;
  if (!said)
    return {
      key: how === 'refund' ? 'ledger.reasons.paymentRefunded' : 'ledger.reasons.chargebackLost',
      args: { what },
    };
  return {
    key:
      how === 'refund'
        ? 'ledger.reasons.paymentRefundedSpent'
        : 'ledger.reasons.chargebackLostSpent',
    args: { what, spent: said },
  };
}

/**
 * What taking back `after` (refunds and chargebacks together, of a charge of `amount`) takes
 * now, beyond what the amounts taken back before it took: the same share of what was granted.
 */
function shareTakenBack(amount: number, payment: Payment, after: number) {
  const share = (taken: number, granted: number) =>
    Math.floor((granted * Math.min(taken, amount)) / amount);
  const before = payment.amountRefunded + payment.amountDisputed;
  return {
    chats: share(after, payment.chatsGranted) - share(before, payment.chatsGranted),
    goldCoins: share(after, payment.goldCoinsGranted) - share(before, payment.goldCoinsGranted),
  };
}
