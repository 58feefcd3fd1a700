import type { Kysely } from 'kysely';
import { columnTypes, type DialectName } from '../dialect';

/**
 * Voice calls (issue 42): `call_tickets` holds the one-time tickets that open a call's socket
 * (a hash of the ticket, never the ticket; the session that asked; a minute's life), in the
 * database so that any server sharing it can open the call. A message said in a call carries
 * the call's id (`call_id`), and a reply the person interrupted `call_cut`: its text is what
 * was said before.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const types = columnTypes(dialect);
  const no = dialect === 'sqlite' ? 0 : false;
  await db.schema
    .createTable('call_tickets')
    .addColumn('ticket_hash', 'text', (c) => c.primaryKey())
    .addColumn('call_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('room_id', 'text', (c) => c.notNull())
    .addColumn('session_hash', 'text', (c) => c.notNull())
    .addColumn('transcriber', 'text', (c) => c.notNull())
    .addColumn('expires_at', types.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('call_tickets_expiry')
    .on('call_tickets')
    .column('expires_at')
    .execute();
  await db.schema.alterTable('messages').addColumn('call_id', 'text').execute();
  await db.schema
    .alterTable('messages')
    .addColumn('call_cut', types.bool, (c) => c.notNull().defaultTo(no))
    .execute();
}
