import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
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
 * How many of a person's newest messages a search on PostgreSQL reads first: a first page of
 * words in more than about one message in 500 is found among them, walking the owner's index
 * newest first and stopping at the page (no word statistics involved); rarer words, and pages
 * further back, are taken from the GIN index of (owner, words). The planner, left to choose
 * between the two by the words' frequencies, walked all of a person's messages for words that
 * are common alone but rare together, or common long ago only (0.5–1 s at a million).
 */
export const RECENT_WINDOW = 10_000;

/** What a search asks: `words` lowercase and unaccented, the last one a word's start. */
export interface MessageSearch {
  userId: string;
  words: string[];
  limit: number;
  offset: number;
}

/**
 * A page of `userId`'s messages holding every one of `words` (lowercase, unaccented): each
 * earlier word whole, the last one as a word's start (it may still be being typed), newest
 * first, up to `limit` after `offset`. On SQLite the FTS5 table finds the owner's matches and
 * walks them newest first, stopping at the page; on PostgreSQL the owner's newest messages
 * first, then, should they not fill the page, the owner's matches in the GIN index of
 * (owner, words).
 */
export async function findMessages(
  db: Kysely<Database>,
  dialect: DialectName,
  search: MessageSearch,
  /** How many newest messages PostgreSQL reads before its index of words (tests vary it). */
  window = RECENT_WINDOW,
): Promise<FoundMessage[]> {
  if (dialect === 'sqlite') return findOnSqlite(db, search);
  // Each earlier word whole, the last one as a word's start.
  const query = search.words
    .map((word, index) => (index === search.words.length - 1 ? `${word}:*` : word))
    .join(' & ');
  const matches = sql<boolean>`messages.search @@ to_tsquery('simple', ${query})`;
  if (search.offset + search.limit <= window) {
    // Messages carry their owner on PostgreSQL (kept by a trigger): the owner's newest, in the
    // search's order, read by the owner's index.
    const recent = db
      .selectFrom('messages')
      .selectAll()
      .where(sql<string>`messages.user_id`, '=', search.userId)
      .orderBy('created_at', 'desc')
      .orderBy('position', 'desc')
      .orderBy('id', 'desc')
      .limit(window)
      .as('messages');
    const rows = await pageOf(db.selectFrom(recent).where(matches), search);
    // A full page, or the owner's every message read: the whole answer.
    if (rows.length === search.limit || !(await ownsMoreThan(db, search.userId, window)))
      return rows;
  }
  // Only the GIN index of (owner, words): the plain index walks and the table's scan are
  // turned off for this statement's transaction, so that the planner cannot walk the owner's
  // messages one by one instead.
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_indexscan = off`.execute(trx);
    await sql`set local enable_seqscan = off`.execute(trx);
    const owned = trx
      .selectFrom('messages')
      .where(sql<string>`messages.user_id`, '=', search.userId)
      .where(matches);
    return pageOf(owned, search);
  });
}

/**
 * The page of `messages` (the caller's matches, or a set they are among), newest first, with
 * each message's mate; not the copies a branch holds of its parent's messages.
 */
function pageOf(
  messages: SelectQueryBuilder<Database, 'messages', object>,
  search: MessageSearch,
): Promise<FoundMessage[]> {
  return (
    messages
      .innerJoin('rooms', 'rooms.id', 'messages.room_id')
      .select(MESSAGE_COLUMNS.map((column) => `messages.${column}` as const))
      .select('rooms.mate_id')
      .where(notACopy)
      .orderBy('messages.created_at', 'desc')
      // Messages written together (a turn) share their time: the later in the room first.
      .orderBy('messages.position', 'desc')
      .orderBy('messages.id', 'desc')
      .limit(search.limit)
      .offset(search.offset)
      .execute()
  );
}

/** Whether `userId` has more than `count` messages (read in the owner's index, no further). */
async function ownsMoreThan(db: Kysely<Database>, userId: string, count: number) {
  const beyond = await db
    .selectFrom('messages')
    .select('id')
    .where(sql<string>`messages.user_id`, '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('position', 'desc')
    .orderBy('id', 'desc')
    .offset(count)
    .limit(1)
    .executeTakeFirst();
  return beyond !== undefined;
}

/** The SQLite search: the owner's matches in the FTS5 table, newest first, to the page. */
async function findOnSqlite(db: Kysely<Database>, search: MessageSearch) {
  // The owner's id as a phrase of its words (the tokenizer splits it the same way).
  const owner = search.userId
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(' ');
  const words = search.words
    .map((word, index) => (index === search.words.length - 1 ? `"${word}"*` : `"${word}"`))
    .join(' ');
  const match = `owner:"${owner}" AND body:(${words})`;
  return db
    .selectFrom('messages')
    .innerJoin('rooms', 'rooms.id', 'messages.room_id')
    .select(MESSAGE_COLUMNS.map((column) => `messages.${column}` as const))
    .select('rooms.mate_id')
    .where(notACopy)
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
