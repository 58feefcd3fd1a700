import { PostgresAdapter, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * Holds the room's row until `trx` ends (PostgreSQL; SQLite runs one writer at a time anyway).
 * Every transaction that takes it takes it first, before the room's messages, memories or the
 * person's balances: no two wait for each other crosswise. A run of the memory writer takes it
 * first too (it moves the room's `memory_through`), so a change to the room's words and a run
 * come one after the other, and whichever comes second marks what the first left stale.
 */
export async function holdRoomRow(trx: Kysely<Database>, roomId: string): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await trx.selectFrom('rooms').select('id').where('id', '=', roomId).forUpdate().execute();
}
