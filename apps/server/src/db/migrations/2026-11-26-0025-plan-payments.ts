import { sql, type Kysely } from 'kysely';
import { columnTypes, type DialectName } from '../dialect';

/**
 * What each of a plan's payments granted, by its Stripe invoice (the first month's, paid through
 * its checkout, and each renewal's), so that a refund or a lost chargeback of that payment takes
 * back that month's grant, as a pack's does. `amount_disputed`, on both: what chargebacks lost
 * took back, in minor units, beside what refunds did.
 *
 * `checkouts.plan`: whether it buys a plan. One person has at most one plan checkout open (a
 * unique index), so that two started at once (two tabs) can never both be paid: before, both
 * reached Stripe, and the second subscription replaced the first, still billed by Stripe.
 * Where a person already had several open (that race), the newest stays open.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('plan_payments')
    .addColumn('invoice_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('package_id', 'text', (c) => c.notNull().references('packages.id'))
    .addColumn('chats_granted', 'integer', (c) => c.notNull())
    .addColumn('gold_coins_granted', 'integer', (c) => c.notNull())
    .addColumn('amount_refunded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amount_disputed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('plan_payments_user_id')
    .on('plan_payments')
    .column('user_id')
    .execute();
  await db.schema
    .alterTable('checkouts')
    .addColumn('amount_disputed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  const yes = dialect === 'sqlite' ? sql.lit(1) : sql.lit(true);
  const no = dialect === 'sqlite' ? sql.lit(0) : sql.lit(false);
  await db.schema
    .alterTable('checkouts')
    .addColumn('plan', t.bool, (c) => c.notNull().defaultTo(no))
    .execute();
  await sql`update checkouts set plan = ${yes} where package_id in
    (select id from packages where period <> 'once')`.execute(db);
  await sql`update checkouts set state = 'cancelled' where state = 'open' and plan = ${yes}
    and exists (select 1 from checkouts newer where newer.user_id = checkouts.user_id
      and newer.state = 'open' and newer.plan = ${yes}
      and (newer.created_at > checkouts.created_at
        or (newer.created_at = checkouts.created_at and newer.id > checkouts.id)))`.execute(db);
  await sql`create unique index checkouts_one_open_plan on checkouts (user_id)
    where state = 'open' and plan = ${yes}`.execute(db);
}
