import type { Kysely } from 'kysely';
import { columnTypes, type DialectName } from '../dialect';

/**
 * Each version of a message keeps its own state: a reply stopped part way is cut off, and stays
 * so among its versions (`swipes`), chosen again or exported. `swipe_statuses` holds the states
 * of the other versions, in the order of `swipes` (a JSON list); `null` when every one of them
 * is whole, as every version kept before this column was taken to be.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema.alterTable('messages').addColumn('swipe_statuses', t.json).execute();
}
