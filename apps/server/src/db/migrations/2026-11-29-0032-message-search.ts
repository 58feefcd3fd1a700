import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * Full-text search over the words of every message, case- and accent-insensitive, for people
 * to find what was said in their chats. SQLite: a contentless FTS5 table (unicode61, diacritics
 * removed) holding each message's words and its owner's id, kept in step by triggers, so that
 * one match finds one person's messages only. PostgreSQL: a tsvector over the unaccented text,
 * generated, with a GIN index (`mates_unaccent` comes from the catalog's search migration) and
 * an index of messages newest first.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`CREATE VIRTUAL TABLE messages_fts USING fts5(
      owner, body,
      content='', contentless_delete=1,
      tokenize='unicode61 remove_diacritics 2'
    )`.execute(db);
    await sql`CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages WHEN new.content <> '' BEGIN
      INSERT INTO messages_fts(rowid, owner, body)
      SELECT new.rowid, rooms.user_id, new.content FROM rooms WHERE rooms.id = new.room_id;
    END`.execute(db);
    await sql`CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
      DELETE FROM messages_fts WHERE rowid = old.rowid;
    END`.execute(db);
    await sql`CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages BEGIN
      DELETE FROM messages_fts WHERE rowid = old.rowid;
      INSERT INTO messages_fts(rowid, owner, body)
      SELECT new.rowid, rooms.user_id, new.content FROM rooms
      WHERE rooms.id = new.room_id AND new.content <> '';
    END`.execute(db);
    await sql`INSERT INTO messages_fts(rowid, owner, body)
      SELECT messages.rowid, rooms.user_id, messages.content
      FROM messages JOIN rooms ON rooms.id = messages.room_id
      WHERE messages.content <> ''`.execute(db);
    return;
  }
  await sql`ALTER TABLE messages ADD COLUMN search tsvector GENERATED ALWAYS AS (
      to_tsvector('simple', mates_unaccent(lower(content)))
    ) STORED`.execute(db);
  await sql`CREATE INDEX messages_search ON messages USING gin (search)`.execute(db);
  // Newest first: for a common word, walking messages from the newest stops at the page rather
  // than sorting every match (the planner picks it by the words' frequencies).
  await sql`CREATE INDEX messages_newest ON messages (created_at DESC, position DESC)`.execute(db);
}
