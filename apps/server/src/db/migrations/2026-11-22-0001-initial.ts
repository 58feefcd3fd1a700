import { sql, type Kysely } from 'kysely';
import { columnTypes, serialPrimaryKey, type DialectName } from '../dialect';

/** Accounts, catalog and social tables. */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const t = columnTypes(dialect);
  const serialKey = serialPrimaryKey(dialect);
  const falseValue = dialect === 'sqlite' ? sql`0` : sql`false`;

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('nickname', 'text', (c) => c.notNull())
    .addColumn('avatar', 'text')
    .addColumn('bio', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('nfsw', t.bool, (c) => c.notNull().defaultTo(falseValue))
    .addColumn('tags', t.json, (c) => c.notNull().defaultTo('[]'))
    .addColumn('gender', 'text')
    .addColumn('email_verified_at', t.timestamp)
    .addColumn('google_sub', 'text', (c) => c.unique())
    .addColumn('discord_id', 'text', (c) => c.unique())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_seen_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('email_verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('link_token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('ticket_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('verified_at', t.timestamp)
    .execute();
  await db.schema
    .createIndex('email_verifications_email')
    .on('email_verifications')
    .column('email')
    .execute();

  await db.schema
    .createTable('benefits')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('chats', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('gold_coins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('benefit_ledger')
    .addColumn('id', t.serial, serialKey)
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('chats_delta', 'integer', (c) => c.notNull())
    .addColumn('gold_coins_delta', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('tag_groups')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('tags')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('group_key', 'text', (c) => c.notNull().references('tag_groups.key'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('mates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('creator_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('tagline', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('personality', 'text', (c) => c.notNull())
    .addColumn('scenario', 'text', (c) => c.notNull())
    .addColumn('first_mes', 'text', (c) => c.notNull())
    .addColumn('mes_example', 'text', (c) => c.notNull())
    .addColumn('creator_notes', 'text', (c) => c.notNull())
    .addColumn('system_prompt', 'text', (c) => c.notNull())
    .addColumn('alternate_greetings', t.json, (c) => c.notNull())
    .addColumn('tags', t.json, (c) => c.notNull())
    .addColumn('extensions', t.json, (c) => c.notNull())
    .addColumn('avatar', 'text', (c) => c.notNull())
    .addColumn('gender', 'text', (c) => c.notNull())
    .addColumn('nsfw', t.bool, (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('chats_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('messages_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('favorites_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reviews_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating_sum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mates_creator').on('mates').column('creator_id').execute();
  await db.schema
    .createIndex('mates_popular')
    .on('mates')
    .columns(['visibility', 'chats_count'])
    .execute();

  await db.schema
    .createTable('mate_tags')
    .addColumn('mate_id', 'text', (c) => c.notNull().references('mates.id').onDelete('cascade'))
    .addColumn('tag_key', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('mate_tags_pk', ['mate_id', 'tag_key'])
    .execute();
  await db.schema.createIndex('mate_tags_tag').on('mate_tags').column('tag_key').execute();

  await db.schema
    .createTable('favorites')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('mate_id', 'text', (c) => c.notNull().references('mates.id').onDelete('cascade'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('favorites_pk', ['user_id', 'mate_id'])
    .execute();

  await db.schema
    .createTable('follows')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('creator_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('follows_pk', ['user_id', 'creator_id'])
    .execute();
  await db.schema.createIndex('follows_creator').on('follows').column('creator_id').execute();

  await db.schema
    .createTable('personas')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('avatar', 'text')
    .addColumn('is_default', t.bool, (c) => c.notNull().defaultTo(falseValue))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('personas_user').on('personas').column('user_id').execute();

  await db.schema
    .createTable('reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('mate_id', 'text', (c) => c.notNull().references('mates.id').onDelete('cascade'))
    .addColumn('rating', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('reviews_one_per_user', ['user_id', 'mate_id'])
    .execute();
  await db.schema
    .createIndex('reviews_mate')
    .on('reviews')
    .columns(['mate_id', 'updated_at'])
    .execute();

  await db.schema
    .createTable('mate_feedback')
    .addColumn('id', t.serial, serialKey)
    .addColumn('user_id', 'text')
    .addColumn('mate_id', 'text', (c) => c.notNull().references('mates.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('user_feedback')
    .addColumn('id', t.serial, serialKey)
    .addColumn('user_id', 'text')
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('contact', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('search_log')
    .addColumn('id', t.serial, serialKey)
    .addColumn('word', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('search_log_time').on('search_log').column('created_at').execute();

  await db.schema
    .createTable('mate_chat_log')
    .addColumn('id', t.serial, serialKey)
    .addColumn('mate_id', 'text', (c) => c.notNull().references('mates.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mate_chat_log_time')
    .on('mate_chat_log')
    .columns(['created_at', 'mate_id'])
    .execute();
}
