import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * Memory per mate in a group chat (issue 40): a memory names the member whose own it is, or
 * `null` for what the whole room shares (a one-to-one chat's memories, a group's summary and
 * what every member heard). No foreign key, as for `room_members`: a member that left keeps its
 * memories, and a deleted mate's go with its room. Indexed for the facts a mate carries from its
 * groups into the person's other chats with it.
 */
export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  await db.schema.alterTable('memories').addColumn('mate_id', 'text').execute();
  await db.schema.createIndex('memories_mate').on('memories').column('mate_id').execute();
}
