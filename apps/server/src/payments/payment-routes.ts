import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { checkoutStatus, endCheckoutFromReturn, startCheckout } from './checkout-service';
import { changePlanEnd } from './plan-service';
import { paymentDeps } from './payment-deps';
import { receiveStripeEvent, type Delivery } from './webhook-service';

/**
 * Buying through Stripe: `POST /subscription/checkout` (a Checkout Session for a pack or a
 * plan), `GET /subscription/checkoutStatus` (where it stands; benefits are granted only by the
 * webhook), `POST /subscription/cancel` and `/resume` (the plan at period end), the buyer's way
 * back from Checkout (`GET /subscription/checkoutCancelled`) and Stripe's signed events
 * (`POST /stripe/webhook`). Without `STRIPE_*` each call answers that payments are not set up.
 */
export function paymentRoutes(deps: Deps): { subscription: Hono<ApiEnv>; stripe: Hono<ApiEnv> } {
  const payments = paymentDeps(deps.db, deps.config);
  const subscription = new Hono<ApiEnv>();
  const api = contract(subscription, '/subscription');

  api.post(
    '/subscription/checkout',
    z.object({ packageId: z.string().min(1).max(64) }),
    async (c, read) => {
      const user = requireUser(c);
      const { packageId } = await read();
      return startCheckout(payments, user, packageId);
    },
  );

  api.get(
    '/subscription/checkoutStatus',
    z.object({ checkoutId: z.string().min(1).max(64) }),
    async (c, read) => {
      const user = requireUser(c);
      const { checkoutId } = await read();
      return checkoutStatus(payments, user.id, checkoutId);
    },
  );

  api.post('/subscription/cancel', (c) => changePlanEnd(payments, requireUser(c).id, true));
  api.post('/subscription/resume', (c) => changePlanEnd(payments, requireUser(c).id, false));

  // Stripe's cancel_url: the buyer went back, and the browser returns to the package. Not
  // through `contract` (a redirect, not an envelope).
  subscription.get('/checkoutCancelled', async (c) => {
    const to = await endCheckoutFromReturn(payments, {
      checkoutId: c.req.query('checkoutId') ?? '',
      signature: c.req.query('signature') ?? '',
      expires: c.req.query('expires') ?? '',
      callerId: c.get('user')?.id ?? null,
    });
    return c.redirect(to, 303);
  });

  const webhook = new Hono<ApiEnv>();
  webhook.post('/webhook', async (c) => {
    const delivery = await receiveStripeEvent(payments, {
      payload: await c.req.text(),
      signature: c.req.header('stripe-signature') ?? '',
      log: c.get('log'),
    });
    return answerDelivery(c, delivery);
  });
  return { subscription, stripe: webhook };
}

/**
 * Stripe's answer (plain JSON, not an envelope): 2xx once applied; 503 and 500 have it
 * deliver the event again later; 400 for a signature that is not its own.
 */
function answerDelivery(c: Context<ApiEnv>, delivery: Delivery) {
  switch (delivery.kind) {
    case 'notSetUp':
      return c.json({ error: 'payments are not set up' }, 404);
    case 'badSignature':
      return c.json({ error: delivery.reason }, 400);
    case 'applied':
      return c.json({ received: true, result: delivery.result });
    case 'tooEarly':
      return c.json({ error: 'retry later' }, 503);
    case 'failed':
      return c.json({ error: 'not fulfilled' }, 500);
  }
}
