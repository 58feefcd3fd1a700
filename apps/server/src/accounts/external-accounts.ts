import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, UserTable } from '../db/schema';
import { now, toJson } from '../db/dialect';
import { notice } from '../http/envelope';
import { WELCOME, addBenefits, grantBenefits } from './benefits';
import { providedNickname } from './nicknames';
import { forgetUserSessions } from './session-cache';

/** Who a sign-in provider says the person is. */
export interface ExternalIdentity {
  provider: 'google' | 'discord';
  subject: string;
  email: string | null;
  emailVerified: boolean;
  nickname: string;
  avatar: string | null;
}

const COLUMN = { google: 'google_sub', discord: 'discord_id' } as const;

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
  const column = COLUMN[identity.provider];
  const linked = await db
    .selectFrom('users')
    .selectAll()
    .where(column, '=', identity.subject)
    .executeTakeFirst();
  if (linked) return { user: linked, passwordRemoved: false };
  if (!identity.email || !identity.emailVerified) {
    throw notice(
      `Your ${identity.provider === 'google' ? 'Google' : 'Discord'} account has no verified e-mail address.`,
    );
  }
  const email = identity.email.toLowerCase();
  const at = now();
  const byEmail = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirst();
  if (byEmail) {
    const passwordRemoved = await db.transaction().execute(async (trx) => {
      // Only the sign-in that verifies a pending sign-up grants the welcome.
      const verified = await trx
        .updateTable('users')
        .set({ email_verified_at: at, updated_at: at })
        .where('id', '=', byEmail.id)
        .where('email_verified_at', 'is', null)
        .executeTakeFirst();
      const pending = Number(verified.numUpdatedRows) > 0;
      if (pending) await addBenefits(trx, byEmail.id, welcome, WELCOME);
      const withPassword = await trx
        .updateTable('users')
        .set({ password_hash: null, updated_at: at })
        .where('id', '=', byEmail.id)
        .where('password_hash', 'is not', null)
        .executeTakeFirst();
      const hadPassword = Number(withPassword.numUpdatedRows) > 0;
      if (hadPassword) await trx.deleteFrom('sessions').where('user_id', '=', byEmail.id).execute();
      // A registration's link, or a ticket not redeemed yet, would sign its holder in again.
      await trx.deleteFrom('email_verifications').where('user_id', '=', byEmail.id).execute();
      await trx
        .updateTable('users')
        .set({ [column]: identity.subject, updated_at: at })
        .where('id', '=', byEmail.id)
        .execute();
      // A pending sign-up's owner is signing up now: nothing of theirs was taken away.
      return hadPassword && !pending;
    });
    await forgetUserSessions(db, byEmail.id);
    const user = await db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', byEmail.id)
      .executeTakeFirstOrThrow();
    return { user, passwordRemoved };
  }
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
  await db.insertInto('users').values(user).execute();
  await grantBenefits(db, user.id, welcome, WELCOME);
  return { user, passwordRemoved: false };
}
