import type { Kysely } from 'kysely';
import { columnTypes, type DialectName } from '../dialect';

/**
 * What each of a plan's payments granted, by its Stripe invoice (the first month's, paid through
 * its checkout, and each renewal's), so that a refund or a lost chargeback of that payment takes
 * back that month's grant, as a pack's does. `amount_disputed`, on both: what chargebacks lost
 * took back, in minor units, beside what refunds did.
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
}
