import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { UserInfo } from '@mates/api-client';
import type { Database } from '../db/schema';
import { now, toJson } from '../db/dialect';
import type { AccountDeps } from './account-deps';
import { alreadyRegisteredMail, verificationMail } from './account-mails';
import { WELCOME, grantBenefits } from './benefits';
import { generatedNickname } from './nicknames';
import { assertStrongPassword } from './password-policy';
import { consume } from './rate-limits';
import { hashPassword, hashToken, randomToken } from './secrets';
import { forgetUserSessions } from './session-cache';
import { createSession } from './sessions';
import { toUserInfo } from './user-info';
import {
  insertUserUnlessTaken,
  markVerified,
  setPendingPassword,
  userByEmail,
  userById,
} from './user-repository';
import {
  openVerification,
  redeemVerifiedTicket,
  replaceVerification,
  verificationByLink,
} from './verification-repository';

/** How long a verification link, and the ticket of its registration, work. */
export const VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;

/** What register needs: the address (normalized), the password and the caller's language. */
export interface Registration {
  email: string;
  password: string;
  language: string;
}

/** The words of an address a guesser tries first: the whole address and its local part. */
export const addressWords = (address: string) => [address, address.split('@')[0]!];

/**
 * Registers an address and returns the ticket for the registering browser. The answer is the
 * same whether the address is new, pending or verified, so that nobody learns which: a verified
 * address changes nothing and its owner gets a mail saying someone tried. A weak password is
 * refused first; each address may be registered a few times an hour (each mails its owner).
 */
export async function register(deps: AccountDeps, input: Registration): Promise<string> {
  assertStrongPassword('password', input.password, addressWords(input.email));
  await consume(deps.limits.registerByEmail, input.email);
  const passwordHash = await hashPassword(input.password);
  const linkToken = randomToken();
  const ticket = randomToken();
  const claim = await deps.db
    .transaction()
    .execute((trx) => claimUnverified(trx, input, passwordHash, { linkToken, ticket }));
  const { mailer, config } = deps;
  if ('pendingId' in claim) {
    await forgetUserSessions(deps.db, claim.pendingId);
    // Read by whoever is signing up, waiting for it in the app: in the language they signed up
    // in (a pending account keeps the language of its first sign-up).
    await mailer.send(verificationMail(input.email, linkToken, config.publicUrl, input.language));
  } else {
    // Read by the owner of the account, who may not be whoever is signing up: in the language
    // the owner chose, not the caller's.
    await mailer.send(alreadyRegisteredMail(input.email, config.publicUrl, claim.ownerLanguage));
  }
  return ticket;
}

/**
 * Creates the user of an address, or takes over its pending sign-up: an address that never
 * verified proves nothing yet, so the latest registration's password and link replace every
 * earlier one. Its id, or the language of its owner's account when the address is verified.
 * One transaction, so that parallel registrations of one address queue on its row and leave
 * one consistent state.
 */
async function claimUnverified(
  trx: Kysely<Database>,
  input: Registration,
  passwordHash: string,
  secrets: { linkToken: string; ticket: string },
): Promise<{ pendingId: string } | { ownerLanguage: string }> {
  const at = now();
  await insertUserUnlessTaken(trx, {
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
  });
  // The update also locks the row on PostgreSQL until this registration commits.
  const pendingId = await setPendingPassword(trx, input.email, passwordHash, at);
  if (!pendingId) {
    const owner = await userByEmail(trx, input.email);
    return { ownerLanguage: owner?.language ?? input.language };
  }
  // Every earlier link and ticket of the address stops working: a ticket belongs to one
  // registration.
  const created = Date.now();
  await replaceVerification(trx, {
    id: randomUUID(),
    user_id: pendingId,
    email: input.email,
    link_token_hash: hashToken(secrets.linkToken),
    ticket_hash: hashToken(secrets.ticket),
    created_at: new Date(created).toISOString(),
    expires_at: new Date(created + VERIFICATION_TTL_MS).toISOString(),
    verified_at: null,
  });
  return { pendingId };
}

/** What opening a verification link did. */
export type ConfirmResult = 'verified' | 'already-verified' | 'expired' | 'unknown';

/** Marks the address of a link verified; the first verification grants the welcome benefits. */
export async function confirmVerification(
  deps: Pick<AccountDeps, 'db' | 'config'>,
  linkToken: string,
): Promise<ConfirmResult> {
  const { db } = deps;
  const linkTokenHash = hashToken(linkToken);
  const row = await verificationByLink(db, linkTokenHash);
  if (!row) return 'unknown';
  if (row.email_verified_at) return 'already-verified';
  if (Date.parse(row.expires_at) <= Date.now()) return 'expired';
  const userId = await db.transaction().execute(async (trx) => {
    const at = now();
    // Conditional writes: a registration that replaced this link meanwhile, or a second tab
    // opening it, changes nothing, so the welcome is granted once.
    const opened = await openVerification(trx, linkTokenHash, at);
    if (!opened) return null;
    return (await markVerified(trx, opened, at)) ? opened : null;
  });
  if (!userId) return 'already-verified';
  await forgetUserSessions(db, userId);
  await grantBenefits(db, userId, deps.config.welcome, WELCOME);
  return 'verified';
}

/**
 * Whether the registration that gave `verifyTicket` for `email` was verified, and then its
 * user signed in (a new session); redeeming uses the ticket up, so one ticket signs in once.
 * Only the browser holding the ticket of the opened link learns anything about the address:
 * `verified: false` otherwise, whatever the reason.
 */
export async function verificationStatus(
  deps: Pick<AccountDeps, 'db' | 'config'>,
  input: { email: string; verifyTicket?: string | undefined },
): Promise<{ verified: boolean; userInfo: UserInfo | null }> {
  const { db, config } = deps;
  const userId = input.verifyTicket
    ? await redeemVerifiedTicket(db, input.email, hashToken(input.verifyTicket), now())
    : undefined;
  const user = userId ? await userById(db, userId) : undefined;
  const userInfo = user
    ? toUserInfo(user, await createSession(db, user.id), config.adminEmails)
    : null;
  return { verified: userInfo !== null, userInfo };
}
