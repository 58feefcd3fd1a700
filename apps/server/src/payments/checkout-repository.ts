import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { CheckoutTable, Database } from '../db/schema';
import { now } from '../db/dialect';

/** A stored checkout. */
export type CheckoutRow = Selectable<CheckoutTable>;

/** What refunds and lost chargebacks have taken back of a payment so far, in minor units. */
export interface TakenBackAmounts {
  amount_refunded: number;
  amount_disputed: number;
}

/** Stores a new checkout. */
export async function insertCheckout(
  db: Kysely<Database>,
  checkout: Insertable<CheckoutTable>,
): Promise<void> {
  await db.insertInto('checkouts').values(checkout).execute();
}

/** Deletes a checkout (one that never reached Stripe, or whose start was abandoned). */
export async function deleteCheckout(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('checkouts').where('id', '=', id).execute();
}

/** A checkout by its id, whoever bought it. */
export function checkoutById(db: Kysely<Database>, id: string): Promise<CheckoutRow | undefined> {
  return db.selectFrom('checkouts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A checkout by its id, only when `userId` started it. */
export function ownCheckout(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<CheckoutRow | undefined> {
  return db
    .selectFrom('checkouts')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The user's plan checkouts still open: their Stripe session (if made yet) and start. */
export function openPlanCheckouts(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('checkouts')
    .select(['id', 'stripe_session_id', 'created_at'])
    .where('user_id', '=', userId)
    .where('state', '=', 'open')
    .where('plan', '=', true)
    .execute();
}

/** Ends a checkout as `state`, only while it is still open. */
export async function endOpenCheckout(
  db: Kysely<Database>,
  id: string,
  state: 'cancelled' | 'expired',
): Promise<void> {
  await db
    .updateTable('checkouts')
    .set({ state, updated_at: now() })
    .where('id', '=', id)
    .where('state', '=', 'open')
    .execute();
}

/** Ties an open checkout to its Stripe session; false when it is no longer open. */
export async function attachSession(
  db: Kysely<Database>,
  id: string,
  sessionId: string,
): Promise<boolean> {
  const started = await db
    .updateTable('checkouts')
    .set({ stripe_session_id: sessionId, updated_at: now() })
    .where('id', '=', id)
    .where('state', '=', 'open')
    .executeTakeFirst();
  return Number(started.numUpdatedRows) > 0;
}

/** Whether a checkout's payment is the payment intent `intent`. */
export async function checkoutPaidBy(db: Kysely<Database>, intent: string): Promise<boolean> {
  const known = await db
    .selectFrom('checkouts')
    .select('id')
    .where('stripe_payment_intent', '=', intent)
    .executeTakeFirst();
  return Boolean(known);
}

/**
 * Marks a checkout `failed` with `problem`, unless it is paid; whether it changed. Conditional,
 * so that on PostgreSQL only one of two transactions about it changes it.
 */
export async function refuseCheckout(
  trx: Transaction<Database>,
  id: string,
  problem: string,
): Promise<boolean> {
  const refused = await trx
    .updateTable('checkouts')
    .set({ state: 'failed', problem, updated_at: now() })
    .where('id', '=', id)
    .where('state', '<>', 'paid')
    .executeTakeFirst();
  return Number(refused.numUpdatedRows) > 0;
}

/**
 * Marks a checkout `paid` with what it granted, unless it is paid already; whether it changed.
 * Conditional (`where state <> 'paid'`): on PostgreSQL a second transaction waits for the
 * first's row, then finds it paid and changes nothing, so only one grants.
 */
export async function markCheckoutPaid(
  trx: Transaction<Database>,
  id: string,
  paid: { paymentIntent: string | null; chats: number; goldCoins: number },
): Promise<boolean> {
  const changed = await trx
    .updateTable('checkouts')
    .set({
      state: 'paid',
      stripe_payment_intent: paid.paymentIntent,
      chats_granted: paid.chats,
      gold_coins_granted: paid.goldCoins,
      updated_at: now(),
    })
    .where('id', '=', id)
    .where('state', '<>', 'paid')
    .executeTakeFirst();
  return Number(changed.numUpdatedRows) > 0;
}

/** Ends a checkout unpaid as `state`, while it is open or cancelled; whether it changed. */
export async function endUnpaidCheckout(
  trx: Transaction<Database>,
  id: string,
  state: 'failed' | 'expired',
): Promise<boolean> {
  const changed = await trx
    .updateTable('checkouts')
    .set({ state, updated_at: now() })
    .where('id', '=', id)
    .where('state', 'in', ['open', 'cancelled'])
    .executeTakeFirst();
  return Number(changed.numUpdatedRows) > 0;
}

/**
 * The checkout paid by `intent`, read by a write that changes nothing, which on PostgreSQL
 * locks its row until the commit.
 */
export function lockCheckoutPaidBy(
  trx: Transaction<Database>,
  intent: string,
): Promise<CheckoutRow | undefined> {
  return trx
    .updateTable('checkouts')
    .set((eb) => ({ amount_refunded: eb.ref('amount_refunded') }))
    .where('stripe_payment_intent', '=', intent)
    .returningAll()
    .executeTakeFirst();
}

/** Records what refunds and chargebacks have taken back of a checkout's payment. */
export async function setCheckoutTakenBack(
  trx: Transaction<Database>,
  id: string,
  amounts: TakenBackAmounts,
): Promise<void> {
  await trx
    .updateTable('checkouts')
    .set({ ...amounts, updated_at: now() })
    .where('id', '=', id)
    .execute();
}

/** Whether checkout `id` is still open or cancelled (not paid), of a package that exists. */
export async function isUnpaidCheckout(trx: Transaction<Database>, id: string): Promise<boolean> {
  const unpaid = await trx
    .selectFrom('checkouts')
    .innerJoin('packages', 'packages.id', 'checkouts.package_id')
    .select('checkouts.state')
    .where('checkouts.id', '=', id)
    .where('checkouts.state', 'in', ['open', 'cancelled'])
    .executeTakeFirst();
  return Boolean(unpaid);
}
