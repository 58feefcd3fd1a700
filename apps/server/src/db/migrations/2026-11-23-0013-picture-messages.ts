import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * Picture messages (#15): a message the mate "sends" with a picture has its prompt and size,
 * the job that draws it (set once the job is queued), the stored file once drawn, and why it
 * could not be queued. Text messages leave all of them null. The job's state lives in `jobs`.
 */
export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  await db.schema.alterTable('messages').addColumn('image_prompt', 'text').execute();
  await db.schema.alterTable('messages').addColumn('image_size', 'text').execute();
  await db.schema.alterTable('messages').addColumn('image_job_id', 'text').execute();
  await db.schema.alterTable('messages').addColumn('image_file', 'text').execute();
  await db.schema.alterTable('messages').addColumn('image_error', 'text').execute();
  await db.schema.createIndex('messages_image_job').on('messages').column('image_job_id').execute();
}
