import { type Kysely } from 'kysely';
import { columnTypes, type DialectName } from '../dialect';

/**
 * Card fields Mates does not use (post_history_instructions, character_book,
 * character_version, the card's own creator and tags, unknown data keys), kept so that an
 * imported card exports as it came.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema
    .alterTable('mates')
    .addColumn('card_extra', columnTypes(dialect).json, (c) => c.notNull().defaultTo('{}'))
    .execute();
}
