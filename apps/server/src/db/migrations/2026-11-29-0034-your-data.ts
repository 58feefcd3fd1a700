import type { Kysely } from 'kysely';
import { columnTypes, type DialectName } from '../dialect';

/**
 * "Your data" (issue 41): the zips of "Download my data" (`data_exports`, one row per export,
 * its job's id), and the closing of an account: `closing_at` marks an account being deleted
 * (a deletion interrupted by a kill is completed at the next start), `closing_keeps_mates`
 * what its owner chose for their public mates, and `former_member` the anonymous rows that
 * keep, without the person, their public mates and what accounting needs of their ledger.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const types = columnTypes(dialect);
  const no = dialect === 'sqlite' ? 0 : false;
  await db.schema
    .createTable('data_exports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('file', 'text')
    .addColumn('size', 'bigint')
    .addColumn('created_at', types.timestamp, (c) => c.notNull())
    .addColumn('ready_at', types.timestamp)
    .addColumn('expires_at', types.timestamp)
    .execute();
  await db.schema
    .createIndex('data_exports_user')
    .on('data_exports')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.alterTable('users').addColumn('closing_at', types.timestamp).execute();
  await db.schema
    .alterTable('users')
    .addColumn('closing_keeps_mates', types.bool, (c) => c.notNull().defaultTo(no))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('former_member', types.bool, (c) => c.notNull().defaultTo(no))
    .execute();
}
