import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { now, toJson } from '../db/dialect';
import type { Mailer } from '../mail/mailer';
import { hashPassword, randomToken } from './secrets';
import { replaceVerification, sendVerificationMail } from './verification';
import { generatedNickname } from './nicknames';

/** What register needs: the address (normalized), the password and the caller's language. */
export interface Registration {
  email: string;
  password: string;
  language: string;
}

/**
 * Registers an address and returns the ticket for the registering browser. The answer is the
 * same whether the address is new, pending or verified, so that nobody learns which: a verified
 * address changes nothing and its owner gets a mail saying someone tried.
 */
export async function register(
  db: Kysely<Database>,
  mailer: Mailer,
  input: Registration,
  publicUrl: string,
): Promise<string> {
  const passwordHash = await hashPassword(input.password);
  const linkToken = randomToken();
  const ticket = randomToken();
  const userId = await db
    .transaction()
    .execute((trx) => claimUnverified(trx, input, passwordHash, { linkToken, ticket }));
  if (userId) await sendVerificationMail(mailer, input.email, linkToken, publicUrl);
  else await sendAlreadyRegisteredMail(mailer, input.email, publicUrl);
  return ticket;
}

/**
 * Creates the user of an address, or takes over its pending sign-up: an address that never
 * verified proves nothing yet, so the latest registration's password and link replace every
 * earlier one. `null` when the address is verified. One transaction, so that parallel
 * registrations of one address queue on its row and leave one consistent state.
 */
async function claimUnverified(
  trx: Kysely<Database>,
  input: Registration,
  passwordHash: string,
  secrets: { linkToken: string; ticket: string },
): Promise<string | null> {
  const at = now();
  await trx
    .insertInto('users')
    .values({
      id: randomUUID(),
      email: input.email,
      password_hash: passwordHash,
      nickname: generatedNickname(),
      avatar: null,
      bio: '',
      language: input.language,
      nfsw: false,
      tags: toJson([]),
      gender: null,
      email_verified_at: null,
      google_sub: null,
      discord_id: null,
      created_at: at,
      updated_at: at,
    })
    .onConflict((conflict) => conflict.column('email').doNothing())
    .execute();
  // The update also locks the row on PostgreSQL until this registration commits.
  const pending = await trx
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: at })
    .where('email', '=', input.email)
    .where('email_verified_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!pending) return null;
  await replaceVerification(trx, { id: pending.id, email: input.email }, secrets);
  return pending.id;
}

/** Tells the owner of a verified address that someone tried to register it, and nothing more. */
async function sendAlreadyRegisteredMail(
  mailer: Mailer,
  email: string,
  publicUrl: string,
): Promise<void> {
  const text =
    'Someone, maybe you, tried to create a Mates account with this e-mail address, which already has one.\n\n' +
    `If it was you, sign in at ${publicUrl}/ instead (with Google or Discord if you signed up that way).\n` +
    'If it was not you, ignore this mail: nothing was changed.\n';
  await mailer.send({
    to: email,
    subject: 'Someone tried to sign up to Mates with your address',
    text,
    html: text
      .trim()
      .split('\n\n')
      .map((paragraph) => `<p>${paragraph.replace('\n', '<br>')}</p>`)
      .join(''),
  });
}
