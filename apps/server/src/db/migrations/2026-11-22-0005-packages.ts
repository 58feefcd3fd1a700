import type { Kysely } from 'kysely';
import { columnTypes, type DialectName } from '../dialect';

/** What can be bought, and who subscribes to what. Payments come with their own issue. */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('packages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('price_amount', 'integer', (c) => c.notNull())
    .addColumn('price_currency', 'text', (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('chats', 'integer', (c) => c.notNull())
    .addColumn('gold_coins', 'integer', (c) => c.notNull())
    .addColumn('features', t.json, (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('subscriptions')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('package_id', 'text', (c) => c.notNull().references('packages.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('started_at', t.timestamp, (c) => c.notNull())
    .addColumn('current_period_end', t.timestamp, (c) => c.notNull())
    .execute();
}
