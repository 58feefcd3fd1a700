import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../db/dialect';
import type { Database, MessageTable } from '../db/schema';
import { MESSAGE_COLUMNS } from './message-repository';

/** A message found, with the mate of its room. */
export type FoundMessage = MessageTable & { mate_id: string };

/**
 * Not a copy a branch holds of its parent path's message while that path is there: a search
 * finds each message once, in the path it was written in.
 */
const notACopy = sql<boolean>`not exists (
  select 1 from rooms parent join messages fork on fork.id = rooms.fork_message_id
  where parent.id = rooms.parent_room_id and messages.position <= fork.position
)`;

/**
 * A page of `userId`'s messages holding every one of `words` (lowercase, unaccented; each a
 * word's start), newest first: up to `limit` after `offset`. On SQLite the FTS5 table finds
 * the owner's matches and walks them newest first, stopping at the page; on PostgreSQL the
 * GIN index over the unaccented words.
 */
export async function findMessages(
  db: Kysely<Database>,
  dialect: DialectName,
  search: { userId: string; words: string[]; limit: number; offset: number },
): Promise<FoundMessage[]> {
  const found = db
    .selectFrom('messages')
    .innerJoin('rooms', 'rooms.id', 'messages.room_id')
    .select(MESSAGE_COLUMNS.map((column) => `messages.${column}` as const))
    .select('rooms.mate_id')
    .where('rooms.user_id', '=', search.userId)
    .where(notACopy);
  if (dialect === 'sqlite') {
    // The owner's id as a phrase of its words (the tokenizer splits it the same way).
    const owner = search.userId
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .join(' ');
    const match = `owner:"${owner}" AND body:(${search.words.map((word) => `"${word}"*`).join(' ')})`;
    const rows = await found
      .where(
        sql<boolean>`messages.rowid in (
          select rowid from messages_fts where messages_fts match ${match}
          order by rowid desc limit ${search.limit + search.offset}
        )`,
      )
      .orderBy(sql`messages.rowid`, 'desc')
      .limit(search.limit)
      .offset(search.offset)
      .execute();
    return rows;
  }
  const query = search.words.map((word) => `${word}:*`).join(' & ');
  // The words first, by their GIN index (materialized: left to itself, the planner walked the
  // person's rooms message by message, 150 ms at 100,000 messages for a word in none), then
  // the person's, newest first.
  const rows = await found
    .where(
      'messages.id',
      'in',
      sql<string>`(select hit.id from (
        select id from messages where search @@ to_tsquery('simple', ${query})
        offset 0
      ) hit)`,
    )
    .orderBy('messages.created_at', 'desc')
    // Messages written together (a turn) share their time: the later in the room first.
    .orderBy('messages.position', 'desc')
    .orderBy('messages.id', 'desc')
    .limit(search.limit)
    .offset(search.offset)
    .execute();
  return rows;
}
