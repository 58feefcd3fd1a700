import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import type Stripe from 'stripe';
import type { Kysely, Selectable } from 'kysely';
import type { CheckoutState, Subscription, SubscriptionStatus } from '@mates/api-client';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { notFound, notice } from '../http/envelope';
import { isUniqueViolation, now, toBool } from '../db/dialect';
import type { Database, SubscriptionTable } from '../db/schema';
import { getBenefits } from '../accounts/benefits';
import { createStripe } from './stripe-client';
import { EventTooEarly, fulfilEvent, prepareEvent } from './fulfil';
import { checkoutReturnLinks } from './return-links';
import { en } from '../i18n/en';

/** How long a Stripe Checkout page stays valid (Stripe's shortest). */
export const CHECKOUT_LIFETIME_S = 30 * 60;

/**
 * How long a checkout may take to start, from its row to its Stripe session: three tries of
 * the client's 20 s timeout, and some. A plan checkout without a session older than this was
 * left by a server that stopped midway, and no longer blocks the next one.
 */
const CHECKOUT_START_MS = 90_000;

type SubscriptionRow = Selectable<SubscriptionTable>;

/** A stored subscription as the API shows it. */
export function toSubscription(row: SubscriptionRow): Subscription {
  return {
    packageId: row.package_id,
    status: row.status as SubscriptionStatus,
    startedAt: new Date(row.started_at).toISOString(),
    currentPeriodEnd: new Date(row.current_period_end).toISOString(),
    cancelAtPeriodEnd: toBool(row.cancel_at_period_end),
  };
}

async function ownCheckout(db: Kysely<Database>, userId: string, checkoutId: string) {
  const row = await db
    .selectFrom('checkouts')
    .selectAll()
    .where('id', '=', checkoutId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw notFound('Checkout');
  return row;
}

/**
 * Buying through Stripe: `POST /subscription/checkout` (a Checkout Session for a pack or a
 * plan), `GET /subscription/checkoutStatus` (where it stands; benefits are granted only by the
 * webhook), `POST /subscription/cancel` and `/resume` (the plan at period end), the buyer's way
 * back from Checkout (`GET /subscription/checkoutCancelled`) and Stripe's signed events
 * (`POST /stripe/webhook`). Without `STRIPE_*` each call answers that payments are not set up.
 */
export function paymentRoutes(deps: Deps): { subscription: Hono<ApiEnv>; stripe: Hono<ApiEnv> } {
  const { db, config } = deps;
  const stripe = config.payments ? createStripe(config.payments) : null;
  const returnLinks = config.payments ? checkoutReturnLinks(config.payments.webhookSecret) : null;
  const ready = () => {
    if (!stripe) throw notice(en.notices.payments.notSetUp);
    return stripe;
  };
  /** Stripe's failures that are not ours: the service is down or refused for a while. */
  const stripeTrouble = (error: unknown): never => {
    if (stripe && error instanceof stripe.errors.StripeError)
      throw notice(en.notices.payments.unreachable);
    throw error;
  };
  /**
   * Ends the user's plan checkout still open, at Stripe first, before another plan's begins:
   * two paid together left one subscription billed at Stripe and granted by nobody. One paid
   * already (its event not here yet) means the user has a plan: refused as such. One still
   * starting (its Stripe session not made yet, by a request running now) is refused too, unless
   * it is older than Stripe's calls can take (its server stopped midway).
   */
  const endOpenPlanCheckouts = async (client: Stripe, userId: string) => {
    const open = await db
      .selectFrom('checkouts')
      .select(['id', 'stripe_session_id', 'created_at'])
      .where('user_id', '=', userId)
      .where('state', '=', 'open')
      .where('plan', '=', true)
      .execute();
    for (const checkout of open) {
      if (checkout.stripe_session_id) {
        const session = await client.checkout.sessions
          .retrieve(checkout.stripe_session_id)
          .catch(stripeTrouble);
        if (session.status === 'complete') throw notice(en.notices.payments.planHeld);
        if (session.status === 'open')
          await client.checkout.sessions
            .expire(checkout.stripe_session_id)
            .catch(async (error: unknown) => {
              // Ended meanwhile (another checkout of the person's, started at the same moment,
              // expired it), or paid meanwhile: what it is now decides.
              if (!(error instanceof client.errors.StripeInvalidRequestError)) stripeTrouble(error);
              const current = await client.checkout.sessions
                .retrieve(checkout.stripe_session_id!)
                .catch(stripeTrouble);
              if (current.status === 'complete') throw notice(en.notices.payments.planHeld);
              if (current.status !== 'expired') stripeTrouble(error);
            });
      } else if (Date.now() - new Date(checkout.created_at).getTime() < CHECKOUT_START_MS) {
        throw notice(en.notices.payments.checkoutStarting);
      }
      await db
        .updateTable('checkouts')
        .set({ state: 'cancelled', updated_at: now() })
        .where('id', '=', checkout.id)
        .where('state', '=', 'open')
        .execute();
    }
  };
  const subscription = new Hono<ApiEnv>();
  const api = contract(subscription, '/subscription');

  api.post(
    '/subscription/checkout',
    z.object({ packageId: z.string().min(1).max(64) }),
    async (c, read) => {
      const user = requireUser(c);
      const { packageId } = await read();
      const pack = await db
        .selectFrom('packages')
        .selectAll()
        .where('id', '=', packageId)
        .where('on_sale', '=', true)
        .executeTakeFirst();
      if (!pack) throw notFound('Package');
      const client = ready();
      if (pack.price_amount === 0) throw notice(en.notices.payments.free);
      const plan = pack.period !== 'once';
      if (plan) {
        const held = await db
          .selectFrom('subscriptions')
          .select('status')
          .where('user_id', '=', user.id)
          .where('status', '=', 'active')
          .where('stripe_subscription_id', 'is not', null)
          .executeTakeFirst();
        if (held) throw notice(en.notices.payments.planHeld);
        await endOpenPlanCheckouts(client, user.id);
      }
      const checkoutId = randomBytes(16).toString('base64url');
      // The checkout is stored before Stripe is asked: a person's one open plan checkout is a
      // unique index, so that of two started at once only one reaches Stripe.
      await db
        .insertInto('checkouts')
        .values({
          id: checkoutId,
          user_id: user.id,
          package_id: pack.id,
          stripe_session_id: null,
          stripe_payment_intent: null,
          state: 'open',
          plan,
          // What is sold: its paid session is checked against this, not a price changed since.
          price_amount: pack.price_amount,
          price_currency: pack.price_currency,
          created_at: now(),
          updated_at: now(),
        })
        .execute()
        .catch((error: unknown) => {
          if (plan && isUniqueViolation(error)) throw notice(en.notices.payments.checkoutStarting);
          throw error;
        });
      const metadata = { checkoutId, packageId: pack.id, userId: user.id };
      const back = `${config.publicUrl}/#/single-package?packageId=${encodeURIComponent(pack.id)}&checkoutId=${checkoutId}`;
      const session = await client.checkout.sessions
        .create(
          {
            mode: plan ? 'subscription' : 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: pack.price_currency.toLowerCase(),
                  unit_amount: pack.price_amount,
                  product_data: {
                    name: pack.name,
                    ...(pack.description && { description: pack.description }),
                  },
                  ...(plan && { recurring: { interval: pack.period as 'month' | 'year' } }),
                },
              },
            ],
            client_reference_id: user.id,
            customer_email: user.email,
            metadata,
            ...(plan ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
            expires_at: Math.floor(Date.now() / 1000) + CHECKOUT_LIFETIME_S,
            success_url: back,
            cancel_url: returnLinks!.cancelUrl(config.publicUrl, checkoutId),
          },
          { idempotencyKey: `checkout-${checkoutId}` },
        )
        .then((made) => {
          if (!made.url) throw notice(en.notices.payments.unreachable);
          return made;
        })
        .catch(async (error: unknown) => {
          // Never started (its buyer never had a page to pay on): nothing of it stays, and the
          // next try is not refused as one still starting.
          await db.deleteFrom('checkouts').where('id', '=', checkoutId).execute();
          return stripeTrouble(error);
        });
      // Only while no later checkout cancelled this one as stale (a start slower than
      // CHECKOUT_START_MS): otherwise two plan pages could be paid.
      const started = await db
        .updateTable('checkouts')
        .set({ stripe_session_id: session.id, updated_at: now() })
        .where('id', '=', checkoutId)
        .where('state', '=', 'open')
        .executeTakeFirst();
      if (Number(started.numUpdatedRows) === 0) {
        await client.checkout.sessions.expire(session.id).catch(stripeTrouble);
        await db.deleteFrom('checkouts').where('id', '=', checkoutId).execute();
        throw notice(en.notices.payments.checkoutStarting);
      }
      return { checkoutId, url: session.url! };
    },
  );

  api.get(
    '/subscription/checkoutStatus',
    z.object({ checkoutId: z.string().min(1).max(64) }),
    async (c, read) => {
      const user = requireUser(c);
      const { checkoutId } = await read();
      let row = await ownCheckout(db, user.id, checkoutId);
      // Past its lifetime, a checkout still open may have expired without its event yet.
      const old = Date.now() - new Date(row.created_at).getTime() > CHECKOUT_LIFETIME_S * 1000;
      if (row.state === 'open' && old && stripe && row.stripe_session_id) {
        const session = await stripe.checkout.sessions
          .retrieve(row.stripe_session_id)
          .catch(() => null);
        if (session?.status === 'expired') {
          await db
            .updateTable('checkouts')
            .set({ state: 'expired', updated_at: now() })
            .where('id', '=', row.id)
            .where('state', '=', 'open')
            .execute();
          row = await ownCheckout(db, user.id, checkoutId);
        }
      }
      return {
        checkoutId: row.id,
        packageId: row.package_id,
        state: row.state as CheckoutState,
        benefits: await getBenefits(db, user.id),
      };
    },
  );

  const planChange =
    (cancelAtPeriodEnd: boolean) => async (c: Parameters<typeof requireUser>[0]) => {
      const user = requireUser(c);
      const row = await db
        .selectFrom('subscriptions')
        .selectAll()
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      if (!row?.stripe_subscription_id || row.status !== 'active')
        throw notice(en.notices.payments.noPlan);
      const updated = await ready()
        .subscriptions.update(row.stripe_subscription_id, {
          cancel_at_period_end: cancelAtPeriodEnd,
        })
        .catch(stripeTrouble);
      const end = updated.items?.data?.[0]?.current_period_end;
      await db
        .updateTable('subscriptions')
        .set({
          cancel_at_period_end: updated.cancel_at_period_end,
          ...(end && { current_period_end: new Date(end * 1000).toISOString() }),
        })
        .where('user_id', '=', user.id)
        .execute();
      const saved = await db
        .selectFrom('subscriptions')
        .selectAll()
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      return toSubscription(saved);
    };
  api.post('/subscription/cancel', planChange(true));
  api.post('/subscription/resume', planChange(false));

  // Stripe's cancel_url: the buyer went back. The checkout ends (its page can no longer be
  // paid) and the browser returns to the package, which then shows "cancelled". Only its buyer
  // may end it: the link's signature, until it expires (the browser comes back without a
  // session), or their session. Anyone else, as for a checkout that does not exist, goes to
  // the packages and ends nothing.
  subscription.get('/checkoutCancelled', async (c) => {
    const checkoutId = c.req.query('checkoutId') ?? '';
    const signature = c.req.query('signature') ?? '';
    const expires = c.req.query('expires') ?? '';
    // Not through `contract` (a redirect, not an envelope): U+0000, which PostgreSQL cannot
    // compare, is no checkout's.
    const found =
      checkoutId && !checkoutId.includes('\0')
        ? await db
            .selectFrom('checkouts')
            .selectAll()
            .where('id', '=', checkoutId)
            .executeTakeFirst()
        : undefined;
    const buyer =
      found &&
      ((signature && returnLinks?.verify(found.id, signature, expires)) ||
        c.get('user')?.id === found.user_id);
    const row = buyer ? found : undefined;
    if (!row) return c.redirect(`${config.publicUrl}/#/subscription`, 303);
    if (row.state === 'open') {
      if (stripe && row.stripe_session_id)
        await stripe.checkout.sessions.expire(row.stripe_session_id).catch(() => null);
      await db
        .updateTable('checkouts')
        .set({ state: 'cancelled', updated_at: now() })
        .where('id', '=', row.id)
        .where('state', '=', 'open')
        .execute();
    }
    return c.redirect(
      `${config.publicUrl}/#/single-package?packageId=${encodeURIComponent(row.package_id)}&checkoutId=${row.id}&cancelled=1`,
      303,
    );
  });

  const webhook = new Hono<ApiEnv>();
  webhook.post('/webhook', async (c) => {
    if (!stripe || !config.payments) return c.json({ error: 'payments are not set up' }, 404);
    const payload = await c.req.text();
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(
        payload,
        c.req.header('stripe-signature') ?? '',
        config.payments.webhookSecret,
      );
    } catch (error) {
      return c.json({ error: (error as Error).message }, 400);
    }
    try {
      const prepared = await prepareEvent(stripe, db, event);
      const { result, problem } = await fulfilEvent(db, event, prepared);
      if (problem)
        c.get('log').error(
          `stripe event ${event.id} (${event.type}) not granted: ${problem} (kept on the checkout)`,
        );
      return c.json({ received: true, result });
    } catch (error) {
      if (error instanceof EventTooEarly) return c.json({ error: 'retry later' }, 503);
      c.get('log').error(
        `stripe event ${event.id} (${event.type}) failed: ${(error as Error).message}`,
      );
      // Stripe delivers it again later; nothing of it was written.
      return c.json({ error: 'not fulfilled' }, 500);
    }
  });
  return { subscription, stripe: webhook };
}
