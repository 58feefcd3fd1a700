import type { Kysely } from 'kysely';
import { columnTypes, type DialectName } from '../dialect';

/**
 * Voice (#16): `mates.voice`, the voice a mate speaks in (`null`: the default for its gender),
 * and `speech_clips`, the audio of one message in one voice. A clip is charged once when first
 * linked (`cost` coins to `user_id`), made on first play (`state` pending → ready, with its
 * `file` and length) or `failed` (coins given back; the next link charges again). `text_hash`
 * is the spoken text's hash: a clip of words the message no longer says is never played.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema.alterTable('mates').addColumn('voice', 'text').execute();
  await db.schema
    .createTable('speech_clips')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('message_id', 'text', (c) =>
      c.notNull().references('messages.id').onDelete('cascade'),
    )
    .addColumn('voice', 'varchar(100)', (c) => c.notNull())
    .addColumn('text_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('file', 'text')
    .addColumn('mime_type', 'varchar(64)')
    .addColumn('duration_ms', 'integer')
    .addColumn('cost', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('speech_clips_message_voice', ['message_id', 'voice'])
    .execute();
}
