import type { Price } from '@mates/api-client';

/**
 * A price in the currency's minor units, formatted for `locale`: `{ amount: 999, currency:
 * 'USD' }` is "$9.99", and `{ amount: 500, currency: 'JPY' }` is 500 yen (yen have no minor unit).
 */
export function formatPrice(price: Price, locale = 'en'): string {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency: price.currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(price.amount / 10 ** digits);
}
