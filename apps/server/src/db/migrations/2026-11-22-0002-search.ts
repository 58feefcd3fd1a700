import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * Full-text search over name, tagline, description and tags, case- and accent-insensitive:
 * FTS5 (unicode61, diacritics removed) on SQLite; a tsvector over unaccented text plus a
 * trigram index on names (for typos and partial words) on PostgreSQL.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`CREATE VIRTUAL TABLE mates_fts USING fts5(
      name, tagline, description, tags,
      content='mates', content_rowid='rowid',
      tokenize='unicode61 remove_diacritics 2'
    )`.execute(db);
    // External-content FTS5 tables are kept in step by triggers.
    await sql`CREATE TRIGGER mates_fts_insert AFTER INSERT ON mates BEGIN
      INSERT INTO mates_fts(rowid, name, tagline, description, tags)
      VALUES (new.rowid, new.name, new.tagline, new.description, new.tags);
    END`.execute(db);
    await sql`CREATE TRIGGER mates_fts_delete AFTER DELETE ON mates BEGIN
      INSERT INTO mates_fts(mates_fts, rowid, name, tagline, description, tags)
      VALUES ('delete', old.rowid, old.name, old.tagline, old.description, old.tags);
    END`.execute(db);
    await sql`CREATE TRIGGER mates_fts_update AFTER UPDATE OF name, tagline, description, tags ON mates BEGIN
      INSERT INTO mates_fts(mates_fts, rowid, name, tagline, description, tags)
      VALUES ('delete', old.rowid, old.name, old.tagline, old.description, old.tags);
      INSERT INTO mates_fts(rowid, name, tagline, description, tags)
      VALUES (new.rowid, new.name, new.tagline, new.description, new.tags);
    END`.execute(db);
    return;
  }
  await sql`CREATE EXTENSION IF NOT EXISTS unaccent`.execute(db);
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  // unaccent() is only STABLE; generated columns and indexes need an IMMUTABLE wrapper
  // that names its dictionary explicitly.
  await sql`CREATE OR REPLACE FUNCTION mates_unaccent(text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$`.execute(db);
  await sql`ALTER TABLE mates ADD COLUMN search tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('simple', mates_unaccent(lower(name))), 'A') ||
      setweight(to_tsvector('simple', mates_unaccent(lower(tags::text))), 'B') ||
      setweight(to_tsvector('simple', mates_unaccent(lower(tagline))), 'B') ||
      setweight(to_tsvector('simple', mates_unaccent(lower(description))), 'C')
    ) STORED`.execute(db);
  await sql`CREATE INDEX mates_search ON mates USING gin (search)`.execute(db);
  await sql`CREATE INDEX mates_name_trgm ON mates USING gin (mates_unaccent(lower(name)) gin_trgm_ops)`.execute(
    db,
  );
}
