import type { Kysely } from 'kysely';

/**
 * What each checkout sold: `price_amount` and `price_currency`, its package's price when it
 * began, so that its paid session is checked against that (a price changed by `PACKAGES_FILE`
 * meanwhile is not the buyer's). `problem`: why a paid session was not granted (it was not the
 * checkout's own session, or it was paid another amount or currency), for the operator to see.
 * Checkouts begun before this have no stored price: their package's current one stands in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One column a statement: SQLite adds one at a time.
  await db.schema.alterTable('checkouts').addColumn('price_amount', 'integer').execute();
  await db.schema.alterTable('checkouts').addColumn('price_currency', 'text').execute();
  await db.schema.alterTable('checkouts').addColumn('problem', 'text').execute();
}
