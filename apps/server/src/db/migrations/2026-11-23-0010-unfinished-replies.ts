import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * Every start looks for replies a stopped process left unfinished: a partial index holds
 * only those (a handful), so the look-up does not read every message ever written.
 */
export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  await db.schema
    .createIndex('messages_unfinished')
    .on('messages')
    .column('created_at')
    .where(sql.ref('status'), '=', 'partial')
    .execute();
}
