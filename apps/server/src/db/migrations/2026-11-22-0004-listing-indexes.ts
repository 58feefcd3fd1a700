import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * Indexes shaped like the listing queries (measured with `pnpm bench`): tag matches read
 * from the index alone, and the default order of listable mates read in index order.
 */
export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  await db.schema.dropIndex('mate_tags_tag').execute();
  await db.schema
    .createIndex('mate_tags_tag_mate')
    .on('mate_tags')
    .columns(['tag_key', 'mate_id'])
    .execute();
  await db.schema.dropIndex('mates_popular').execute();
  await db.schema
    .createIndex('mates_listing')
    .on('mates')
    .columns(['visibility', 'nsfw', 'chats_count desc', 'created_at desc', 'id'])
    .execute();
}
