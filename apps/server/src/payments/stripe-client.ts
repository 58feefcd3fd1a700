import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import type { PaymentsConfig } from '../config';

const require = createRequire(import.meta.url);

/**
 * Stripe's official client for `config`: Stripe itself, or the API double `STRIPE_API_URL`
 * names (tests). Failed calls are retried by the library (with idempotency keys), twice.
 */
export function createStripe(config: PaymentsConfig): Stripe {
  // Loaded here rather than imported: Stripe's client is the largest library on the start path
  // (about 500 modules), and a server without payments never calls this.
  const StripeClient = require('stripe') as typeof Stripe;
  const url = config.apiUrl ? new URL(config.apiUrl) : null;
  return new StripeClient(config.secretKey, {
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
