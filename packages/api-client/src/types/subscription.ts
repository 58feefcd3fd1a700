import type { IsoDateTime } from './common';
import type { UserBenefits } from './user';

/** A price in minor units (cents) of a currency. */
export interface Price {
  /** Amount in minor units, e.g. 999 for 9.99. */
  amount: number;
  /** ISO 4217 code, e.g. `USD`. */
  currency: string;
}

/** How often a package bills. */
export type BillingPeriod = 'month' | 'year' | 'once';

/** Something a user can buy: a subscription or a one-off top-up. */
export interface Package {
  /** Package id. */
  packageId: string;
  /** Display name. */
  name: string;
  /** A sentence about it. */
  description: string;
  /** What it costs per period. */
  price: Price;
  /** How often it bills. */
  period: BillingPeriod;
  /** Chats it grants per period. */
  chats: number;
  /** Gold coins it grants per period. */
  goldCoins: number;
  /** Bullet points for the package card. */
  features: string[];
}

/** Where a subscription stands. */
export type SubscriptionStatus = 'active' | 'canceled' | 'expired';

/** The caller's subscription. */
export interface Subscription {
  /** The package subscribed to. */
  packageId: string;
  /** Where it stands. */
  status: SubscriptionStatus;
  /** When it began. */
  startedAt: IsoDateTime;
  /** When it renews or ends. */
  currentPeriodEnd: IsoDateTime;
  /** Whether it ends at `currentPeriodEnd` instead of renewing (cancelled, still active). */
  cancelAtPeriodEnd: boolean;
}

/** What each feature costs, as the server is configured: the product states every price. */
export interface FeatureCosts {
  /** Chats one message to a mate costs (and one reply suggestion, one drafted character). */
  chatMessage: number;
  /** Gold coins one picture costs, or `null` when pictures are not set up. */
  picture: number | null;
  /** Gold coins hearing one message costs, or `null` when voice is not set up. */
  voiceClip: number | null;
  /** Chats one generated character (`/mate/generateRole`) costs. */
  generatedCharacter: number;
}

/** Payload of `POST /subscription/checkout`: buy a package through the payment provider. */
export interface CheckoutPayload {
  /** The package to buy (a pack once, or the monthly plan). */
  packageId: string;
}

/** Answer of `POST /subscription/checkout`: where to send the buyer, and what to wait for. */
export interface Checkout {
  /** The checkout to follow with `GET /subscription/checkoutStatus`. */
  checkoutId: string;
  /** The payment provider's hosted checkout page: the browser goes there. */
  url: string;
}

/** Query of `GET /subscription/checkoutStatus`. */
export interface CheckoutStatusQuery {
  /** The checkout, from `POST /subscription/checkout` (also in the return address). */
  checkoutId: string;
}

/** Every state of a checkout, in the order it moves through them. */
export const CHECKOUT_STATES = ['open', 'paid', 'cancelled', 'failed', 'expired'] as const;

/**
 * Where a checkout stands: `open` (not paid yet, or paid and not yet confirmed by the
 * provider), `paid` (confirmed: the benefits are granted), `cancelled` (the buyer went back),
 * `failed` (the payment was refused) or `expired` (never finished in time).
 */
export type CheckoutState = (typeof CHECKOUT_STATES)[number];

/** Answer of `GET /subscription/checkoutStatus`. */
export interface CheckoutStatus {
  /** The checkout. */
  checkoutId: string;
  /** The package bought. */
  packageId: string;
  /** Where it stands. */
  state: CheckoutState;
  /** The caller's benefits now (after the grant, once paid). */
  benefits: UserBenefits;
}

/** Answer of `GET /subscription/info`. */
export interface SubscriptionInfo {
  /** Every package on sale. */
  packages: Package[];
  /** The caller's subscription, or `null` (also when anonymous). */
  current: Subscription | null;
  /** The caller's benefits. */
  benefits: UserBenefits;
  /** Whether packages can be bought on this server (a payment provider is set up). */
  payments: boolean;
  /** What each feature costs. */
  costs: FeatureCosts;
}
