import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * What the catalog's shared answers are cached by, and what hot words and trending read
 * instead of their logs (#20):
 * - `catalog_versions`: one counter per kind of answer (`mates`, `hot_words`, `trending`),
 *   raised by triggers in the transaction of every write that changes such answers, so that
 *   no code path can forget it and every server process sees a change as soon as it commits.
 * - `search_word_days`: searches per word per UTC day, upserted as searches are logged.
 * - `mate_chatters`: the last UTC day each user chatted with each mate; `mate_trend_days`:
 *   per mate per day, the users whose last chat with it was that day, so each user counts
 *   once per mate in the trending window, as before.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('catalog_versions')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`INSERT INTO catalog_versions (name, version) VALUES ('mates', 0), ('hot_words', 0), ('trending', 0)`.execute(
    db,
  );
  await db.schema
    .createTable('search_word_days')
    .addColumn('word', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('searches', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_word_days_pk', ['word', 'day'])
    .execute();
  await db.schema
    .createIndex('search_word_days_day')
    .on('search_word_days')
    .column('day')
    .execute();
  await db.schema
    .createTable('mate_chatters')
    .addColumn('mate_id', 'text', (c) => c.notNull().references('mates.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('last_day', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('mate_chatters_pk', ['mate_id', 'user_id'])
    .execute();
  await db.schema
    .createTable('mate_trend_days')
    .addColumn('mate_id', 'text', (c) => c.notNull().references('mates.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('users', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('mate_trend_days_pk', ['mate_id', 'day'])
    .execute();
  await db.schema
    .createIndex('mate_trend_days_day')
    .on('mate_trend_days')
    .columns(['day', 'mate_id'])
    .execute();
  await backfill(db, dialect);
  await versionTriggers(db, dialect);
}

/** Fills the new tables from the logs written before them. */
async function backfill(db: Kysely<unknown>, dialect: DialectName) {
  const day = (column: string) =>
    dialect === 'sqlite'
      ? sql.raw(`substr(${column}, 1, 10)`)
      : sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`);
  await sql`INSERT INTO search_word_days (word, day, searches)
    SELECT word, ${day('created_at')}, count(*) FROM search_log GROUP BY 1, 2`.execute(db);
  await sql`INSERT INTO mate_chatters (mate_id, user_id, last_day)
    SELECT mate_id, user_id, max(${day('created_at')}) FROM mate_chat_log GROUP BY 1, 2`.execute(
    db,
  );
  await sql`INSERT INTO mate_trend_days (mate_id, day, users)
    SELECT mate_id, last_day, count(*) FROM mate_chatters GROUP BY 1, 2`.execute(db);
}

/**
 * Every column of `mates` as of this migration but `messages_count`: a sent message raises
 * that one, and raising the `mates` version with it would make every send in every process
 * wait on one row and empty the caches on every message. The message counter in cached lists
 * is therefore as old as the list (see catalog/catalog-cache.ts).
 */
const MATE_COLUMNS = [
  'id',
  'creator_id',
  'name',
  'tagline',
  'description',
  'personality',
  'scenario',
  'first_mes',
  'mes_example',
  'creator_notes',
  'system_prompt',
  'alternate_greetings',
  'tags',
  'extensions',
  'card_extra',
  'card_spec',
  'avatar',
  'gender',
  'nsfw',
  'visibility',
  'voice',
  'deleted_at',
  'hidden_at',
  'hidden_reason',
  'hidden_note',
  'hidden_by',
  'chats_count',
  'favorites_count',
  'reviews_count',
  'rating_sum',
  'created_at',
  'updated_at',
].join(', ');

/** [trigger name, events, table, version raised]. */
const TRIGGERS: [string, string, string, string][] = [
  ['mates_version_write', 'INSERT OR DELETE', 'mates', 'mates'],
  ['mates_version_update', `UPDATE OF ${MATE_COLUMNS}`, 'mates', 'mates'],
  ['mate_tags_version', 'INSERT OR DELETE OR UPDATE', 'mate_tags', 'mates'],
  // A creator's name and picture are part of every listing of their mates.
  ['creators_version', 'UPDATE OF nickname, avatar', 'users', 'mates'],
  ['hot_words_version', 'INSERT OR DELETE OR UPDATE', 'search_word_days', 'hot_words'],
  ['trending_version', 'INSERT OR DELETE OR UPDATE', 'mate_trend_days', 'trending'],
];

async function versionTriggers(db: Kysely<unknown>, dialect: DialectName) {
  if (dialect === 'postgres') {
    await sql`CREATE FUNCTION catalog_version_raise() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE catalog_versions SET version = version + 1 WHERE name = TG_ARGV[0];
        RETURN NULL;
      END $$`.execute(db);
    for (const [name, events, table, version] of TRIGGERS)
      await sql
        .raw(
          `CREATE TRIGGER ${name} AFTER ${events} ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_raise('${version}')`,
        )
        .execute(db);
    return;
  }
  // SQLite names one event per trigger and has row triggers only.
  for (const [name, events, table, version] of TRIGGERS)
    for (const [index, event] of events.split(' OR ').entries())
      await sql
        .raw(
          `CREATE TRIGGER ${name}_${index} AFTER ${event} ON ${table} BEGIN UPDATE catalog_versions SET version = version + 1 WHERE name = '${version}'; END`,
        )
        .execute(db);
}
