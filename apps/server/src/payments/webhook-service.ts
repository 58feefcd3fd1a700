import type Stripe from 'stripe';
import type { Logger } from '../logging/logger';
import { fulfilEvent } from './fulfil-service';
import { prepareEvent } from './prepare-event-service';
import { EventTooEarly, type Fulfilment } from './stripe-events';
import type { PaymentDeps } from './payment-deps';

/**
 * What became of one delivery to the webhook: payments are not set up here; its signature is
 * not Stripe's (with the library's reason); applied (or found a duplicate, ignored, refused);
 * too early (Stripe is to deliver it again later); or failed with nothing written.
 */
export type Delivery =
  | { kind: 'notSetUp' }
  | { kind: 'badSignature'; reason: string }
  | { kind: 'applied'; result: Fulfilment }
  | { kind: 'tooEarly' }
  | { kind: 'failed' };

/**
 * Receives one of Stripe's signed events: its signature checked by Stripe's library with the
 * webhook secret, what it needs read from Stripe, then applied exactly once. A paid checkout
 * that was not granted, and a failure, are logged on `log` (the request's).
 */
export async function receiveStripeEvent(
  deps: PaymentDeps,
  delivery: { payload: string; signature: string; log: Logger },
): Promise<Delivery> {
  if (!deps.stripe || !deps.webhookSecret) return { kind: 'notSetUp' };
  let event: Stripe.Event;
  try {
    event = deps.stripe.webhooks.constructEvent(
      delivery.payload,
      delivery.signature,
      deps.webhookSecret,
    );
  } catch (error) {
    return { kind: 'badSignature', reason: (error as Error).message };
  }
  try {
    const prepared = await prepareEvent({ db: deps.db, stripe: deps.stripe }, event);
    const { result, problem } = await fulfilEvent(deps, event, prepared);
    if (problem)
      delivery.log.error(
        `stripe event ${event.id} (${event.type}) not granted: ${problem} (kept on the checkout)`,
      );
    return { kind: 'applied', result };
  } catch (error) {
    if (error instanceof EventTooEarly) return { kind: 'tooEarly' };
    delivery.log.error(
      `stripe event ${event.id} (${event.type}) failed: ${(error as Error).message}`,
    );
    // Stripe delivers it again later; nothing of it was written.
    return { kind: 'failed' };
  }
}
