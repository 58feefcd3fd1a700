import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * Searching every chat, fast for one person on PostgreSQL (#41): a GIN index over the words
 * alone found a common word in every person's messages (hundreds of thousands at a million)
 * before keeping the caller's and sorting them. Each message now carries its owner
 * (`user_id`, the room's, set by a trigger on every insert, so that no write path can forget
 * it), with two indexes the planner chooses between by how common the words are: the owner's
 * messages newest first (a common word: walked until the page is full) and, with the
 * `btree_gin` extension, the owner beside the words in one GIN index (a rare word: only the
 * owner's matches). Where `btree_gin` cannot be created the GIN index over the words stays,
 * and the migration says so (a PostgreSQL NOTICE, and `messageSearchIndex` tells the server).
 * SQLite's FTS5 table already holds each message's owner: nothing changes there.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') return;
  // btree_gin is a trusted extension (PostgreSQL 13+: a database owner may create it), shipped
  // with PostgreSQL's contrib modules; a server without them keeps the words-only index.
  await sql`SAVEPOINT mates_btree_gin`.execute(db);
  let ownerWords = true;
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS btree_gin`.execute(db);
    await sql`RELEASE SAVEPOINT mates_btree_gin`.execute(db);
  } catch (error) {
    await sql`ROLLBACK TO SAVEPOINT mates_btree_gin`.execute(db);
    await sql`DO $$ BEGIN RAISE NOTICE ${sql.lit(
      `btree_gin is not available (${(error as Error).message}): message search keeps its index of words alone`,
    )}; END $$`.execute(db);
    ownerWords = false;
  }
  // The indexes this one replaces go first: filling in the owner rewrites every message, and
  // each index left would be written for each of them (2 million messages: 12 minutes with
  // them, on a busy 2-core machine).
  await sql`DROP INDEX IF EXISTS messages_newest`.execute(db);
  if (ownerWords) await sql`DROP INDEX messages_search`.execute(db);
  await sql`ALTER TABLE messages ADD COLUMN user_id text`.execute(db);
  await sql`UPDATE messages SET user_id = rooms.user_id FROM rooms
    WHERE rooms.id = messages.room_id`.execute(db);
  await sql`ALTER TABLE messages ALTER COLUMN user_id SET NOT NULL`.execute(db);
  // A message's owner is its room's, whoever writes it (a send, a copy into a branch, a
  // restore through SQL); a room never changes hands, but if it did its messages would follow.
  await sql`CREATE FUNCTION mates_message_owner() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.user_id := (SELECT user_id FROM rooms WHERE id = NEW.room_id);
      RETURN NEW;
    END $$`.execute(db);
  await sql`CREATE TRIGGER messages_owner BEFORE INSERT OR UPDATE OF room_id, user_id
    ON messages FOR EACH ROW EXECUTE FUNCTION mates_message_owner()`.execute(db);
  await sql`CREATE FUNCTION mates_room_owner() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE messages SET user_id = NEW.user_id WHERE room_id = NEW.id;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER rooms_owner AFTER UPDATE OF user_id ON rooms FOR EACH ROW
    WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id)
    EXECUTE FUNCTION mates_room_owner()`.execute(db);
  // The same order as the search's (messages written together share their time).
  await sql`CREATE INDEX messages_owner_newest
    ON messages (user_id, created_at DESC, position DESC, id DESC)`.execute(db);
  if (ownerWords)
    await sql`CREATE INDEX messages_owner_search ON messages USING gin (user_id, search)`.execute(
      db,
    );
}
