import type { Kysely, Transaction } from 'kysely';
import type { UserBenefits } from '@mates/api-client';
import type { Database } from '../db/schema';
import { now } from '../db/dialect';

/** What a visitor who is not signed in has (docs/product.md, constants). */
export const DEFAULT_BENEFITS_FOR_VISITORS: UserBenefits = { chats: 0, goldCoins: 0, userId: null };

/** A user's chats and gold coins left. */
export async function getBenefits(db: Kysely<Database>, userId: string): Promise<UserBenefits> {
  const row = await db
    .selectFrom('benefits')
    .select(['chats', 'gold_coins'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return { chats: row?.chats ?? 0, goldCoins: row?.gold_coins ?? 0, userId };
}

/** Adds (or with negative numbers, takes) chats and gold coins, recorded in the ledger. */
export async function grantBenefits(
  db: Kysely<Database>,
  userId: string,
  change: { chats: number; goldCoins: number; reason: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const at = now();
    await trx
      .insertInto('benefit_ledger')
      .values({
        user_id: userId,
        chats_delta: change.chats,
        gold_coins_delta: change.goldCoins,
        reason: change.reason,
        created_at: at,
      })
      .execute();
    await trx
      .insertInto('benefits')
      .values({
        user_id: userId,
        chats: change.chats,
        gold_coins: change.goldCoins,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet((eb) => ({
          chats: eb('benefits.chats', '+', change.chats),
          gold_coins: eb('benefits.gold_coins', '+', change.goldCoins),
          updated_at: at,
        })),
      )
      .execute();
  });
}

/**
 * Takes one chat inside `trx`, recorded in the ledger; `false` (nothing written) when the
 * user has none left.
 */
export async function spendChat(
  trx: Transaction<Database>,
  userId: string,
  reason: string,
): Promise<boolean> {
  const charged = await trx
    .updateTable('benefits')
    .set((eb) => ({ chats: eb('chats', '-', 1), updated_at: now() }))
    .where('user_id', '=', userId)
    .where('chats', '>=', 1)
    .executeTakeFirst();
  if (Number(charged.numUpdatedRows) === 0) return false;
  await trx
    .insertInto('benefit_ledger')
    .values({ user_id: userId, chats_delta: -1, gold_coins_delta: 0, reason, created_at: now() })
    .execute();
  return true;
}

/** Gives one chat back inside `trx` (with the change that justifies it), recorded in the ledger. */
export async function refundChat(
  trx: Transaction<Database>,
  userId: string,
  reason: string,
): Promise<void> {
  await trx
    .updateTable('benefits')
    .set((eb) => ({ chats: eb('chats', '+', 1), updated_at: now() }))
    .where('user_id', '=', userId)
    .execute();
  await trx
    .insertInto('benefit_ledger')
    .values({ user_id: userId, chats_delta: 1, gold_coins_delta: 0, reason, created_at: now() })
    .execute();
}

/**
 * Takes `amount` gold coins inside `trx`, recorded in the ledger; `false` (nothing written)
 * when the user has fewer. The update is conditional, so parallel calls cannot overdraw.
 */
export async function spendGoldCoins(
  trx: Transaction<Database>,
  userId: string,
  amount: number,
  reason: string,
): Promise<boolean> {
  if (amount === 0) return true;
  const charged = await trx
    .updateTable('benefits')
    .set((eb) => ({ gold_coins: eb('gold_coins', '-', amount), updated_at: now() }))
    .where('user_id', '=', userId)
    .where('gold_coins', '>=', amount)
    .executeTakeFirst();
  if (Number(charged.numUpdatedRows) === 0) return false;
  await trx
    .insertInto('benefit_ledger')
    .values({
      user_id: userId,
      chats_delta: 0,
      gold_coins_delta: -amount,
      reason,
      created_at: now(),
    })
    .execute();
  return true;
}

/** Gives `amount` gold coins back inside `trx` (with the change that justifies it), in the ledger. */
export async function refundGoldCoins(
  trx: Kysely<Database>,
  userId: string,
  amount: number,
  reason: string,
): Promise<void> {
  if (amount === 0) return;
  await trx
    .updateTable('benefits')
    .set((eb) => ({ gold_coins: eb('gold_coins', '+', amount), updated_at: now() }))
    .where('user_id', '=', userId)
    .execute();
  await trx
    .insertInto('benefit_ledger')
    .values({
      user_id: userId,
      chats_delta: 0,
      gold_coins_delta: amount,
      reason,
      created_at: now(),
    })
    .execute();
}
