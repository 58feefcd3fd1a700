import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, UserTable } from '../db/schema';
import { now } from '../db/dialect';
import { matesWithCreators, visibleTo } from './mate-rows';

/** How far back trending looks. */
export const TRENDING_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Records that `userId` sent a message to `mateId`: the send route calls it inside the
 * transaction that saves the user's message (not when a room is opened, so empty rooms
 * count for nothing). The mate's chat counter grows once per user who ever chatted with it;
 * trending counts each user once per mate in its window.
 */
export async function recordChatForTrending(
  trx: Transaction<Database>,
  chat: { mateId: string; userId: string },
): Promise<void> {
  const before = await trx
    .selectFrom('mate_chat_log')
    .select('id')
    .where('mate_id', '=', chat.mateId)
    .where('user_id', '=', chat.userId)
    .limit(1)
    .executeTakeFirst();
  await trx
    .insertInto('mate_chat_log')
    .values({ mate_id: chat.mateId, user_id: chat.userId, created_at: now() })
    .execute();
  if (!before)
    await trx
      .updateTable('mates')
      .set((eb) => ({ chats_count: eb('chats_count', '+', 1) }))
      .where('id', '=', chat.mateId)
      .execute();
}

/** The ten mates `viewer` may see with the most people chatting with them lately. */
export function trendingMates(db: Kysely<Database>, viewer: UserTable | null) {
  const since = new Date(Date.now() - TRENDING_WINDOW_MS).toISOString();
  const recent = sql<number>`(select count(distinct mate_chat_log.user_id) from mate_chat_log where mate_chat_log.mate_id = mates.id and mate_chat_log.created_at >= ${since})`;
  return visibleTo(matesWithCreators(db), viewer)
    .select(recent.as('recent_chats'))
    .orderBy('recent_chats', 'desc')
    .orderBy('mates.chats_count', 'desc')
    .orderBy('mates.created_at', 'desc')
    .limit(10)
    .execute();
}
