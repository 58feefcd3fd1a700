import type { Kysely } from 'kysely';
import { columnTypes, type DialectName } from '../dialect';

/**
 * Versions of a message to swipe between (#19): a greeting's alternate greetings, and the
 * earlier replies a regeneration keeps. `swipes` holds the other versions in order (a JSON
 * list, `null` for a message with one version) and `swipe_index` where `content`, the version
 * shown, sits among them.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema.alterTable('messages').addColumn('swipes', t.json).execute();
  await db.schema
    .alterTable('messages')
    .addColumn('swipe_index', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
