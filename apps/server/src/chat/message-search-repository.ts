import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { DialectName } from '../db/dialect';
import type { Database, MessageTable } from '../db/schema';
import { MESSAGE_COLUMNS } from './message-repository';

/** A message found, with its room's mate and, in a group chat, the group's name. */
export type FoundMessage = MessageTable & { mate_id: string; group_name: string | null };

/**
 * Not a copy a branch holds of its first path's message, saying the same there, while that
 * path is there: a search finds each message once, in the path it was written in. A copy sits
 * at its original's position; one changed in the branch, or whose original was changed or
 * deleted, says what no other path does, and is found in the branch.
 */
const notACopy = sql<boolean>`not exists (
  select 1 from rooms parent
  join messages fork on fork.id = rooms.fork_message_id
  join messages original on original.room_id = parent.id and original.position = messages.position
  where parent.id = rooms.parent_room_id and messages.position <= fork.position
    and original.content = messages.content
)`;

/**
 * How many of a person's newest messages a search on PostgreSQL reads first, for words common
 * enough that a page is likely among them: walking the owner's index newest first stops at the
 * page. Rarer words are taken from the GIN index of (owner, words), as are pages further back
 * and words thought common that the window did not hold. The planner, left to choose between
 * the two by its own estimate, multiplied the words' shares (two common words, rare together
 * by its count, were read from the index: every match sorted) and walked all of a person's
 * messages for words rare together (0.5–1 s at a million).
 */
export const RECENT_WINDOW = 5000;

/** How long a process keeps PostgreSQL's word statistics before reading them again. */
const STATISTICS_MS = 10 * 60 * 1000;

/** The share of messages holding each of the most common words (pg_stats), as last read. */
const wordStatistics = new WeakMap<
  Kysely<Database>,
  { at: number; shares: Promise<Map<string, number>> }
>();

/**
 * The share of messages that PostgreSQL's statistics (`ANALYZE`, kept by autovacuum) give each
 * of its most common words; a word not among them is rarer than the least of those.
 */
function commonWords(db: Kysely<Database>): Promise<Map<string, number>> {
  const known = wordStatistics.get(db);
  if (known && Date.now() - known.at < STATISTICS_MS) return known.shares;
  const shares = sql<{ words: string[] | null; shares: number[] | null }>`
    select most_common_elems::text::text[] as words, most_common_elem_freqs as shares
    from pg_stats
    where schemaname = current_schema() and tablename = 'messages' and attname = 'search'`
    .execute(db)
    .then(({ rows }) => {
      const [row] = rows;
      return new Map((row?.words ?? []).map((word, index) => [word, row!.shares![index]!]));
    });
  // A failed read is read again at the next search.
  shares.catch(() => wordStatistics.delete(db));
  wordStatistics.set(db, { at: Date.now(), shares });
  return shares;
}

/**
 * `words` as a search matches them: each but the last whole (`whole`), the last as a word's
 * start (`start`), for it may still be being typed. The one place that says so, for both
 * databases' queries, the statistics and the snippet's marks.
 */
export function asTyped<T>(
  words: string[],
  whole: (word: string) => T,
  start: (word: string) => T,
): T[] {
  return words.map((word, index) => (index === words.length - 1 ? start(word) : whole(word)));
}

/**
 * At most the share of messages holding all of `words` (the last one a word's start), by the
 * statistics: the least of the words' shares, a word's start counting every common word it
 * starts; 0 for a word not among the common ones.
 */
export function likelyShare(words: string[], common: Map<string, number>): number {
  return Math.min(
    ...asTyped(
      words,
      (word) => common.get(word) ?? 0,
      (start) => {
        let share = 0;
        for (const [known, part] of common) if (known.startsWith(start)) share += part;
        return Math.min(1, share);
      },
    ),
  );
}

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
  /** Tests vary how many newest messages are read first, and the words' shares. */
  options: { window?: number; common?: Map<string, number> } = {},
): Promise<FoundMessage[]> {
  if (dialect === 'sqlite') return findOnSqlite(db, search);
  // Each earlier word whole, the last one as a word's start.
  const query = asTyped(
    search.words,
    (word) => word,
    (start) => `${start}:*`,
  ).join(' & ');
  const matches = sql<boolean>`messages.search @@ to_tsquery('simple', ${query})`;
  // The newest messages first only where the words are common enough for the page to be
  // among them twice over.
  const wanted = search.offset + search.limit;
  const window = options.window ?? RECENT_WINDOW;
  const common = wanted <= window ? (options.common ?? (await commonWords(db))) : new Map();
  const share = likelyShare(search.words, common);
  if (share * window >= 2 * wanted) {
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
    // A full page, or the owner's every message read: the whole answer. Else the words were
    // rarer than thought (rare together, or common long ago only).
    if (rows.length === search.limit || !(await ownsMoreThan(db, search.userId, window)))
      return rows;
  }
  // Only the GIN index of (owner, words): the plain index walks and the table's scan are
  // turned off for this statement's transaction, so that the planner cannot walk the owner's
  // messages one by one instead.
  return db.transaction().execute(async (trx) => {
    await sql`select set_config('enable_indexscan', 'off', true),
      set_config('enable_seqscan', 'off', true)`.execute(trx);
    const owned = trx
      .selectFrom('messages')
      .where(sql<string>`messages.user_id`, '=', search.userId)
      .where(matches);
    return pageOf(owned, search);
  });
}

/**
 * The page of `messages` (the caller's newest, or their matches) that hold the words, newest
 * first, with each message's mate; not the copies a branch holds of its parent's messages.
 */
function pageOf(
  messages: SelectQueryBuilder<Database, 'messages', object>,
  search: MessageSearch,
): Promise<FoundMessage[]> {
  return (
    messages
      .innerJoin('rooms', 'rooms.id', 'messages.room_id')
      .select(MESSAGE_COLUMNS.map((column) => `messages.${column}` as const))
      .select(['rooms.mate_id', 'rooms.group_name'])
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

/** How many noted messages one step of {@link indexPendingMessages} indexes. */
export const INDEX_BATCH = 200;

/**
 * How long the server's indexer lets a `partial` message wait (seconds since its first write
 * after the last batch): a reply being written ends well within it, and one cut off is indexed
 * after it (or at the next search).
 */
export const PARTIAL_WAIT_S = 60;

/**
 * How many removed messages one step of {@link forgetRemovedMessages} takes out of the index's
 * pages: about 1.5 ms a short message and 5 ms a long one at 100,000 messages (migration 0043),
 * so that a step holds the event loop some 15–30 ms.
 */
export const FORGET_BATCH = 5;

/**
 * On SQLite, takes up to `limit` of the messages noted as removed (migration 0043) out of the
 * search index: the words it holds of each out of the pages they were written on, in one
 * transaction, which also clears their notes. Answers how many it took; nothing on PostgreSQL,
 * whose index is the messages' own rows.
 */
export async function forgetRemovedMessages(
  db: Kysely<Database>,
  dialect: DialectName,
  limit = FORGET_BATCH,
): Promise<number> {
  if (dialect !== 'sqlite') return 0;
  const { rows } = await sql`select 1 from messages_fts_forget limit 1`.execute(db);
  if (rows.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    const picked = await sql<{ id: number }>`select id from messages_fts_forget
      order by id limit ${limit}`.execute(trx);
    const noted = sql.join(picked.rows.map((row) => row.id));
    await sql`insert into messages_fts(messages_fts, rowid, owner, body)
      select 'delete', message_rowid, owner, body from messages_fts_forget
      where id in (${noted}) order by id`.execute(trx);
    await sql`delete from messages_fts_forget where id in (${noted})`.execute(trx);
    return picked.rows.length;
  });
}

/**
 * On SQLite, indexes up to `limit` of the messages whose writes were noted for the search index
 * (migrations 0040 and 0043): the words the index held of each out (their note keeps them), its
 * words as they are now in (none for a message emptied), in one transaction, which also clears
 * their notes. A message written twice before a step (a reply saved as it grows) is indexed
 * once, as it is then; one written at the rowid of a removed message the index still holds
 * waits until {@link forgetRemovedMessages} has taken that out. With `partialAfterS`, a
 * `partial` message noted less than that many seconds ago waits too: a reply being written is
 * indexed once, as it ends, not taken out of the index's pages again at each step (the server's
 * indexer; a search takes everything). Answers how many notes it took; nothing on PostgreSQL,
 * whose index follows every write.
 */
export async function indexPendingMessages(
  db: Kysely<Database>,
  dialect: DialectName,
  limit = INDEX_BATCH,
  partialAfterS = 0,
): Promise<number> {
  if (dialect !== 'sqlite') return 0;
  // A reply still being written waits, when asked (see `partialAfterS` above).
  const ready = sql`(messages.status <> 'partial'
    or pending.noted_at <= ${Math.floor(Date.now() / 1000) - partialAfterS})`;
  // Mostly nothing is noted (an idle server's step, a search after the last batch): one read
  // answers that, where the transaction's deletes would write and wait for a sync of the WAL.
  // The notes are read first (SQLite's `cross join` keeps that order): the planner, which
  // knows nothing of how few there are, read every message to join them (13–25 ms a search at
  // 100,000 messages).
  const { rows } = await sql`select 1 from messages_fts_pending as pending
    cross join messages on messages.rowid = pending.message_rowid
    where ${ready} limit 1`.execute(db);
  if (rows.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    // The batch is chosen once, so that every statement below works on the same notes.
    const picked = await sql<{ message_rowid: number }>`select pending.message_rowid
      from messages_fts_pending as pending
      cross join messages on messages.rowid = pending.message_rowid
      where ${ready}
      and pending.message_rowid not in (select message_rowid from messages_fts_forget)
      order by pending.message_rowid limit ${limit}`.execute(trx);
    if (picked.rows.length === 0) return 0;
    const noted = sql.join(picked.rows.map((row) => row.message_rowid));
    // What the index holds of each (migration 0043), out of its pages.
    await sql`insert into messages_fts(messages_fts, rowid, owner, body)
      select 'delete', pending.message_rowid, rooms.user_id, pending.indexed
      from messages_fts_pending as pending
      join messages on messages.rowid = pending.message_rowid
      join rooms on rooms.id = messages.room_id
      where pending.message_rowid in (${noted}) and pending.indexed is not null`.execute(trx);
    await sql`insert into messages_fts(rowid, owner, body)
      select messages.rowid, rooms.user_id, messages.content
      from messages join rooms on rooms.id = messages.room_id
      where messages.rowid in (${noted}) and messages.content <> ''`.execute(trx);
    await sql`delete from messages_fts_pending where message_rowid in (${noted})`.execute(trx);
    return picked.rows.length;
  });
}

/**
 * Takes every removed message out of the search index, then indexes every message noted for
 * it, a batch at a time (see above).
 */
export async function indexAllPendingMessages(
  db: Kysely<Database>,
  dialect: DialectName,
): Promise<void> {
  while ((await forgetRemovedMessages(db, dialect)) === FORGET_BATCH);
  while ((await indexPendingMessages(db, dialect)) === INDEX_BATCH);
}

/** The SQLite search: the owner's matches in the FTS5 table, newest first, to the page. */
async function findOnSqlite(db: Kysely<Database>, search: MessageSearch) {
  // What was written since the last batch is indexed first: a search finds it. What was
  // removed is left to the indexer (taking words out of pages takes time: a chat of 1,000
  // messages about 3 s), and is not found meanwhile (below).
  while ((await indexPendingMessages(db, 'sqlite')) === INDEX_BATCH);
  // The owner's id as a phrase of its words (the tokenizer splits it the same way).
  const owner = search.userId
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(' ');
  const words = asTyped(
    search.words,
    (word) => `"${word}"`,
    (start) => `"${start}"*`,
  ).join(' ');
  const match = `owner:"${owner}" AND body:(${words})`;
  return db
    .selectFrom('messages')
    .innerJoin('rooms', 'rooms.id', 'messages.room_id')
    .select(MESSAGE_COLUMNS.map((column) => `messages.${column}` as const))
    .select(['rooms.mate_id', 'rooms.group_name'])
    .where(notACopy)
    .where('rooms.user_id', '=', search.userId)
    .where(
      sql<boolean>`messages.rowid in (
        select rowid from messages_fts where messages_fts match ${match}
        and rowid not in (select message_rowid from messages_fts_forget)
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
