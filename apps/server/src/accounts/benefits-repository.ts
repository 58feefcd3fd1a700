import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { now } from '../db/dialect';
import { preparedQuery } from '../db/prepared-query';
import type { RunNow } from '../db/sqlite-dialect';

/** A user's balances as stored. */
export interface BalancesRow {
  chats: number;
  gold_coins: number;
}

/** Chats and gold coins, as positive numbers, to add or take. */
export interface BenefitChange {
  chats: number;
  goldCoins: number;
}

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

// A new message's chat on SQLite, taken with its turn (see `turnOnSqlite`).
const takeUncappedChat = preparedQuery((db, v: { userId: string; at: string }) =>
  db
    .updateTable('benefits')
    .set((eb) => ({ chats: eb('chats', '-', 1), updated_at: v.at }))
    .where('user_id', '=', v.userId)
    .where('chats', '>=', 1)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('users')
          .select('id')
          .where('id', '=', v.userId)
          .where('daily_chats_cap', 'is', null)
          .where('daily_gold_coins_cap', 'is', null),
      ),
    )
    .returning(['chats', 'gold_coins']),
);

/** The user's balances, or undefined when nothing was ever granted them. */
export async function balancesOf(
  db: Kysely<Database>,
  userId: string,
): Promise<BalancesRow | undefined> {
  return (await benefitsOf(db, { userId })).rows[0];
}

/**
 * Locks the user's `benefits` row for the rest of `trx` by a write that changes nothing, and
 * answers its balances and the user's daily caps (undefined without a row): PostgreSQL then
 * makes a parallel spend or take-back wait for this transaction (SQLite runs one at a time), so
 * the balances answered and what is read next are current. The caps are read as the statement
 * began; a cap changed meanwhile counts from the next spend.
 */
export async function lockBalances(trx: Transaction<Database>, userId: string) {
  return (await lockedBenefits(trx, { userId })).rows[0];
}

/**
 * One chat taken on the spot (inside `atOnceOnSqlite`'s transaction) from someone who has one
 * and no daily cap (a cap needs the day's spends counted: `spend`'s way); the balances after,
 * or undefined when nothing was taken.
 */
export function takeChatIfUncappedNow(
  run: RunNow,
  db: Kysely<Database>,
  userId: string,
  at: string,
): BalancesRow | undefined {
  return run(takeUncappedChat.withValues(db, { userId, at })).rows[0];
}

/**
 * Takes `change` from the user's balances only where both suffice (a conditional change, so
 * none goes below zero); the balances after, or undefined when they did not suffice.
 */
export async function takeIfEnough(
  trx: Transaction<Database>,
  userId: string,
  change: BenefitChange,
): Promise<BalancesRow | undefined> {
  return (await takeBenefits(trx, { userId, ...change, at: now() })).rows[0];
}

/** Adds `change` (negative numbers take) to the user's balances, making their row if needed. */
export function addToBalances(
  db: Kysely<Database>,
  userId: string,
  change: BenefitChange,
): Promise<BalancesRow> {
  return db
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
}

/** Takes `change` from the user's balances, which must exist; the balances after. */
export function takeFromBalances(
  trx: Transaction<Database>,
  userId: string,
  change: BenefitChange,
): Promise<BalancesRow> {
  return trx
    .updateTable('benefits')
    .set((eb) => ({
      chats: eb('chats', '-', change.chats),
      gold_coins: eb('gold_coins', '-', change.goldCoins),
      updated_at: now(),
    }))
    .where('user_id', '=', userId)
    .returning(['chats', 'gold_coins'])
    .executeTakeFirstOrThrow();
}

/** Gives `change` back to the user's balances; undefined when the user has no row (deleted). */
export function giveBackToBalances(
  db: Kysely<Database>,
  userId: string,
  change: BenefitChange,
): Promise<BalancesRow | undefined> {
  return db
    .updateTable('benefits')
    .set((eb) => ({
      chats: eb('chats', '+', change.chats),
      gold_coins: eb('gold_coins', '+', change.goldCoins),
      updated_at: now(),
    }))
    .where('user_id', '=', userId)
    .returning(['chats', 'gold_coins'])
    .executeTakeFirst();
}
