import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import type { CheckoutState, CheckoutStatus } from '@mates/api-client';
import { isUniqueViolation, now } from '../db/dialect';
import { missing, refused } from '../domain/errors';
import { getBenefits } from '../accounts/benefits';
import {
  attachSession,
  checkoutById,
  deleteCheckout,
  endOpenCheckout,
  insertCheckout,
  openPlanCheckouts,
  ownCheckout,
} from './checkout-repository';
import { packageOnSale, type PackageRow } from './package-repository';
import { holdsStripePlan } from './plan-repository';
import { readyStripe, stripeTrouble, type PaymentDeps } from './payment-deps';

/** How long a Stripe Checkout page stays valid (Stripe's shortest). */
export const CHECKOUT_LIFETIME_S = 30 * 60;

/**
 * How long a checkout may take to start, from its row to its Stripe session: three tries of
 * the client's 20 s timeout, and some. A plan checkout without a session older than this was
 * left by a server that stopped midway, and no longer blocks the next one.
 */
const CHECKOUT_START_MS = 90_000;

/** Who buys: the signed-in caller's id and e-mail address (Stripe's page shows it). */
export interface Buyer {
  id: string;
  email: string;
}

/**
 * Begins buying `packageId` (a pack or a plan) through a Stripe Checkout Session: the
 * checkout's id and the page to pay on. Refused for a package that is free, not on sale, or a
 * plan while the buyer holds one or has another plan checkout still starting.
 */
export async function startCheckout(
  deps: PaymentDeps,
  buyer: Buyer,
  packageId: string,
): Promise<{ checkoutId: string; url: string }> {
  const pack = await packageOnSale(deps.db, packageId);
  if (!pack) throw missing('notices.notFound.package');
  const client = readyStripe(deps);
  if (pack.price_amount === 0) throw refused('notices.payments.free');
  const plan = pack.period !== 'once';
  if (plan) {
    if (await holdsStripePlan(deps.db, buyer.id)) throw refused('notices.payments.planHeld');
    await endOpenPlanCheckouts(deps, client, buyer.id);
  }
  const checkoutId = randomBytes(16).toString('base64url');
  await storeCheckout(deps, checkoutId, buyer.id, pack, plan);
  const session = await openSession(deps, client, { checkoutId, buyer, pack, plan });
  // Only while no later checkout cancelled this one as stale (a start slower than
  // CHECKOUT_START_MS): otherwise two plan pages could be paid.
  if (!(await attachSession(deps.db, checkoutId, session.id))) {
    await client.checkout.sessions.expire(session.id).catch((e) => stripeTrouble(deps, e));
    await deleteCheckout(deps.db, checkoutId);
    throw refused('notices.payments.checkoutStarting');
  }
  return { checkoutId, url: session.url! };
}

/**
 * Ends the user's plan checkout still open, at Stripe first, before another plan's begins:
 * two paid together left one subscription billed at Stripe and granted by nobody. One paid
 * already (its event not here yet) means the user has a plan: refused as such. One still
 * starting (its Stripe session not made yet, by a request running now) is refused too, unless
 * it is older than Stripe's calls can take (its server stopped midway).
 */
async function endOpenPlanCheckouts(
  deps: PaymentDeps,
  client: Stripe,
  userId: string,
): Promise<void> {
  for (const checkout of await openPlanCheckouts(deps.db, userId)) {
    if (checkout.stripe_session_id) {
      await expirePlanSession(deps, client, checkout.stripe_session_id);
    } else if (Date.now() - new Date(checkout.created_at).getTime() < CHECKOUT_START_MS) {
      throw refused('notices.payments.checkoutStarting');
    }
    await endOpenCheckout(deps.db, checkout.id, 'cancelled');
  }
}

/** Ends an open plan checkout's Stripe session; refused as a plan held if it was paid. */
async function expirePlanSession(
  deps: PaymentDeps,
  client: Stripe,
  sessionId: string,
): Promise<void> {
  const trouble = (error: unknown) => stripeTrouble(deps, error);
  const session = await client.checkout.sessions.retrieve(sessionId).catch(trouble);
  if (session.status === 'complete') throw refused('notices.payments.planHeld');
  if (session.status !== 'open') return;
  await client.checkout.sessions.expire(sessionId).catch(async (error: unknown) => {
    // Ended meanwhile (another checkout of the person's, started at the same moment,
    // expired it), or paid meanwhile: what it is now decides.
    if (!(error instanceof client.errors.StripeInvalidRequestError)) trouble(error);
    const current = await client.checkout.sessions.retrieve(sessionId).catch(trouble);
    if (current.status === 'complete') throw refused('notices.payments.planHeld');
    if (current.status !== 'expired') trouble(error);
  });
}

/**
 * Stores the checkout before Stripe is asked: a person's one open plan checkout is a unique
 * index, so that of two started at once only one reaches Stripe.
 */
async function storeCheckout(
  deps: PaymentDeps,
  checkoutId: string,
  userId: string,
  pack: PackageRow,
  plan: boolean,
): Promise<void> {
  await insertCheckout(deps.db, {
    id: checkoutId,
    user_id: userId,
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
  }).catch((error: unknown) => {
    if (plan && isUniqueViolation(error)) throw refused('notices.payments.checkoutStarting');
    throw error;
  });
}

/**
 * Makes the checkout's Stripe session, the page its buyer pays on. One that could not be made
 * leaves nothing of its checkout behind.
 */
async function openSession(
  deps: PaymentDeps,
  client: Stripe,
  sale: { checkoutId: string; buyer: Buyer; pack: PackageRow; plan: boolean },
): Promise<Stripe.Checkout.Session> {
  return client.checkout.sessions
    .create(sessionParams(deps, sale), { idempotencyKey: `checkout-${sale.checkoutId}` })
    .then((made) => {
      if (!made.url) throw refused('notices.payments.unreachable');
      return made;
    })
    .catch(async (error: unknown) => {
      // Never started (its buyer never had a page to pay on): nothing of it stays, and the
      // next try is not refused as one still starting.
      await deleteCheckout(deps.db, sale.checkoutId);
      return stripeTrouble(deps, error);
    });
}

/** What Stripe is asked to sell: one of the package, at its price, for `plan` every period. */
function sessionParams(
  deps: PaymentDeps,
  {
    checkoutId,
    buyer,
    pack,
    plan,
  }: { checkoutId: string; buyer: Buyer; pack: PackageRow; plan: boolean },
): Stripe.Checkout.SessionCreateParams {
  const metadata = { checkoutId, packageId: pack.id, userId: buyer.id };
  return {
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
    client_reference_id: buyer.id,
    customer_email: buyer.email,
    metadata,
    ...(plan ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
    expires_at: Math.floor(Date.now() / 1000) + CHECKOUT_LIFETIME_S,
    success_url: `${deps.publicUrl}/#/single-package?packageId=${encodeURIComponent(pack.id)}&checkoutId=${checkoutId}`,
    cancel_url: deps.returnLinks!.cancelUrl(deps.publicUrl, checkoutId),
  };
}

/**
 * Where the caller's checkout stands, with their balances (benefits are granted only by the
 * webhook). One still open past its lifetime may have expired without its event yet: Stripe
 * is asked, and an expired one is marked so.
 */
export async function checkoutStatus(
  deps: PaymentDeps,
  userId: string,
  checkoutId: string,
): Promise<CheckoutStatus> {
  const own = () => ownCheckout(deps.db, userId, checkoutId);
  let row = await own();
  if (!row) throw missing('notices.notFound.checkout');
  const old = Date.now() - new Date(row.created_at).getTime() > CHECKOUT_LIFETIME_S * 1000;
  if (row.state === 'open' && old && deps.stripe && row.stripe_session_id) {
    const session = await deps.stripe.checkout.sessions
      .retrieve(row.stripe_session_id)
      .catch(() => null);
    if (session?.status === 'expired') {
      await endOpenCheckout(deps.db, row.id, 'expired');
      row = await own();
      if (!row) throw missing('notices.notFound.checkout');
    }
  }
  return {
    checkoutId: row.id,
    packageId: row.package_id,
    state: row.state as CheckoutState,
    benefits: await getBenefits(deps.db, userId),
  };
}

/**
 * The buyer went back from Stripe's page (its `cancel_url`): the checkout ends (its page can
 * no longer be paid), and the answer is where the browser goes, the package, which then shows
 * "cancelled". Only its buyer may end it: the link's signature, until it expires (the browser
 * comes back without a session), or their session (`callerId`). Anyone else, as for a checkout
 * that does not exist, goes to the packages and ends nothing.
 */
export async function endCheckoutFromReturn(
  deps: PaymentDeps,
  link: { checkoutId: string; signature: string; expires: string; callerId: string | null },
): Promise<string> {
  // U+0000, which PostgreSQL cannot compare, is no checkout's.
  const found =
    link.checkoutId && !link.checkoutId.includes('\0')
      ? await checkoutById(deps.db, link.checkoutId)
      : undefined;
  const buyer =
    found &&
    ((link.signature && deps.returnLinks?.verify(found.id, link.signature, link.expires)) ||
      link.callerId === found.user_id);
  const row = buyer ? found : undefined;
  if (!row) return `${deps.publicUrl}/#/subscription`;
  if (row.state === 'open') {
    if (deps.stripe && row.stripe_session_id)
      await deps.stripe.checkout.sessions.expire(row.stripe_session_id).catch(() => null);
    await endOpenCheckout(deps.db, row.id, 'cancelled');
  }
  return `${deps.publicUrl}/#/single-package?packageId=${encodeURIComponent(row.package_id)}&checkoutId=${row.id}&cancelled=1`;
}
