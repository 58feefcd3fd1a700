import type { Kysely } from 'kysely';

/**
 * The per-message chat log goes: since 0021 trending reads per-day counts (`mate_chatters`,
 * `mate_trend_days`, filled from it then), nothing writes or reads it, and it only grew.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mate_chat_log').ifExists().execute();
}
