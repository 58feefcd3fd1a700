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
}

/** Answer of `GET /subscription/info`. */
export interface SubscriptionInfo {
  /** Every package on sale. */
  packages: Package[];
  /** The caller's subscription, or `null` (also when anonymous). */
  current: Subscription | null;
  /** The caller's benefits. */
  benefits: UserBenefits;
}
