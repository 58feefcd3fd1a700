import type { Kysely } from 'kysely';
import { columnTypes, type DialectName } from '../dialect';

/**
 * Payments through Stripe (#17). `checkouts`: each purchase started, from its Checkout Session
 * to its end (`open`, `paid`, `cancelled`, `failed`, `expired`), with what it granted and what a
 * refund took back. `payment_events`: the id of every Stripe event fulfilled, written in the
 * same transaction as its effect, so that a delivery seen twice changes nothing. A subscription
 * remembers its Stripe ids and whether it ends at the period's end; a package may be taken off
 * sale (`on_sale`) without losing the rows that name it.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('checkouts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('package_id', 'text', (c) => c.notNull().references('packages.id'))
    .addColumn('stripe_session_id', 'text', (c) => c.unique())
    .addColumn('stripe_payment_intent', 'text')
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('chats_granted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('gold_coins_granted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amount_refunded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('checkouts_user_id')
    .on('checkouts')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('checkouts_payment_intent')
    .on('checkouts')
    .column('stripe_payment_intent')
    .execute();
  await db.schema
    .createTable('payment_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('processed_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.alterTable('subscriptions').addColumn('stripe_subscription_id', 'text').execute();
  await db.schema.alterTable('subscriptions').addColumn('stripe_customer_id', 'text').execute();
  // The creation time (Unix seconds) of the newest Stripe event applied: an older one that
  // arrives late changes nothing.
  await db.schema
    .alterTable('subscriptions')
    .addColumn('stripe_event_at', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('subscriptions')
    .addColumn('cancel_at_period_end', t.bool, (c) =>
      c.notNull().defaultTo(dialect === 'sqlite' ? 0 : false),
    )
    .execute();
  await db.schema
    .createIndex('subscriptions_stripe_id')
    .on('subscriptions')
    .column('stripe_subscription_id')
    .unique()
    .execute();
  await db.schema
    .alterTable('packages')
    .addColumn('on_sale', t.bool, (c) => c.notNull().defaultTo(dialect === 'sqlite' ? 1 : true))
    .execute();
}
