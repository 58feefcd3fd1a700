import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import { refused } from '../domain/errors';
import { createStripe } from './stripe-client';
import { checkoutReturnLinks } from './return-links';

/** What the payment services work with, built once per server. */
export interface PaymentDeps {
  db: Kysely<Database>;
  /** Stripe's client, or `null` when payments are not set up (no `STRIPE_*`). */
  stripe: Stripe | null;
  /** Signs and checks the way back from Checkout; `null` without payments. */
  returnLinks: ReturnType<typeof checkoutReturnLinks> | null;
  /** What Stripe signs its events with; `null` without payments. */
  webhookSecret: string | null;
  /** Where the web app is, for the ways back from Checkout. */
  publicUrl: string;
}

/** The payment services' dependencies for a server with `config`. */
export function paymentDeps(db: Kysely<Database>, config: Config): PaymentDeps {
  const payments = config.payments;
  return {
    db,
    stripe: payments ? createStripe(payments) : null,
    returnLinks: payments ? checkoutReturnLinks(payments.webhookSecret) : null,
    webhookSecret: payments?.webhookSecret ?? null,
    publicUrl: config.publicUrl,
  };
}

/** Stripe's client, or a refusal saying that payments are not set up. */
export function readyStripe(deps: PaymentDeps): Stripe {
  if (!deps.stripe) throw refused('notices.payments.notSetUp');
  return deps.stripe;
}

/**
 * Rethrows `error`, as the payment service being unreachable when it is one of Stripe's
 * failures, which are not ours: the service is down or refused for a while.
 */
export function stripeTrouble(deps: PaymentDeps, error: unknown): never {
  if (deps.stripe && error instanceof deps.stripe.errors.StripeError)
    throw refused('notices.payments.unreachable');
  throw error;
}
