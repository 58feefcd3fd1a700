import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, UserTable } from '../db/schema';
import { now, toJson } from '../db/dialect';
import { refused } from '../domain/errors';
import { WELCOME, addBenefits, grantBenefits } from './benefits';
import { providedNickname } from './nicknames';
import { forgetUserSessions } from './session-cache';
import { deleteSessionsOf } from './session-repository';
import {
  insertUser,
  linkExternalId,
  markVerified,
  removePassword,
  userByEmail,
  userByExternalId,
  userById,
  type ExternalProvider,
} from './user-repository';
import { deleteVerificationsOf } from './verification-repository';

/** Who a sign-in provider says the person is. */
export interface ExternalIdentity {
  provider: ExternalProvider;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  nickname: string;
  avatar: string | null;
}

/** The account an external identity signs into, and what signing in changed. */
export interface LinkedAccount {
  user: UserTable;
  /**
   * The identity was linked to an account that had a password: the password and every session
   * are gone (see {@link linkOrCreateUser}); its owner should be told.
   */
  passwordRemoved: boolean;
}

/**
 * The account for an external identity: the one already linked; else the one with the same
 * e-mail address when the provider vouches for it (then linked); else a new, verified one.
 *
 * Whoever registered an address chose its password, and its owner may have done no more than
 * press the link of a sign-up they never made (account pre-hijacking). The provider proves the
 * owner, so linking takes the account from anyone else: a pending sign-up's password and link
 * go; a verified account's password goes too, with every session made so far. Each in one
 * transaction with conditional writes, so sign-ins at the same moment grant the welcome once.
 */
export async function linkOrCreateUser(
  db: Kysely<Database>,
  identity: ExternalIdentity,
  language: string,
  welcome: { chats: number; goldCoins: number },
): Promise<LinkedAccount> {
  const linked = await userByExternalId(db, identity.provider, identity.subject);
  if (linked) return { user: linked, passwordRemoved: false };
  if (!identity.email || !identity.emailVerified) {
    throw refused(
      identity.provider === 'google'
        ? 'notices.account.googleNoEmail'
        : 'notices.account.discordNoEmail',
    );
  }
  const email = identity.email.toLowerCase();
  const byEmail = await userByEmail(db, email);
  if (byEmail) return takeOver(db, byEmail.id, identity, welcome);
  return { user: await createUser(db, identity, email, language, welcome), passwordRemoved: false };
}

/**
 * Links an identity to the account of its address and takes the account from anyone else
 * (see {@link linkOrCreateUser}); forgets the account's sessions on every server once done.
 */
async function takeOver(
  db: Kysely<Database>,
  userId: string,
  identity: ExternalIdentity,
  welcome: { chats: number; goldCoins: number },
): Promise<LinkedAccount> {
  const at = now();
  const passwordRemoved = await db.transaction().execute(async (trx) => {
    // Only the sign-in that verifies a pending sign-up grants the welcome.
    const pending = await markVerified(trx, userId, at);
    if (pending) await addBenefits(trx, userId, welcome, WELCOME);
    const hadPassword = await removePassword(trx, userId, at);
    if (hadPassword) await deleteSessionsOf(trx, userId);
    // A registration's link, or a ticket not redeemed yet, would sign its holder in again.
    await deleteVerificationsOf(trx, userId);
    await linkExternalId(trx, userId, identity.provider, identity.subject, at);
    // A pending sign-up's owner is signing up now: nothing of theirs was taken away.
    return hadPassword && !pending;
  });
  await forgetUserSessions(db, userId);
  const user = await userById(db, userId);
  if (!user) throw new Error(`user ${userId} is gone`);
  return { user, passwordRemoved };
}

/** A new, verified account for an identity, with the welcome gift. */
async function createUser(
  db: Kysely<Database>,
  identity: ExternalIdentity,
  email: string,
  language: string,
  welcome: { chats: number; goldCoins: number },
): Promise<UserTable> {
  const at = now();
  const user: UserTable = {
    id: randomUUID(),
    email,
    password_hash: null,
    nickname: providedNickname(identity.nickname, email),
    avatar: identity.avatar,
    bio: '',
    language,
    nfsw: false,
    tags: toJson([]),
    gender: null,
    email_verified_at: at,
    google_sub: identity.provider === 'google' ? identity.subject : null,
    discord_id: identity.provider === 'discord' ? identity.subject : null,
    created_at: at,
    updated_at: at,
  };
  await insertUser(db, user);
  await grantBenefits(db, user.id, welcome, WELCOME);
  return user;
}
