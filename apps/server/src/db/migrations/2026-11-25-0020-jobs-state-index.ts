import type { Kysely } from 'kysely';

/**
 * Jobs by state and kind: the metrics scrape counts the queued and running jobs of every kind
 * (`metrics/watch-server.ts`), which without it read every job ever made.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('jobs_state_kind').on('jobs').columns(['state', 'kind']).execute();
}
