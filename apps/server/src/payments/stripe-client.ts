import Stripe from 'stripe';
import type { PaymentsConfig } from '../config';

/**
 * Stripe's official client for `config`: Stripe itself, or the API double `STRIPE_API_URL`
 * names (tests). Failed calls are retried by the library (with idempotency keys), twice.
 */
export function createStripe(config: PaymentsConfig): Stripe {
  const url = config.apiUrl ? new URL(config.apiUrl) : null;
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Mates' },
    ...(url && {
      host: url.hostname,
      port: url.port || (url.protocol === 'https:' ? 443 : 80),
      protocol: url.protocol === 'https:' ? 'https' : 'http',
    }),
  });
}
