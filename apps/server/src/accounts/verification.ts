import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, UserTable } from '../db/schema';
import { now } from '../db/dialect';
import type { Mailer } from '../mail/mailer';
import { hashToken, randomToken } from './secrets';
import { grantBenefits } from './benefits';

/** How long a verification link works. */
export const VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;

/** Starts a verification: mails a link and returns the ticket for the registering browser. */
export async function startVerification(
  db: Kysely<Database>,
  mailer: Mailer,
  user: Pick<UserTable, 'id' | 'email'>,
  publicUrl: string,
): Promise<string> {
  const linkToken = randomToken();
  const ticket = randomToken();
  const at = Date.now();
  await db
    .insertInto('email_verifications')
    .values({
      id: randomUUID(),
      user_id: user.id,
      email: user.email,
      link_token_hash: hashToken(linkToken),
      ticket_hash: hashToken(ticket),
      created_at: new Date(at).toISOString(),
      expires_at: new Date(at + VERIFICATION_TTL_MS).toISOString(),
      verified_at: null,
    })
    .execute();
  const link = `${publicUrl}/api/user/verify/confirm?token=${encodeURIComponent(linkToken)}`;
  await mailer.send({
    to: user.email,
    subject: 'Confirm your e-mail address for Mates',
    text: `Welcome to Mates!\n\nConfirm your e-mail address by opening this link:\n${link}\n\nThe link works for 24 hours. If you did not sign up, ignore this mail.\n`,
    html: `<p>Welcome to Mates!</p><p><a href="${link}">Confirm your e-mail address</a></p><p>The link works for 24 hours. If you did not sign up, ignore this mail.</p>`,
  });
  return ticket;
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
    .select([
      'email_verifications.id',
      'email_verifications.user_id',
      'email_verifications.expires_at',
      'users.email_verified_at',
    ])
    .where('email_verifications.link_token_hash', '=', hashToken(linkToken))
    .executeTakeFirst();
  if (!row) return 'unknown';
  if (row.email_verified_at) return 'already-verified';
  if (Date.parse(row.expires_at) <= Date.now()) return 'expired';
  const at = now();
  await db
    .updateTable('email_verifications')
    .set({ verified_at: at })
    .where('id', '=', row.id)
    .execute();
  await db
    .updateTable('users')
    .set({ email_verified_at: at, updated_at: at })
    .where('id', '=', row.user_id)
    .execute();
  await grantBenefits(db, row.user_id, { ...welcome, reason: 'welcome' });
  return 'verified';
}

/**
 * Whether `ticket` is one that register gave for `email` and has not been used; using it
 * consumes it, so one ticket signs in once.
 */
export async function redeemTicket(
  db: Kysely<Database>,
  email: string,
  ticket: string,
): Promise<boolean> {
  const result = await db
    .updateTable('email_verifications')
    .set({ ticket_hash: '' })
    .where('email', '=', email)
    .where('ticket_hash', '=', hashToken(ticket))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
