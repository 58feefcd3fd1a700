import type { Kysely } from 'kysely';
import { columnTypes, type DialectName } from '../dialect';

/** Rooms (one user, one mate, optionally a persona) and their messages, in order. */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('rooms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('mate_id', 'text', (c) => c.notNull().references('mates.id').onDelete('cascade'))
    .addColumn('persona_id', 'text', (c) => c.references('personas.id').onDelete('set null'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rooms_recent')
    .on('rooms')
    .columns(['user_id', 'updated_at'])
    .execute();
  await db.schema
    .createTable('messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('room_id', 'text', (c) => c.notNull().references('rooms.id').onDelete('cascade'))
    // Timestamps can tie within a millisecond; the position orders a room's messages.
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('edited_at', t.timestamp)
    .addUniqueConstraint('messages_room_position', ['room_id', 'position'])
    .execute();
}
