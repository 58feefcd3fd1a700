import type { Kysely, Transaction } from 'kysely';
import type {
  LedgerEntry,
  LedgerKind,
  LedgerReference,
  SpendingCap,
  UserBenefits,
} from '@mates/api-client';
import type { BenefitLedgerTable, Database } from '../db/schema';
import { now } from '../db/dialect';
import { preparedQuery } from '../db/prepared-query';

/** What a visitor who is not signed in has (docs/product.md, constants). */
export const DEFAULT_BENEFITS_FOR_VISITORS: UserBenefits = { chats: 0, goldCoins: 0, userId: null };

/** What a spend that would pass the caller's daily cap answers (5007), on every path. */
export const DAILY_CAP_REACHED =
  'You reached your daily spending limit. It resets at midnight UTC, or raise it on your subscription page.';

/**
 * How a ledger row came about: its kind, its reason in plain words (e.g. `picture`,
 * `refund: picture failed`) and what it paid for or came from (`null`: nothing).
 */
export interface Movement {
  kind: LedgerKind;
  reason: string;
  reference: LedgerReference | null;
}

/**
 * What a spend came to: `spent`, `short` (too few chats or coins) or `capped` (it would pass
 * the daily spending cap). Nothing is written unless `spent`.
 */
export type SpendResult = 'spent' | 'short' | 'capped';

type Db = Kysely<Database> | Transaction<Database>;

/** The welcome gift's ledger movement, granted once when an address is first verified. */
export const WELCOME: Movement = { kind: 'grant', reason: 'welcome', reference: null };

// Each chat sent runs these: compiled once (see `preparedQuery`).
const benefitsOf = preparedQuery((db, v: { userId: string }) =>
  db.selectFrom('benefits').select(['chats', 'gold_coins']).where('user_id', '=', v.userId),
);
// With the user's daily caps, read in the same statement: one fewer for every chat sent.
const lockedBenefits = preparedQuery((db, v: { userId: string }) => {
  const capOf = (column: 'daily_chats_cap' | 'daily_gold_coins_cap') =>
    db.selectFrom('users').select(column).where('id', '=', v.userId).as(column);
  return db
    .updateTable('benefits')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('user_id', '=', v.userId)
    .returning(['chats', 'gold_coins', capOf('daily_chats_cap'), capOf('daily_gold_coins_cap')]);
});
const takeBenefits = preparedQuery(
  (db, v: { userId: string; chats: number; goldCoins: number; at: string }) =>
    db
      .updateTable('benefits')
      .set((eb) => ({
        chats: eb('chats', '-', v.chats),
        gold_coins: eb('gold_coins', '-', v.goldCoins),
        updated_at: v.at,
      }))
      .where('user_id', '=', v.userId)
      .where('chats', '>=', v.chats)
      .where('gold_coins', '>=', v.goldCoins)
      .returning(['chats', 'gold_coins']),
);
const ledgerRow = preparedQuery((db, v: Omit<BenefitLedgerTable, 'id'>) =>
  db.insertInto('benefit_ledger').values({
    user_id: v.user_id,
    chats_delta: v.chats_delta,
    gold_coins_delta: v.gold_coins_delta,
    kind: v.kind,
    reason: v.reason,
    reference_type: v.reference_type,
    reference_id: v.reference_id,
    chats_after: v.chats_after,
    gold_coins_after: v.gold_coins_after,
    created_at: v.created_at,
  }),
);

/** A user's chats and gold coins left. */
export async function getBenefits(db: Kysely<Database>, userId: string): Promise<UserBenefits> {
  const [row] = (await benefitsOf(db, { userId })).rows;
  return { chats: row?.chats ?? 0, goldCoins: row?.gold_coins ?? 0, userId };
}

/** Writes the ledger row of a change already made to `benefits` (whose row holds `after`). */
async function record(
  trx: Db,
  userId: string,
  change: { chats: number; goldCoins: number },
  movement: Movement,
  after: { chats: number; gold_coins: number },
): Promise<void> {
  await ledgerRow(trx, {
    user_id: userId,
    chats_delta: change.chats,
    gold_coins_delta: change.goldCoins,
    kind: movement.kind,
    reason: movement.reason,
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
  const after = await trx
    .insertInto('benefits')
    .values({
      user_id: userId,
      chats: change.chats,
      gold_coins: change.goldCoins,
      updated_at: now(),
    })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet((eb) => ({
        chats: eb('benefits.chats', '+', change.chats),
        gold_coins: eb('benefits.gold_coins', '+', change.goldCoins),
        updated_at: now(),
      })),
    )
    .returning(['chats', 'gold_coins'])
    .executeTakeFirstOrThrow();
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
  reasonFor: (taken: { chats: number; goldCoins: number }) => string,
  reference: LedgerReference | null,
): Promise<{ chats: number; goldCoins: number }> {
  const locked = await lockBenefits(trx, userId);
  const taken = {
    chats: Math.min(Math.max(0, want.chats), locked?.chats ?? 0),
    goldCoins: Math.min(Math.max(0, want.goldCoins), locked?.gold_coins ?? 0),
  };
  if (want.chats <= 0 && want.goldCoins <= 0) return taken;
  // Even when nothing is left to take, the row says what could not be taken back.
  const after = await trx
    .updateTable('benefits')
    .set((eb) => ({
      chats: eb('chats', '-', taken.chats),
      gold_coins: eb('gold_coins', '-', taken.goldCoins),
      updated_at: now(),
    }))
    .where('user_id', '=', userId)
    .returning(['chats', 'gold_coins'])
    .executeTakeFirstOrThrow();
  await record(
    trx,
    userId,
    { chats: -taken.chats, goldCoins: -taken.goldCoins },
    { kind: 'adjustment', reason: reasonFor(taken), reference },
    after,
  );
  return taken;
}

/**
 * Locks the user's `benefits` row for the rest of `trx` by a write that changes nothing, and
 * answers its balances and the user's daily caps: PostgreSQL then makes a parallel spend or
 * take-back wait for this transaction (SQLite runs one at a time), so the balances answered and
 * what is read next are current. The caps are read as the statement began; a cap changed
 * meanwhile counts from the next spend.
 */
async function lockBenefits(trx: Transaction<Database>, userId: string) {
  return (await lockedBenefits(trx, { userId })).rows[0];
}

/** Midnight UTC at the start of today, as stored. */
function startOfTodayUtc(): string {
  const today = new Date();
  today.setUTCHours(0, 0, 0, 0);
  return today.toISOString();
}

/** What the user spent since midnight UTC, refunds taken off (never below zero). */
async function spentToday(db: Db, userId: string): Promise<{ chats: number; goldCoins: number }> {
  const row = await db
    .selectFrom('benefit_ledger')
    .select((eb) => [
      eb.fn.sum<number | string | null>('chats_delta').as('chats'),
      eb.fn.sum<number | string | null>('gold_coins_delta').as('gold_coins'),
    ])
    .where('user_id', '=', userId)
    .where('kind', 'in', ['spend', 'refund'])
    .where('created_at', '>=', startOfTodayUtc())
    .executeTakeFirst();
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
  const locked = await lockBenefits(trx, userId);
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
  const [after] = (await takeBenefits(trx, { userId, ...change, at: now() })).rows;
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
  const after = await trx
    .updateTable('benefits')
    .set((eb) => ({
      chats: eb('chats', '+', change.chats),
      gold_coins: eb('gold_coins', '+', change.goldCoins),
      updated_at: now(),
    }))
    .where('user_id', '=', userId)
    .returning(['chats', 'gold_coins'])
    .executeTakeFirst();
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

/** The caller's daily caps and what they spent today. */
export async function getSpendingCap(db: Kysely<Database>, userId: string): Promise<SpendingCap> {
  const caps = await db
    .selectFrom('users')
    .select(['daily_chats_cap', 'daily_gold_coins_cap'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return {
    dailyChats: caps?.daily_chats_cap ?? null,
    dailyGoldCoins: caps?.daily_gold_coins_cap ?? null,
    spentToday: await spentToday(db, userId),
  };
}

/** A stored ledger row as the API shows it. */
export function toLedgerEntry(
  row: Omit<BenefitLedgerTable, 'id'> & { id: number | string; room_id?: string | null },
): LedgerEntry {
  return {
    entryId: String(row.id),
    kind: row.kind as LedgerKind,
    chats: row.chats_delta,
    goldCoins: row.gold_coins_delta,
    reason: row.reason,
    reference:
      row.reference_type && row.reference_id
        ? {
            type: row.reference_type as LedgerReference['type'],
            id: row.reference_id,
            ...(row.room_id && { roomId: row.room_id }),
          }
        : null,
    balance: { chats: row.chats_after, goldCoins: row.gold_coins_after },
    createdAt: new Date(row.created_at).toISOString(),
  };
}
