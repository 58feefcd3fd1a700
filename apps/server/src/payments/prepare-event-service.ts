import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import type { Database } from '../db/schema';
import { checkoutPaidBy } from './checkout-repository';
import { planPaymentStored } from './plan-repository';
import { idOf, type Prepared } from './stripe-events';

/** What reading an event's context needs: the database and Stripe's client. */
export interface PrepareDeps {
  db: Kysely<Database>;
  stripe: Stripe;
}

/**
 * Reads from Stripe what `event` needs (see {@link Prepared}), before its transaction: calls to
 * Stripe never hold one open. Only what the database does not already know is asked.
 */
export async function prepareEvent(deps: PrepareDeps, event: Stripe.Event): Promise<Prepared> {
  const prepared: Prepared = {};
  if (
    (event.type === 'checkout.session.completed' ||
      event.type === 'checkout.session.async_payment_succeeded') &&
    event.data.object.subscription
  ) {
    const id = event.data.object.subscription;
    prepared.subscription =
      typeof id === 'string' ? await deps.stripe.subscriptions.retrieve(id) : id;
  }
  const charge = await takenBackCharge(deps.stripe, event, prepared);
  const intent = idOf(charge?.payment_intent);
  if (!charge || !intent) return prepared;
  if (await checkoutPaidBy(deps.db, intent)) return prepared;
  await preparePlanPayment(deps, charge, intent, prepared);
  return prepared;
}

/**
 * The charge a refund or a lost chargeback takes back from, or undefined for other events (a
 * dispute names its charge by id: read from Stripe and kept in `prepared.charge`).
 */
async function takenBackCharge(
  stripe: Stripe,
  event: Stripe.Event,
  prepared: Prepared,
): Promise<Stripe.Charge | undefined> {
  if (event.type === 'charge.refunded') return event.data.object;
  if (event.type !== 'charge.dispute.closed' || event.data.object.status !== 'lost')
    return undefined;
  const id = idOf(event.data.object.charge);
  if (!id) return undefined;
  // A charge this account does not have (another account's dispute) is none of Mates'.
  return (prepared.charge = await stripe.charges.retrieve(id).catch((error: unknown) => {
    if ((error as { statusCode?: number }).statusCode === 404) return undefined;
    throw error;
  }));
}

/**
 * For a payment no checkout knows: a plan's payment, through the invoice payment that ties it
 * to its invoice (read unless its plan payment is stored); else the payment itself, when the
 * charge does not name its checkout.
 */
async function preparePlanPayment(
  deps: PrepareDeps,
  charge: Stripe.Charge,
  intent: string,
  prepared: Prepared,
): Promise<void> {
  const [payment] = (
    await deps.stripe.invoicePayments.list({
      payment: { type: 'payment_intent', payment_intent: intent },
      limit: 1,
    })
  ).data;
  const invoiceId = idOf(payment?.invoice);
  if (invoiceId) {
    prepared.invoiceId = invoiceId;
    if (!(await planPaymentStored(deps.db, invoiceId)))
      prepared.invoice = await deps.stripe.invoices.retrieve(invoiceId);
  } else if (!charge.metadata?.checkoutId) {
    prepared.paymentIntent = await deps.stripe.paymentIntents.retrieve(intent);
  }
}
