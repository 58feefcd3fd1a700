import type { Kysely } from 'kysely';

/**
 * Branches of a chat: a branch is a room of its own holding copies of another room's messages
 * up to one, linked to where it was made. A chat's paths share `family_id` (the first path's
 * id; `null` on the first path itself), and the room list shows each chat once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('rooms').addColumn('family_id', 'text').execute();
  // No foreign key: a path outlives the one it was made from.
  await db.schema.alterTable('rooms').addColumn('parent_room_id', 'text').execute();
  await db.schema.alterTable('rooms').addColumn('fork_parent_message_id', 'text').execute();
  await db.schema.alterTable('rooms').addColumn('fork_message_id', 'text').execute();
  await db.schema.createIndex('rooms_family').on('rooms').columns(['family_id']).execute();
}
