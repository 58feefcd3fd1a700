import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * A mate is found by its creator's name too: `mates.creator_name` holds the creator's nickname,
 * written by the database itself (when a mate is made or given to another creator, and on each
 * of its creator's mates when they rename), and searched beside the name, tagline, description
 * and tags, weighed least. The search index is made again with it: FTS5's table on SQLite
 * (filled from `mates` at once), the generated `search` column and its index on PostgreSQL.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    // Gone before the names are written: every row would be written again for them.
    await sql`DROP INDEX mates_search`.execute(db);
    await sql`ALTER TABLE mates DROP COLUMN search`.execute(db);
  }
  await sql`ALTER TABLE mates ADD COLUMN creator_name text NOT NULL DEFAULT ''`.execute(db);
  await sql`UPDATE mates SET creator_name = coalesce(
      (SELECT nickname FROM users WHERE users.id = mates.creator_id), '')`.execute(db);
  if (dialect === 'sqlite') {
    for (const name of ['insert', 'delete', 'update'])
      await sql.raw(`DROP TRIGGER mates_fts_${name}`).execute(db);
    await sql`DROP TABLE mates_fts`.execute(db);
    await sql`CREATE VIRTUAL TABLE mates_fts USING fts5(
      name, tagline, description, tags, creator_name,
      content='mates', content_rowid='rowid',
      tokenize='unicode61 remove_diacritics 2'
    )`.execute(db);
    await sql`INSERT INTO mates_fts(mates_fts) VALUES ('rebuild')`.execute(db);
    // Relevance as before for the other columns; a match on the creator's name weighs least
    // (a nickname of one word written four times weighs less than half a word of the name).
    await sql`INSERT INTO mates_fts(mates_fts, rank)
      VALUES ('rank', 'bm25(1.0, 1.0, 1.0, 1.0, 0.1)')`.execute(db);
    // What is taken out of the index leaves its pages (a deleted account's name among it).
    await sql`INSERT INTO mates_fts(mates_fts, rank) VALUES ('secure-delete', 1)`.execute(db);
    // A new mate is indexed as written, then takes its creator's name (which indexes it again,
    // by the update's trigger): in one trigger, in that order, the index never loses step with
    // the table (an external-content index told to delete what it never held is corrupt).
    await sql`CREATE TRIGGER mates_fts_insert AFTER INSERT ON mates BEGIN
      INSERT INTO mates_fts(rowid, name, tagline, description, tags, creator_name)
      VALUES (new.rowid, new.name, new.tagline, new.description, new.tags, new.creator_name);
      UPDATE mates SET creator_name = coalesce(
        (SELECT nickname FROM users WHERE users.id = new.creator_id), '')
      WHERE rowid = new.rowid;
    END`.execute(db);
    await sql`CREATE TRIGGER mates_fts_delete AFTER DELETE ON mates BEGIN
      INSERT INTO mates_fts(mates_fts, rowid, name, tagline, description, tags, creator_name)
      VALUES ('delete', old.rowid, old.name, old.tagline, old.description, old.tags, old.creator_name);
    END`.execute(db);
    await sql`CREATE TRIGGER mates_fts_update
      AFTER UPDATE OF name, tagline, description, tags, creator_name ON mates BEGIN
      INSERT INTO mates_fts(mates_fts, rowid, name, tagline, description, tags, creator_name)
      VALUES ('delete', old.rowid, old.name, old.tagline, old.description, old.tags, old.creator_name);
      INSERT INTO mates_fts(rowid, name, tagline, description, tags, creator_name)
      VALUES (new.rowid, new.name, new.tagline, new.description, new.tags, new.creator_name);
    END`.execute(db);
    // A renamed creator's mates take the new name; a mate given to another creator (a deleted
    // account's public mates go to a former member) takes theirs, and keeps no trace of the first.
    // It changes hands in a statement of its own: with a searched field beside it, the update
    // below would run between the statement's change and its index's, and tell the index to
    // take out words it never held.
    await sql`CREATE TRIGGER mates_creator_moved_alone BEFORE UPDATE OF creator_id ON mates
      WHEN new.creator_id IS NOT old.creator_id AND (new.name IS NOT old.name
        OR new.tagline IS NOT old.tagline OR new.description IS NOT old.description
        OR new.tags IS NOT old.tags OR new.creator_name IS NOT old.creator_name) BEGIN
      SELECT RAISE(ABORT, 'a mate changes creator in an update of its own');
    END`.execute(db);
    await sql`CREATE TRIGGER mates_creator_moved AFTER UPDATE OF creator_id ON mates
      WHEN new.creator_id IS NOT old.creator_id BEGIN
      UPDATE mates SET creator_name = coalesce(
        (SELECT nickname FROM users WHERE users.id = new.creator_id), '')
      WHERE rowid = new.rowid;
    END`.execute(db);
    await sql`CREATE TRIGGER users_creator_name AFTER UPDATE OF nickname ON users
      WHEN new.nickname IS NOT old.nickname BEGIN
      UPDATE mates SET creator_name = new.nickname WHERE creator_id = new.id;
    END`.execute(db);
    return;
  }
  await sql`ALTER TABLE mates ADD COLUMN search tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('simple', mates_unaccent(lower(name))), 'A') ||
      setweight(to_tsvector('simple', mates_unaccent(lower(tags::text))), 'B') ||
      setweight(to_tsvector('simple', mates_unaccent(lower(tagline))), 'B') ||
      setweight(to_tsvector('simple', mates_unaccent(lower(description))), 'C') ||
      setweight(to_tsvector('simple', mates_unaccent(lower(creator_name))), 'D')
    ) STORED`.execute(db);
  await sql`CREATE INDEX mates_search ON mates USING gin (search)`.execute(db);
  await sql`CREATE FUNCTION mates_creator_name() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      SELECT nickname INTO NEW.creator_name FROM users WHERE id = NEW.creator_id;
      NEW.creator_name := coalesce(NEW.creator_name, '');
      RETURN NEW;
    END $$`.execute(db);
  await sql`CREATE TRIGGER mates_creator_name BEFORE INSERT OR UPDATE OF creator_id ON mates
    FOR EACH ROW EXECUTE FUNCTION mates_creator_name()`.execute(db);
  await sql`CREATE FUNCTION users_creator_name() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE mates SET creator_name = NEW.nickname WHERE creator_id = NEW.id;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER users_creator_name AFTER UPDATE OF nickname ON users
    FOR EACH ROW WHEN (NEW.nickname IS DISTINCT FROM OLD.nickname)
    EXECUTE FUNCTION users_creator_name()`.execute(db);
}
