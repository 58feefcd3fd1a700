import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * On SQLite, a message deleted or edited leaves the search index's pages, not only its results.
 * The index was contentless with `contentless_delete=1`: FTS5 never knew a removed message's
 * words, so it hid the message behind a tombstone and kept its words in `messages_fts_data`
 * until a merge happened to rewrite their segment (a deleted account's words could be read
 * from the file for as long). Now the index is told the words it holds of what leaves it
 * (FTS5's `'delete'` command) and, with `secure-delete`, takes them out of their pages.
 *
 * Taking words out of their pages costs about 1.5 ms a short message and 5 ms a long one at
 * 100,000 messages, so it is not done in the statement that removes them (a chat of 1,000
 * messages deleted would hold the server for seconds): what leaves the index is noted in
 * `messages_fts_forget` (its rowid, owner and words, what the index holds of it) and the
 * indexer takes it out in small steps, before it indexes what is written
 * (`chat/message-indexer.ts`); a search leaves out what waits. A message written at a rowid
 * that waits to be forgotten is indexed once it is. What the index holds of a message:
 * - indexed as it is: its content;
 * - written since it was indexed: what its note in `messages_fts_pending` kept (`indexed`, from
 *   the first write after the batch; NULL: nothing of it);
 * - its owner: its room's, which a message removed with its room no longer finds, so a room
 *   deleted (alone, or with its account) notes its messages before it goes. A room never changes
 *   hands nor a message rooms (two triggers refuse it).
 * Words taken out cost, so a reply is not indexed while it is being written, only to be taken
 * out again at its next save (200 replies half written, indexed and then again: 0.5 s, where a
 * tombstone cost 23 ms): the indexer lets a `partial` message noted less than a minute ago
 * (`noted_at`) wait, unless a search asks for everything.
 * The table is made again and filled from the messages (about 50 s a million on a 2-core
 * machine, as migration 0039), so what earlier deletions left in its pages goes too. Nothing for
 * PostgreSQL, whose word lists are a generated column of the message's row.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect !== 'sqlite') return;
  for (const name of ['insert', 'update', 'delete'])
    await sql.raw(`DROP TRIGGER messages_fts_${name}`).execute(db);
  await sql`DROP TABLE messages_fts`.execute(db);
  await sql`DROP TABLE messages_fts_pending`.execute(db);
  await sql`CREATE VIRTUAL TABLE messages_fts USING fts5(
    owner, body,
    content='',
    tokenize='unicode61 remove_diacritics 2',
    prefix='2 3 4'
  )`.execute(db);
  await sql`INSERT INTO messages_fts(messages_fts, rank) VALUES ('secure-delete', 1)`.execute(db);
  await sql`INSERT INTO messages_fts(rowid, owner, body)
    SELECT messages.rowid, rooms.user_id, messages.content
    FROM messages JOIN rooms ON rooms.id = messages.room_id
    WHERE messages.content <> ''`.execute(db);
  // Everything is indexed as it is: nothing is noted.
  await sql`CREATE TABLE messages_fts_pending (
    message_rowid INTEGER PRIMARY KEY,
    indexed TEXT,
    noted_at INTEGER NOT NULL DEFAULT (unixepoch())
  )`.execute(db);
  await sql`CREATE TABLE messages_fts_forget (
    id INTEGER PRIMARY KEY,
    message_rowid INTEGER NOT NULL,
    owner TEXT NOT NULL,
    body TEXT NOT NULL
  )`.execute(db);
  await sql`CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages WHEN new.content <> '' BEGIN
    INSERT OR IGNORE INTO messages_fts_pending(message_rowid) VALUES (new.rowid);
  END`.execute(db);
  // The first write since the batch keeps what the index holds; later ones find it noted.
  await sql`CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages BEGIN
    INSERT OR IGNORE INTO messages_fts_pending(message_rowid, indexed)
      VALUES (new.rowid, nullif(old.content, ''));
  END`.execute(db);
  // A message removed alone: its room is there to say whose words the index holds. Removed
  // with its room, it was noted by the room's trigger below and finds no room here.
  await sql`CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts_forget(message_rowid, owner, body)
      SELECT old.rowid, rooms.user_id, held.body
      FROM rooms, (SELECT CASE
          WHEN EXISTS (SELECT 1 FROM messages_fts_pending WHERE message_rowid = old.rowid)
          THEN (SELECT indexed FROM messages_fts_pending WHERE message_rowid = old.rowid)
          ELSE nullif(old.content, '') END AS body) AS held
      WHERE rooms.id = old.room_id AND held.body IS NOT NULL;
    DELETE FROM messages_fts_pending WHERE message_rowid = old.rowid;
  END`.execute(db);
  // The owner the index holds is the room's owner now: a room changing hands, or a message
  // rooms, would have FTS5 told another owner than it holds (a corrupt index). Neither happens;
  // these keep it so.
  await sql`CREATE TRIGGER rooms_owner_kept BEFORE UPDATE OF user_id ON rooms
    WHEN new.user_id IS NOT old.user_id BEGIN
    SELECT RAISE(ABORT, 'a room does not change hands (the search index holds its owner)');
  END`.execute(db);
  await sql`CREATE TRIGGER messages_room_kept BEFORE UPDATE OF room_id ON messages
    WHEN new.room_id IS NOT old.room_id BEGIN
    SELECT RAISE(ABORT, 'a message does not change rooms (the search index holds its owner)');
  END`.execute(db);
  await sql`CREATE TRIGGER rooms_messages_fts_delete BEFORE DELETE ON rooms BEGIN
    INSERT INTO messages_fts_forget(message_rowid, owner, body)
      SELECT held.rowid, old.user_id, held.body
      FROM (SELECT messages.rowid AS rowid, CASE
          WHEN pending.message_rowid IS NOT NULL THEN pending.indexed
          ELSE nullif(messages.content, '') END AS body
        FROM messages
        LEFT JOIN messages_fts_pending AS pending ON pending.message_rowid = messages.rowid
        WHERE messages.room_id = old.id) AS held
      WHERE held.body IS NOT NULL;
    DELETE FROM messages_fts_pending
      WHERE message_rowid IN (SELECT rowid FROM messages WHERE room_id = old.id);
  END`.execute(db);
}
