import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * A room's pictures and sharing them (#15): a picture message keeps the image model it was
 * asked of (`null` for the default), and while its owner shares it, the random id of its
 * public link. Ids are unique; SQLite and PostgreSQL both let any number of rows hold `null`.
 */
export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  await db.schema.alterTable('messages').addColumn('image_model', 'text').execute();
  // SQLite cannot add a column with a UNIQUE constraint: a unique index does the same.
  await db.schema.alterTable('messages').addColumn('image_share_id', 'text').execute();
  await db.schema
    .createIndex('messages_image_share')
    .on('messages')
    .column('image_share_id')
    .unique()
    .execute();
}
