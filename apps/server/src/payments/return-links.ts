import { createHmac, timingSafeEqual } from 'node:crypto';

/** Where Stripe sends a buyer who goes back from its Checkout page. */
export const CHECKOUT_CANCELLED_PATH = '/api/subscription/checkoutCancelled';

/**
 * How long the way back works: two days, longer than Stripe keeps a Checkout page open (24
 * hours at most), so a buyer on the page can always use it, and a link seen later ends nothing.
 */
export const CHECKOUT_LINK_LIFETIME_MS = 2 * 24 * 60 * 60 * 1000;

const signatureOf = (secret: string, checkoutId: string, expires: string) =>
  createHmac('sha256', secret)
    .update(`checkout-cancelled:${checkoutId}:${expires}`)
    .digest('base64url');

/**
 * Signs and checks the way back from Stripe's Checkout page (its `cancel_url`), which ends the
 * checkout. The browser comes back by a plain navigation, with no session, so the link itself
 * proves it is the buyer's: only the buyer is given it (by Stripe's page). It holds its expiry
 * (milliseconds since 1970), signed with it, so it works for {@link CHECKOUT_LINK_LIFETIME_MS}.
 * `secret` is the webhook's signing secret, the same on every server of a deployment that
 * sells, so a link made by one opens on all.
 */
export function checkoutReturnLinks(secret: string) {
  return {
    /** The way back for `checkoutId`, under `publicUrl`, made at `now`. */
    cancelUrl(publicUrl: string, checkoutId: string, now = Date.now()): string {
      const expires = String(now + CHECKOUT_LINK_LIFETIME_MS);
      const signature = signatureOf(secret, checkoutId, expires);
      const query = new URLSearchParams({ checkoutId, expires, signature });
      return `${publicUrl}${CHECKOUT_CANCELLED_PATH}?${query}`;
    },
    /**
     * Whether `signature` is the one {@link cancelUrl} gives `checkoutId` with `expires`, and
     * `expires` is still ahead of `now`. An expired link is refused as an unsigned one is.
     */
    verify(checkoutId: string, signature: string, expires: string, now = Date.now()): boolean {
      if (!/^\d{1,16}$/.test(expires) || Number(expires) <= now) return false;
      const expected = Buffer.from(signatureOf(secret, checkoutId, expires));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
