import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * SQLite's search index is written in batches, not at each write of a message (#38). Each
 * commit that touched FTS5 wrote its words (and their 2–4 character starts) as a segment of
 * their own, and a reply being written was indexed at every save only to be taken out at the
 * next: 0.7–1 ms of the event loop for a short reply, more the longer it grows. Now a write
 * notes the message's row in `messages_fts_pending` (one small row, in the same transaction, so
 * a kill loses nothing), and `indexPendingMessages` indexes what is noted in batches: every
 * second on a running server, and before every search, which therefore still finds what was
 * just written. Removing a message still removes it from the index at once. Nothing for
 * PostgreSQL, whose word lists are a generated column.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect !== 'sqlite') return;
  await sql`CREATE TABLE messages_fts_pending (message_rowid INTEGER PRIMARY KEY)`.execute(db);
  await sql`DROP TRIGGER messages_fts_insert`.execute(db);
  await sql`DROP TRIGGER messages_fts_update`.execute(db);
  await sql`DROP TRIGGER messages_fts_delete`.execute(db);
  await sql`CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages WHEN new.content <> '' BEGIN
    INSERT OR IGNORE INTO messages_fts_pending(message_rowid) VALUES (new.rowid);
  END`.execute(db);
  await sql`CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages BEGIN
    INSERT OR IGNORE INTO messages_fts_pending(message_rowid) VALUES (new.rowid);
  END`.execute(db);
  await sql`CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    DELETE FROM messages_fts WHERE rowid = old.rowid;
    DELETE FROM messages_fts_pending WHERE message_rowid = old.rowid;
  END`.execute(db);
}
