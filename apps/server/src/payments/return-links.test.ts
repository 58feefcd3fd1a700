import { describe, expect, it } from 'vitest';
import { checkoutReturnLinks, CHECKOUT_LINK_LIFETIME_MS } from './return-links';

// Review of issue #36: the signed way back from Checkout never expired, so a link seen once
// (a browser's history, a log of the query string) ended that checkout at any later time.
const links = checkoutReturnLinks('whsec_test');
const at = Date.parse('2026-11-28T12:00:00.000Z');

const partsOf = (url: string) => {
  const query = new URL(url).searchParams;
  return {
    checkoutId: query.get('checkoutId')!,
    signature: query.get('signature')!,
    expires: query.get('expires')!,
  };
};

describe('the way back from Checkout', () => {
  const url = links.cancelUrl('https://mates.example', 'co_1', at);
  const { checkoutId, signature, expires } = partsOf(url);

  it('is signed for its checkout, with an expiry longer than a Checkout page lives', () => {
    expect(url.startsWith('https://mates.example/api/subscription/checkoutCancelled?')).toBe(true);
    expect(checkoutId).toBe('co_1');
    expect(Number(expires)).toBe(at + CHECKOUT_LINK_LIFETIME_MS);
    // Stripe's Checkout page lives 24 hours at most.
    expect(CHECKOUT_LINK_LIFETIME_MS).toBeGreaterThan(24 * 60 * 60 * 1000);
    expect(links.verify(checkoutId, signature, expires, at)).toBe(true);
    expect(links.verify(checkoutId, signature, expires, at + CHECKOUT_LINK_LIFETIME_MS - 1)).toBe(
      true,
    );
  });

  it('is refused once expired', () => {
    expect(links.verify(checkoutId, signature, expires, at + CHECKOUT_LINK_LIFETIME_MS)).toBe(
      false,
    );
  });

  it('is refused with its expiry changed, missing or not a number, or for another checkout', () => {
    const later = String(Number(expires) + 365 * 24 * 60 * 60 * 1000);
    for (const [id, given, until] of [
      [checkoutId, signature, later],
      [checkoutId, signature, ''],
      [checkoutId, signature, `${expires}.0`],
      [checkoutId, signature, ' 1e99'],
      ['co_2', signature, expires],
      [checkoutId, '', expires],
    ] as const)
      expect(links.verify(id, given, until, at), `${id} ${given} ${until}`).toBe(false);
  });

  it('is refused when signed by another deployment', () => {
    const other = partsOf(checkoutReturnLinks('whsec_other').cancelUrl('https://x', 'co_1', at));
    expect(links.verify('co_1', other.signature, other.expires, at)).toBe(false);
  });
});
