import type Stripe from 'stripe';

/**
 * An event that arrived before what it depends on (a renewal for a subscription whose checkout
 * is not fulfilled yet). The webhook answers 503 and nothing is written, so Stripe delivers it
 * again later, by then in order.
 */
export class EventTooEarly extends Error {
  override name = 'EventTooEarly';
}

/**
 * What became of one delivered event: `refused` is a paid checkout that is not what was sold,
 * recorded on the checkout (its `problem`) and granted nothing.
 */
export type Fulfilment = 'fulfilled' | 'duplicate' | 'ignored' | 'refused';

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

/** The id of something Stripe gives as its id or as the object itself. */
export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/** When a subscription's current period ends, as stored (ISO). */
export function periodEnd(subscription: Stripe.Subscription): string | null {
  const end = subscription.items?.data?.[0]?.current_period_end;
  return end ? new Date(end * 1000).toISOString() : null;
}

/** What Stripe's subscription status means here. */
export function statusOf(subscription: Stripe.Subscription): 'active' | 'canceled' | 'expired' {
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

/** The subscription an invoice bills, by its Stripe id. */
export function invoiceSubscription(invoice: Stripe.Invoice): string | null {
  return idOf(invoice.parent?.subscription_details?.subscription ?? null);
}
