import type { Kysely } from 'kysely';
import type { BenefitLedgerTable, Database } from '../db/schema';
import { preparedQuery } from '../db/prepared-query';
import type { RunNow } from '../db/sqlite-dialect';

/** A ledger row as written (its id is the database's). */
export type NewLedgerRow = Omit<BenefitLedgerTable, 'id'>;

// Each chat sent writes one: compiled once (see `preparedQuery`).
const ledgerRow = preparedQuery((db, v: NewLedgerRow) =>
  db.insertInto('benefit_ledger').values({
    user_id: v.user_id,
    chats_delta: v.chats_delta,
    gold_coins_delta: v.gold_coins_delta,
    kind: v.kind,
    reason: v.reason,
    reason_key: v.reason_key,
    reason_args: v.reason_args,
    reference_type: v.reference_type,
    reference_id: v.reference_id,
    chats_after: v.chats_after,
    gold_coins_after: v.gold_coins_after,
    created_at: v.created_at,
  }),
);

/** {@link insertLedgerRow} on the spot, inside `atOnceOnSqlite`'s transaction. */
export function insertLedgerRowNow(run: RunNow, db: Kysely<Database>, row: NewLedgerRow): void {
  run(ledgerRow.withValues(db, row));
}

/** Writes one ledger row. */
export async function insertLedgerRow(db: Kysely<Database>, row: NewLedgerRow): Promise<void> {
  await ledgerRow(db, row);
}

/** The sums of the user's spends and refunds since `since` (negative: spent), as stored. */
export function spendsSince(db: Kysely<Database>, userId: string, since: string) {
  return db
    .selectFrom('benefit_ledger')
    .select((eb) => [
      eb.fn.sum<number | string | null>('chats_delta').as('chats'),
      eb.fn.sum<number | string | null>('gold_coins_delta').as('gold_coins'),
    ])
    .where('user_id', '=', userId)
    .where('kind', 'in', ['spend', 'refund'])
    .where('created_at', '>=', since)
    .executeTakeFirst();
}

/**
 * One page of the user's ledger, newest first; a message reference comes with its chat's id
 * while the message is there.
 */
export function ledgerRows(
  db: Kysely<Database>,
  userId: string,
  page: { limit: number; offset: number },
) {
  return db
    .selectFrom('benefit_ledger')
    .leftJoin('messages', (join) =>
      join
        .onRef('messages.id', '=', 'benefit_ledger.reference_id')
        .on('benefit_ledger.reference_type', '=', 'message'),
    )
    .selectAll('benefit_ledger')
    .select('messages.room_id')
    .where('benefit_ledger.user_id', '=', userId)
    .orderBy('benefit_ledger.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** How many rows the user's ledger has (a count as the database gives it). */
export async function ledgerCount(db: Kysely<Database>, userId: string): Promise<number | string> {
  const total = await db
    .selectFrom('benefit_ledger')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return total.count;
}

/** The user's daily spending caps (`null`: none), undefined for no such user. */
export function spendingCapsOf(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('users')
    .select(['daily_chats_cap', 'daily_gold_coins_cap'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** Sets the user's daily spending caps (`null`: none). */
export async function setSpendingCaps(
  db: Kysely<Database>,
  userId: string,
  caps: { dailyChats: number | null; dailyGoldCoins: number | null; at: string },
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      daily_chats_cap: caps.dailyChats,
      daily_gold_coins_cap: caps.dailyGoldCoins,
      updated_at: caps.at,
    })
    .where('id', '=', userId)
    .execute();
}
