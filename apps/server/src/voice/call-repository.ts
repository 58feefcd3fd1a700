import type { Kysely } from 'kysely';
import type { CallTicketTable, Database } from '../db/schema';
import { now } from '../db/dialect';

/** Stores a call's ticket (its hash); tickets past their minute are cleared on the way. */
export async function insertCallTicket(
  db: Kysely<Database>,
  ticket: CallTicketTable,
): Promise<void> {
  await db.deleteFrom('call_tickets').where('expires_at', '<', now()).execute();
  await db.insertInto('call_tickets').values(ticket).execute();
}

/**
 * Takes a ticket, once: the row is deleted as it is read, so a second use (on any server)
 * finds nothing. `undefined` when it is unknown, used or past its time.
 */
export async function takeCallTicket(
  db: Kysely<Database>,
  ticketHash: string,
): Promise<CallTicketTable | undefined> {
  const row = await db
    .deleteFrom('call_tickets')
    .where('ticket_hash', '=', ticketHash)
    .returningAll()
    .executeTakeFirst();
  if (!row || row.expires_at <= now()) return undefined;
  return row;
}

/** Marks messages as said in the call `callId`. */
export async function markCallMessages(
  db: Kysely<Database>,
  callId: string,
  messageIds: string[],
): Promise<void> {
  if (messageIds.length === 0) return;
  await db.updateTable('messages').set({ call_id: callId }).where('id', 'in', messageIds).execute();
}

/**
 * Saves a reply as the person heard it before they interrupted: `content`, `partial`, marked
 * cut in the call. Only a mate's reply of the room; whether it was written.
 */
export async function saveCutReply(
  db: Kysely<Database>,
  reply: { roomId: string; messageId: string; callId: string; content: string },
): Promise<boolean> {
  const result = await db
    .updateTable('messages')
    .set({
      content: reply.content,
      status: 'partial',
      call_id: reply.callId,
      call_cut: true,
    })
    .where('id', '=', reply.messageId)
    .where('room_id', '=', reply.roomId)
    .where('role', '=', 'mate')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The voice and gender of the mates that speak in a call. */
export function speakingMates(
  db: Kysely<Database>,
  mateIds: string[],
): Promise<{ id: string; voice: string | null; gender: string }[]> {
  return db
    .selectFrom('mates')
    .select(['id', 'voice', 'gender'])
    .where('id', 'in', mateIds)
    .execute();
}
