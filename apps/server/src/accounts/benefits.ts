import type { Kysely, Transaction } from 'kysely';
import type { LedgerKind, LedgerReference, UserBenefits } from '@mates/api-client';
import type { Database } from '../db/schema';
import { now } from '../db/dialect';
import {
  addToBalances,
  balancesOf,
  giveBackToBalances,
  lockBalances,
  takeFromBalances,
  takeIfEnough,
  type BalancesRow,
  type BenefitChange,
} from './benefits-repository';
import { insertLedgerRow, spendsSince } from './ledger-repository';
import { storedReason, type Reason } from './ledger-reasons';

/** What a visitor who is not signed in has (docs/product.md, constants). */
export const DEFAULT_BENEFITS_FOR_VISITORS: UserBenefits = { chats: 0, goldCoins: 0, userId: null };

/** What a spend that would pass the caller's daily cap answers (5007), on every path. */
export const DAILY_CAP_REACHED =
  'You reached your daily spending limit. It resets at midnight UTC, or raise it on your subscription page.';

/**
 * How a ledger row came about: its kind, its reason (one of the server's sentences with its
 * values, e.g. `{ key: 'ledger.reasons.refundPictureFailed' }`, stored in English as
 * `refund: picture failed` with its key; or an operator's own words) and what it paid for or
 * came from (`null`: nothing).
 */
export interface Movement {
  kind: LedgerKind;
  reason: Reason;
  reference: LedgerReference | null;
}

/**
 * What a spend came to: `spent`, `short` (too few chats or coins) or `capped` (it would pass
 * the daily spending cap). Nothing is written unless `spent`.
 */
export type SpendResult = 'spent' | 'short' | 'capped';

type Db = Kysely<Database> | Transaction<Database>;

/** The welcome gift's ledger movement, granted once when an address is first verified. */
export const WELCOME: Movement = {
  kind: 'grant',
  reason: { key: 'ledger.reasons.welcome' },
  reference: null,
};

/** A user's chats and gold coins left. */
export async function getBenefits(db: Kysely<Database>, userId: string): Promise<UserBenefits> {
  const row = await balancesOf(db, userId);
  return { chats: row?.chats ?? 0, goldCoins: row?.gold_coins ?? 0, userId };
}

/** Writes the ledger row of a change already made to `benefits` (whose row holds `after`). */
async function record(
  trx: Db,
  userId: string,
  change: BenefitChange,
  movement: Movement,
  after: BalancesRow,
): Promise<void> {
  await insertLedgerRow(trx, {
    user_id: userId,
    chats_delta: change.chats,
    gold_coins_delta: change.goldCoins,
    kind: movement.kind,
    ...storedReason(movement.reason),
    reference_type: movement.reference?.type ?? null,
    reference_id: movement.reference?.id ?? null,
    chats_after: after.chats,
    gold_coins_after: after.gold_coins,
    created_at: now(),
  });
}

/**
 * Adds (or with negative numbers, takes) chats and gold coins in its own transaction, recorded
 * in the ledger as `movement` (a welcome grant, a purchase, an operator's adjustment).
 */
export async function grantBenefits(
  db: Kysely<Database>,
  userId: string,
  change: { chats: number; goldCoins: number },
  movement: Movement,
): Promise<void> {
  await db.transaction().execute((trx) => addBenefits(trx, userId, change, movement));
}

/** {@link grantBenefits} inside the caller's transaction (a payment fulfilled with its event). */
export async function addBenefits(
  trx: Db,
  userId: string,
  change: { chats: number; goldCoins: number },
  movement: Movement,
): Promise<void> {
  const after = await addToBalances(trx, userId, change);
  await record(trx, userId, change, movement, after);
}

/**
 * Takes back up to `want` (positive numbers) inside `trx`, never below zero: what was already
 * spent stays spent. Records one `adjustment` row (also when nothing could be taken) whose
 * reason is `reasonFor(taken)`; answers what was taken.
 */
export async function takeBackUpTo(
  trx: Transaction<Database>,
  userId: string,
  want: { chats: number; goldCoins: number },
  reasonFor: (taken: { chats: number; goldCoins: number }) => Reason,
  reference: LedgerReference | null,
): Promise<{ chats: number; goldCoins: number }> {
  const locked = await lockBalances(trx, userId);
  const taken = {
    chats: Math.min(Math.max(0, want.chats), locked?.chats ?? 0),
    goldCoins: Math.min(Math.max(0, want.goldCoins), locked?.gold_coins ?? 0),
  };
  if (want.chats <= 0 && want.goldCoins <= 0) return taken;
  // Even when nothing is left to take, the row says what could not be taken back.
  const after = await takeFromBalances(trx, userId, taken);
  await record(
    trx,
    userId,
    { chats: -taken.chats, goldCoins: -taken.goldCoins },
    { kind: 'adjustment', reason: reasonFor(taken), reference },
    after,
  );
  return taken;
}

/** Midnight UTC at the start of today, as stored. */
function startOfTodayUtc(): string {
  const today = new Date();
  today.setUTCHours(0, 0, 0, 0);
  return today.toISOString();
}

/** What the user spent since midnight UTC, refunds taken off (never below zero). */
export async function spentToday(db: Db, userId: string): Promise<BenefitChange> {
  const row = await spendsSince(db, userId, startOfTodayUtc());
  return {
    chats: Math.max(0, -Number(row?.chats ?? 0)),
    goldCoins: Math.max(0, -Number(row?.gold_coins ?? 0)),
  };
}

/**
 * Takes `change` (chats and/or gold coins, as positive numbers) inside `trx`, recorded in the
 * ledger as a spend. First the user's `benefits` row is locked by a write that changes nothing
 * (PostgreSQL then makes a parallel spend wait for this transaction; SQLite runs one at a
 * time), so the balance and today's spending read next are not stale; the take itself is
 * still conditional, so no balance can go below zero.
 */
async function spend(
  trx: Transaction<Database>,
  userId: string,
  change: { chats: number; goldCoins: number },
  movement: Omit<Movement, 'kind'>,
): Promise<SpendResult> {
  const locked = await lockBalances(trx, userId);
  if (!locked || locked.chats < change.chats || locked.gold_coins < change.goldCoins)
    return 'short';
  const chatsCap = locked.daily_chats_cap ?? null;
  const coinsCap = locked.daily_gold_coins_cap ?? null;
  if (chatsCap !== null || coinsCap !== null) {
    const spent = await spentToday(trx, userId);
    const passes = (cap: number | null, already: number, more: number) =>
      cap !== null && more > 0 && already + more > cap;
    if (
      passes(chatsCap, spent.chats, change.chats) ||
      passes(coinsCap, spent.goldCoins, change.goldCoins)
    )
      return 'capped';
  }
  const after = await takeIfEnough(trx, userId, change);
  if (!after) return 'short';
  await record(
    trx,
    userId,
    { chats: -change.chats, goldCoins: -change.goldCoins },
    { ...movement, kind: 'spend' },
    after,
  );
  return 'spent';
}

/** Gives `change` back inside `trx` (with the change that justifies it), recorded as a refund. */
async function refund(
  trx: Db,
  userId: string,
  change: { chats: number; goldCoins: number },
  movement: Omit<Movement, 'kind'>,
): Promise<void> {
  const after = await giveBackToBalances(trx, userId, change);
  // A refund always follows a spend, which needed the row; a user deleted since has no ledger.
  if (!after) return;
  await record(trx, userId, change, { ...movement, kind: 'refund' }, after);
}

/**
 * Takes one chat inside `trx`, recorded in the ledger as a spend for `movement.reference`
 * (the reply message, or the mate a generation was for); nothing is written unless the
 * answer is `spent`.
 */
export function spendChat(
  trx: Transaction<Database>,
  userId: string,
  movement: Omit<Movement, 'kind'>,
): Promise<SpendResult> {
  return spend(trx, userId, { chats: 1, goldCoins: 0 }, movement);
}

/** Gives one chat back inside `trx` (with the change that justifies it), recorded as a refund. */
export function refundChat(
  trx: Transaction<Database>,
  userId: string,
  movement: Omit<Movement, 'kind'>,
): Promise<void> {
  return refund(trx, userId, { chats: 1, goldCoins: 0 }, movement);
}

/**
 * Takes `amount` gold coins inside `trx`, recorded in the ledger as a spend; nothing is
 * written unless the answer is `spent`. Parallel calls cannot overdraw nor pass a cap.
 */
export function spendGoldCoins(
  trx: Transaction<Database>,
  userId: string,
  amount: number,
  movement: Omit<Movement, 'kind'>,
): Promise<SpendResult> {
  if (amount === 0) return Promise.resolve('spent');
  return spend(trx, userId, { chats: 0, goldCoins: amount }, movement);
}

/** Gives `amount` gold coins back inside `trx` (with the change that justifies it), as a refund. */
export async function refundGoldCoins(
  trx: Db,
  userId: string,
  amount: number,
  movement: Omit<Movement, 'kind'>,
): Promise<void> {
  if (amount === 0) return;
  await refund(trx, userId, { chats: 0, goldCoins: amount }, movement);
}
