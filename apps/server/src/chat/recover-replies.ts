import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { failEmptyReply } from './start-reply';

/**
 * Marks replies that a killed process left `partial` and empty as `error`, giving their chat
 * back; answers how many. Only replies started before `startedBefore`: a reply another
 * server is writing right now is younger than that.
 */
export async function recoverAbandonedReplies(
  db: Kysely<Database>,
  startedBefore: Date,
): Promise<number> {
  const abandoned = await db
    .selectFrom('messages')
    .innerJoin('rooms', 'rooms.id', 'messages.room_id')
    .select(['messages.id', 'rooms.user_id'])
    .where('messages.role', '=', 'mate')
    // A literal, not a parameter: only then can SQLite use the partial index of unfinished replies.
    .where(sql<boolean>`messages.status = 'partial'`)
    .where('messages.content', '=', '')
    .where('messages.created_at', '<', startedBefore.toISOString())
    .execute();
  let recovered = 0;
  for (const reply of abandoned) {
    if (await failEmptyReply(db, reply.user_id, reply.id, 'refund: reply abandoned'))
      recovered += 1;
  }
  return recovered;
}
