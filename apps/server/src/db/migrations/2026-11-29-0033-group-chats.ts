import { sql, type Kysely } from 'kysely';
import { columnTypes, type DialectName } from '../dialect';

/**
 * Group chats: a room of several mates. A group room keeps its first member in `mate_id` (what
 * a one-to-one room's code reads) and its name, scenario and turn order beside; its members,
 * past ones included, are rows of `room_members`; each mate message names its speaker.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const t = columnTypes(dialect);
  const falseValue = dialect === 'sqlite' ? sql`0` : sql`false`;
  // `null` on a one-to-one room: a room with a group name is a group.
  await db.schema.alterTable('rooms').addColumn('group_name', 'text').execute();
  await db.schema.alterTable('rooms').addColumn('group_scenario', 'text').execute();
  await db.schema.alterTable('rooms').addColumn('turn_order', 'text').execute();
  // "Continue"s and "Let X speak"s since the person last wrote: they are bounded.
  await db.schema
    .alterTable('rooms')
    .addColumn('nexts_in_row', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The mate that wrote a reply in a group; `null` elsewhere. No foreign key: a reply outlives
  // its speaker's leaving, and its card.
  await db.schema.alterTable('messages').addColumn('speaker_id', 'text').execute();
  await db.schema
    .createTable('room_members')
    .addColumn('room_id', 'text', (c) => c.notNull().references('rooms.id').onDelete('cascade'))
    // No foreign key: a deleted mate stays a past member, named by `name`.
    .addColumn('mate_id', 'text', (c) => c.notNull())
    // The mate's name when it joined, for the replies of one that is gone.
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('muted', t.bool, (c) => c.notNull().defaultTo(falseValue))
    .addColumn('talkativeness', 'real', (c) => c.notNull())
    .addColumn('joined_at', t.timestamp, (c) => c.notNull())
    .addColumn('left_at', t.timestamp)
    .addPrimaryKeyConstraint('room_members_pk', ['room_id', 'mate_id'])
    .execute();
  await db.schema.createIndex('room_members_mate').on('room_members').column('mate_id').execute();
}
