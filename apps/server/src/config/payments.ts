import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError, httpUrl, type VariableValues } from './environment';

/** Stripe, and the packages on sale. */
export const paymentVariables = {
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_test_…, sk_live_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, 'must be a Stripe webhook signing secret (whsec_…)')
    .optional(),
  STRIPE_API_URL: httpUrl(),
  PACKAGES_FILE: z.string().min(1).optional(),
};

type PaymentValues = VariableValues<typeof paymentVariables>;

/** Stripe's settings (`STRIPE_SECRET_KEY`, `STRIPE_WEBHOOK_SECRET`, `STRIPE_API_URL`). */
export interface PaymentsConfig {
  secretKey: string;
  /** Signs the events Stripe sends to `POST /api/stripe/webhook`. */
  webhookSecret: string;
  /** Where Stripe's API is called: Stripe itself unless a local double is named. */
  apiUrl: string | undefined;
}

/** One package of `PACKAGES_FILE`: what it costs and what it adds. */
export interface PackageConfig {
  id: string;
  name: string;
  description: string;
  /** In minor units (cents) of `currency`. */
  price: { amount: number; currency: string };
  /** `once` is a pack bought once; `month` and `year` are plans that renew. */
  period: 'once' | 'month' | 'year';
  chats: number;
  goldCoins: number;
  features: string[];
}

/** The part of the configuration the payment variables give. */
export interface PaymentSettings {
  /** Stripe (`STRIPE_*`), or `null` when payments are not set up: packages are shown only. */
  payments: PaymentsConfig | null;
  /** The packages on sale, from `PACKAGES_FILE`, or `null` to keep those in the database. */
  packages: PackageConfig[] | null;
}

/** Reads Stripe's keys, then the packages file. */
export function readPaymentSettings(values: PaymentValues): PaymentSettings {
  return {
    payments: readPaymentsConfig(values),
    packages: values.PACKAGES_FILE ? readPackagesFile(values.PACKAGES_FILE) : null,
  };
}

function readPaymentsConfig(values: PaymentValues): PaymentsConfig | null {
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret } = values;
  if (!secretKey && !webhookSecret) {
    if (values.STRIPE_API_URL)
      throw new ConfigError(
        `Invalid STRIPE_API_URL: it is set but STRIPE_SECRET_KEY is not; give both Stripe keys, or unset STRIPE_API_URL (got ${JSON.stringify(values.STRIPE_API_URL)})`,
      );
    return null;
  }
  if (!secretKey)
    throw new ConfigError(
      'Invalid STRIPE_SECRET_KEY: STRIPE_WEBHOOK_SECRET is set, and payments need both (got undefined)',
    );
  if (!webhookSecret)
    throw new ConfigError(
      'Invalid STRIPE_WEBHOOK_SECRET: without it no payment can be confirmed; give the signing secret of the webhook endpoint (got undefined)',
    );
  return { secretKey, webhookSecret, apiUrl: values.STRIPE_API_URL?.replace(/\/+$/, '') };
}

const packageSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'must be lowercase letters, digits, - or _'),
  name: z.string().min(1).max(80),
  description: z.string().max(400).default(''),
  price: z.object({
    amount: z.number().int().min(0).max(100_000_000),
    currency: z.string().regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 code such as USD'),
  }),
  period: z.enum(['once', 'month', 'year']),
  chats: z.number().int().min(0).max(100_000_000).default(0),
  goldCoins: z.number().int().min(0).max(100_000_000).default(0),
  features: z.array(z.string().min(1).max(200)).max(20).default([]),
});
const packagesSchema = z
  .array(packageSchema)
  .min(1, 'must list at least one package')
  .max(100)
  .refine((list) => new Set(list.map((entry) => entry.id)).size === list.length, {
    message: 'must not repeat a package id',
  });

/** Reads `PACKAGES_FILE`: a JSON array of packages (docs/payments.md shows one). */
function readPackagesFile(file: string): PackageConfig[] {
  let text: string;
  try {
    text = fs.readFileSync(path.resolve(file), 'utf8');
  } catch (error) {
    throw new ConfigError(
      `Invalid PACKAGES_FILE: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}) (got ${JSON.stringify(file)})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `Invalid PACKAGES_FILE: not JSON (${(error as Error).message}) (got ${JSON.stringify(file)})`,
    );
  }
  const parsed = packagesSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new ConfigError(
      `Invalid PACKAGES_FILE: ${issue.message}${where} (got ${JSON.stringify(file)})`,
    );
  }
  return parsed.data.map((entry) => ({
    ...entry,
    price: { amount: entry.price.amount, currency: entry.price.currency.toUpperCase() },
  }));
}
