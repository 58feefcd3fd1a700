import type { Kysely } from 'kysely';
import { columnTypes, type DialectName } from '../dialect';

/**
 * What a mate remembers of a chat: facts and a running summary written from the messages that
 * left the prompt (or by the person), each linked to the messages it came from; how far a
 * room's messages are remembered; and the "remember me across chats" setting of a person and a
 * mate.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('memories')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('room_id', 'text', (c) => c.notNull().references('rooms.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('about', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('pinned', t.bool, (c) => c.notNull().defaultTo(dialect === 'sqlite' ? 0 : false))
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('needs_review', t.bool, (c) =>
      c.notNull().defaultTo(dialect === 'sqlite' ? 0 : false),
    )
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('memories_room').on('memories').columns(['room_id']).execute();
  await db.schema
    .createTable('memory_sources')
    .addColumn('memory_id', 'text', (c) =>
      c.notNull().references('memories.id').onDelete('cascade'),
    )
    .addColumn('message_id', 'text', (c) =>
      c.notNull().references('messages.id').onDelete('cascade'),
    )
    // The order of the sources (the message's position in its room).
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('memory_sources_pk', ['memory_id', 'message_id'])
    .execute();
  await db.schema
    .createIndex('memory_sources_message')
    .on('memory_sources')
    .columns(['message_id'])
    .execute();
  // The position through which the room's messages are remembered (0: none yet), and why the
  // last try to write memories failed.
  await db.schema
    .alterTable('rooms')
    .addColumn('memory_through', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('rooms').addColumn('memory_error', 'text').execute();
  // Moves on with every change to what the room's prompt may remember (its memories, and its
  // person's facts from their other rooms with the mate): 0 means nothing to remember, and a
  // send reads no memory at all; a server keeps what it read while the number stays.
  await db.schema
    .alterTable('rooms')
    .addColumn('memory_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('memory_settings')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('mate_id', 'text', (c) => c.notNull().references('mates.id').onDelete('cascade'))
    .addColumn('across_chats', t.bool, (c) => c.notNull())
    .addPrimaryKeyConstraint('memory_settings_pk', ['user_id', 'mate_id'])
    .execute();
}
