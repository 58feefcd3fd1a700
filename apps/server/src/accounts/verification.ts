import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, UserTable } from '../db/schema';
import { now } from '../db/dialect';
import type { Mailer } from '../mail/mailer';
import { hashToken } from './secrets';
import { WELCOME, grantBenefits } from './benefits';
import { forgetUserSessions } from './session-cache';

/** How long a verification link, and the ticket of its registration, work. */
export const VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Makes `secrets` the only verification of a pending user: every earlier link and ticket of
 * the address stops working, so a ticket belongs to one registration.
 */
export async function replaceVerification(
  trx: Kysely<Database>,
  user: Pick<UserTable, 'id' | 'email'>,
  secrets: { linkToken: string; ticket: string },
): Promise<void> {
  await trx.deleteFrom('email_verifications').where('user_id', '=', user.id).execute();
  const at = Date.now();
  await trx
    .insertInto('email_verifications')
    .values({
      id: randomUUID(),
      user_id: user.id,
      email: user.email,
      link_token_hash: hashToken(secrets.linkToken),
      ticket_hash: hashToken(secrets.ticket),
      created_at: new Date(at).toISOString(),
      expires_at: new Date(at + VERIFICATION_TTL_MS).toISOString(),
      verified_at: null,
    })
    .execute();
}

/** Mails the link that verifies `email`. */
export async function sendVerificationMail(
  mailer: Mailer,
  email: string,
  linkToken: string,
  publicUrl: string,
): Promise<void> {
  const link = `${publicUrl}/api/user/verify/confirm?token=${encodeURIComponent(linkToken)}`;
  await mailer.send({
    to: email,
    subject: 'Confirm your e-mail address for Mates',
    text: `Welcome to Mates!\n\nConfirm your e-mail address by opening this link:\n${link}\n\nThe link works for 24 hours. If you did not sign up, ignore this mail.\n`,
    html: `<p>Welcome to Mates!</p><p><a href="${link}">Confirm your e-mail address</a></p><p>The link works for 24 hours. If you did not sign up, ignore this mail.</p>`,
  });
}

/** What opening a verification link did. */
export type ConfirmResult = 'verified' | 'already-verified' | 'expired' | 'unknown';

/** Marks the address of a link verified; the first verification grants the welcome benefits. */
export async function confirmVerification(
  db: Kysely<Database>,
  linkToken: string,
  welcome: { chats: number; goldCoins: number },
): Promise<ConfirmResult> {
  const row = await db
    .selectFrom('email_verifications')
    .innerJoin('users', 'users.id', 'email_verifications.user_id')
    .select(['email_verifications.expires_at', 'users.email_verified_at'])
    .where('email_verifications.link_token_hash', '=', hashToken(linkToken))
    .executeTakeFirst();
  if (!row) return 'unknown';
  if (row.email_verified_at) return 'already-verified';
  if (Date.parse(row.expires_at) <= Date.now()) return 'expired';
  const userId = await db.transaction().execute(async (trx) => {
    const at = now();
    // Conditional writes: a registration that replaced this link meanwhile, or a second tab
    // opening it, changes nothing, so the welcome is granted once.
    const opened = await trx
      .updateTable('email_verifications')
      .set({ verified_at: at })
      .where('link_token_hash', '=', hashToken(linkToken))
      .where('verified_at', 'is', null)
      .returning('user_id')
      .executeTakeFirst();
    if (!opened) return null;
    const verified = await trx
      .updateTable('users')
      .set({ email_verified_at: at, updated_at: at })
      .where('id', '=', opened.user_id)
      .where('email_verified_at', 'is', null)
      .executeTakeFirst();
    return Number(verified.numUpdatedRows) > 0 ? opened.user_id : null;
  });
  if (!userId) return 'already-verified';
  await forgetUserSessions(db, userId);
  await grantBenefits(db, userId, welcome, WELCOME);
  return 'verified';
}

/**
 * The user whose registration gave `ticket` for `email`, once its link was opened and while it
 * has not expired; redeeming uses the ticket up, so one ticket signs in once. `null` otherwise,
 * whatever the reason, so the answer tells nothing about the address.
 */
export async function redeemTicket(
  db: Kysely<Database>,
  email: string,
  ticket: string,
): Promise<UserTable | null> {
  const redeemed = await db
    .updateTable('email_verifications')
    .set({ ticket_hash: '' })
    .where('email', '=', email)
    .where('ticket_hash', '=', hashToken(ticket))
    .where('verified_at', 'is not', null)
    .where('expires_at', '>', now())
    .returning('user_id')
    .executeTakeFirst();
  if (!redeemed) return null;
  return (
    (await db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', redeemed.user_id)
      .executeTakeFirst()) ?? null
  );
}
