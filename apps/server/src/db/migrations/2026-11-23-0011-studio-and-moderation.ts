import { sql, type Kysely } from 'kysely';
import { columnTypes, type DialectName } from '../dialect';

/**
 * The creation studio and the moderation queue:
 * - `mates.deleted_at`: a creator deleted the mate. It vanishes everywhere; the row stays so
 *   that other people's rooms keep their conversation (read-only).
 * - `mates.hidden_*`: moderators hid the mate (reason, words to the creator, who, when). It
 *   vanishes from discovery, search, trending and other people's rooms; its creator still
 *   sees it, with the reason.
 * - `mate_feedback.closed_*`: a moderator acted on a report (`hidden` or `dismissed`).
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema.alterTable('mates').addColumn('deleted_at', t.timestamp).execute();
  await db.schema.alterTable('mates').addColumn('hidden_at', t.timestamp).execute();
  await db.schema.alterTable('mates').addColumn('hidden_reason', 'varchar(32)').execute();
  await db.schema
    .alterTable('mates')
    .addColumn('hidden_note', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('mates').addColumn('hidden_by', 'text').execute();
  await db.schema.alterTable('mate_feedback').addColumn('closed_at', t.timestamp).execute();
  await db.schema.alterTable('mate_feedback').addColumn('closed_by', 'text').execute();
  await db.schema.alterTable('mate_feedback').addColumn('outcome', 'varchar(16)').execute();
  await db.schema
    .createIndex('mate_feedback_open')
    .on('mate_feedback')
    .columns(['mate_id', 'created_at'])
    .where(sql.ref('closed_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('mates_by_creator')
    .on('mates')
    .columns(['creator_id', 'updated_at'])
    .execute();
}
