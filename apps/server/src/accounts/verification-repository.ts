import type { Kysely } from 'kysely';
import type { Database, EmailVerificationTable } from '../db/schema';

/**
 * Makes `row` the only verification of its user: every earlier link and ticket of theirs is
 * deleted.
 */
export async function replaceVerification(
  trx: Kysely<Database>,
  row: EmailVerificationTable,
): Promise<void> {
  await deleteVerificationsOf(trx, row.user_id);
  await trx.insertInto('email_verifications').values(row).execute();
}

/** Deletes every verification link and ticket of a user. */
export async function deleteVerificationsOf(trx: Kysely<Database>, userId: string): Promise<void> {
  await trx.deleteFrom('email_verifications').where('user_id', '=', userId).execute();
}

/** A link's verification, with whether its user's address is verified; `undefined`: no such link. */
export function verificationByLink(
  db: Kysely<Database>,
  linkTokenHash: string,
): Promise<{ expires_at: string; email_verified_at: string | null } | undefined> {
  return db
    .selectFrom('email_verifications')
    .innerJoin('users', 'users.id', 'email_verifications.user_id')
    .select(['email_verifications.expires_at', 'users.email_verified_at'])
    .where('email_verifications.link_token_hash', '=', linkTokenHash)
    .executeTakeFirst();
}

/**
 * Marks a link opened, once: its user's id, or `undefined` when it was opened already or
 * replaced meanwhile.
 */
export async function openVerification(
  trx: Kysely<Database>,
  linkTokenHash: string,
  at: string,
): Promise<string | undefined> {
  const opened = await trx
    .updateTable('email_verifications')
    .set({ verified_at: at })
    .where('link_token_hash', '=', linkTokenHash)
    .where('verified_at', 'is', null)
    .returning('user_id')
    .executeTakeFirst();
  return opened?.user_id;
}

/**
 * Uses up the ticket of an address whose link was opened and has not expired at `at`: its
 * user's id, or `undefined` when there is no such ticket.
 */
export async function redeemVerifiedTicket(
  db: Kysely<Database>,
  email: string,
  ticketHash: string,
  at: string,
): Promise<string | undefined> {
  const redeemed = await db
    .updateTable('email_verifications')
    .set({ ticket_hash: '' })
    .where('email', '=', email)
    .where('ticket_hash', '=', ticketHash)
    .where('verified_at', 'is not', null)
    .where('expires_at', '>', at)
    .returning('user_id')
    .executeTakeFirst();
  return redeemed?.user_id;
}
