import type { Kysely } from 'kysely';
import { columnTypes, type DialectName } from '../dialect';

/**
 * A member invited back keeps its earlier stays: `room_members.earlier_stays` holds each one's
 * `{ joinedAt, leftAt }`, oldest first, so the conversation still notes every join and leave
 * (the row's `joined_at` and `left_at` are its current, or last, stay).
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .alterTable('room_members')
    .addColumn('earlier_stays', t.json, (c) => c.notNull().defaultTo('[]'))
    .execute();
}
