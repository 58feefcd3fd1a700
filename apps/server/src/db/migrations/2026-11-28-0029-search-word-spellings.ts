import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * `search_word_spellings`: how people typed each hot word on each UTC day (lowercase, accents
 * kept), counted like `search_word_days`, once per person a day. The hot words are keyed by the
 * form the search index compares ("seance"), which is not what people wrote ("séance"); they are
 * shown in the spelling typed most often. A word without spellings (logged before this table)
 * is shown as its key.
 */
export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('search_word_spellings')
    .addColumn('word', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('spelling', 'text', (c) => c.notNull())
    .addColumn('searches', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_word_spellings_pk', ['word', 'day', 'spelling'])
    .execute();
  await db.schema
    .createIndex('search_word_spellings_day')
    .on('search_word_spellings')
    .column('day')
    .execute();
}
