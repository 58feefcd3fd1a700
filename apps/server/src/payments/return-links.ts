import { createHmac, timingSafeEqual } from 'node:crypto';

/** Where Stripe sends a buyer who goes back from its Checkout page. */
export const CHECKOUT_CANCELLED_PATH = '/api/subscription/checkoutCancelled';

const signatureOf = (secret: string, checkoutId: string) =>
  createHmac('sha256', secret).update(`checkout-cancelled:${checkoutId}`).digest('base64url');

/**
 * Signs and checks the way back from Stripe's Checkout page (its `cancel_url`), which ends the
 * checkout. The browser comes back by a plain navigation, with no session, so the link itself
 * proves it is the buyer's: only the buyer is given it (by Stripe's page). `secret` is the
 * webhook's signing secret, the same on every server of a deployment that sells, so a link
 * made by one opens on all.
 */
export function checkoutReturnLinks(secret: string) {
  return {
    /** The way back for `checkoutId`, under `publicUrl`. */
    cancelUrl(publicUrl: string, checkoutId: string): string {
      const query = new URLSearchParams({ checkoutId, signature: signatureOf(secret, checkoutId) });
      return `${publicUrl}${CHECKOUT_CANCELLED_PATH}?${query}`;
    },
    /** Whether `signature` is the one {@link cancelUrl} gives `checkoutId`. */
    verify(checkoutId: string, signature: string): boolean {
      const expected = Buffer.from(signatureOf(secret, checkoutId));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
