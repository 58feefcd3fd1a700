import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * The Character Card spec a mate was imported as (`v2` or `v3`), so that its JSON export
 * answers in the same one by default; mates made here are `v2`.
 */
export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  await db.schema
    .alterTable('mates')
    .addColumn('card_spec', 'varchar(8)', (c) => c.notNull().defaultTo('v2'))
    .execute();
}
