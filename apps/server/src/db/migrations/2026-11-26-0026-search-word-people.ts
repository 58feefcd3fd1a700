import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * `search_word_people`: who searched each word on each UTC day, so that a search counts towards
 * the hot words once per person a day. Before, one account searching a phrase sixty times put it
 * at the top of the hot words everyone is shown. Rows leave with the hot words' window.
 */
export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('search_word_people')
    .addColumn('word', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('search_word_people_pk', ['word', 'day', 'user_id'])
    .execute();
  await db.schema
    .createIndex('search_word_people_day')
    .on('search_word_people')
    .column('day')
    .execute();
}
