import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, UserTable } from '../db/schema';
import { now, toJson } from '../db/dialect';
import { notice } from '../http/envelope';
import { WELCOME, grantBenefits } from './benefits';

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

/**
 * The account for an external identity: the one already linked; else the one with the same
 * e-mail address when the provider vouches for it (then linked); else a new, verified one.
 */
export async function linkOrCreateUser(
  db: Kysely<Database>,
  identity: ExternalIdentity,
  language: string,
  welcome: { chats: number; goldCoins: number },
): Promise<UserTable> {
  const column = COLUMN[identity.provider];
  const linked = await db
    .selectFrom('users')
    .selectAll()
    .where(column, '=', identity.subject)
    .executeTakeFirst();
  if (linked) return linked;
  if (!identity.email || !identity.emailVerified) {
    throw notice(
      `Your ${identity.provider === 'google' ? 'Google' : 'Discord'} account has no verified e-mail address.`,
    );
  }
  const email = identity.email.toLowerCase();
  const at = now();
  const byEmail = await db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email)
    .executeTakeFirst();
  if (byEmail) {
    // The provider vouches for the address. A pending sign-up's password and link came from
    // whoever typed the address, perhaps not its owner: they go, and the owner signs in here.
    const pending = !byEmail.email_verified_at;
    await db
      .updateTable('users')
      .set({
        [column]: identity.subject,
        email_verified_at: byEmail.email_verified_at ?? at,
        ...(pending ? { password_hash: null } : {}),
        updated_at: at,
      })
      .where('id', '=', byEmail.id)
      .execute();
    if (pending) {
      await db.deleteFrom('email_verifications').where('user_id', '=', byEmail.id).execute();
      await grantBenefits(db, byEmail.id, welcome, WELCOME);
    }
    return db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', byEmail.id)
      .executeTakeFirstOrThrow();
  }
  const user: UserTable = {
    id: randomUUID(),
    email,
    password_hash: null,
    nickname: identity.nickname.slice(0, 40) || email.split('@')[0]!,
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
  return user;
}
