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
 * owner's messages newest first, or the owner's matches in the GIN index of (owner, words).
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
    .where(notACopy);
  if (dialect === 'sqlite') {
    // The owner's id as a phrase of its words (the tokenizer splits it the same way).
    const owner = search.userId
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .join(' ');
    const match = `owner:"${owner}" AND body:(${search.words.map((word) => `"${word}"*`).join(' ')})`;
    const rows = await found
      .where('rooms.user_id', '=', search.userId)
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
  // Messages carry their owner on PostgreSQL (kept by a trigger): the planner walks the
  // person's messages newest first for common words (stopping at the page) and takes the
  // owner's matches from the GIN index of (owner, words) for rare ones, by the words'
  // frequencies in its statistics. Not the room's owner as well: the planner then started from
  // the person's rooms and read all their messages (167 ms for a common word, against 8).
  const rows = await found
    .where(sql<string>`messages.user_id`, '=', search.userId)
    .where(sql<boolean>`messages.search @@ to_tsquery('simple', ${query})`)
    .orderBy('messages.created_at', 'desc')
    // Messages written together (a turn) share their time: the later in the room first.
    .orderBy('messages.position', 'desc')
    .orderBy('messages.id', 'desc')
    .limit(search.limit)
    .offset(search.offset)
    .execute();
  return rows;
}

/**
 * On PostgreSQL, whether the GIN index of (owner, words) is there: a server whose PostgreSQL
 * lacked the `btree_gin` extension when it migrated keeps the index of words alone, and a
 * search the planner takes to that index reads every person's matches before the caller's.
 */
export async function hasOwnerWordsIndex(db: Kysely<Database>): Promise<boolean> {
  const found = await sql<{
    name: string;
  }>`select to_regclass('messages_owner_search') as name`.execute(db);
  return found.rows[0]?.name != null;
}
