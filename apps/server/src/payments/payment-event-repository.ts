import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { now } from '../db/dialect';

/**
 * Records that Stripe event `event` is applied, in the transaction that applies it; false when
 * it was already (a second delivery).
 */
export async function recordEvent(
  trx: Transaction<Database>,
  event: { id: string; type: string },
): Promise<boolean> {
  const first = await trx
    .insertInto('payment_events')
    .values({ id: event.id, type: event.type, processed_at: now() })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return Boolean(first);
}

/** When the migration `name` ran here, or null when it has not. */
export async function migrationRanAt(
  trx: Transaction<Database>,
  name: string,
): Promise<Date | null> {
  const { rows } = await sql<{ timestamp: string | Date }>`
    select timestamp from kysely_migration where name = ${name}`.execute(trx);
  return rows[0] ? new Date(rows[0].timestamp) : null;
}
