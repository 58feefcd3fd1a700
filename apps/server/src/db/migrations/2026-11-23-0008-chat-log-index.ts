import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * Whether a user already chatted with a mate is asked on every message (it decides whether
 * the mate's chat count grows): answered from an index instead of a scan of the log.
 */
export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  await db.schema
    .createIndex('mate_chat_log_mate_user')
    .on('mate_chat_log')
    .columns(['mate_id', 'user_id'])
    .execute();
}
