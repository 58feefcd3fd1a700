import type { Kysely } from 'kysely';
import type { Database, UserTable } from '../db/schema';

/** An ISO 8601 time in UTC, as every table stores times. */
type Timestamp = string;

/** What a person changes on their own account (`/user/updateLange`, `updateTags`, `updateNickname`). */
export type UserSettings = Partial<
  Pick<UserTable, 'language' | 'tags' | 'gender' | 'nfsw' | 'nickname'>
>;

/** The columns that hold an external sign-in's subject, by provider. */
export const EXTERNAL_ID_COLUMN = { google: 'google_sub', discord: 'discord_id' } as const;

/** A sign-in provider whose subject an account may hold. */
export type ExternalProvider = keyof typeof EXTERNAL_ID_COLUMN;

/** The user with `id`, or `undefined`. */
export function userById(db: Kysely<Database>, id: string): Promise<UserTable | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The user of an e-mail address (as stored: trimmed, lower case), or `undefined`. */
export function userByEmail(db: Kysely<Database>, email: string): Promise<UserTable | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** The user a provider's subject is linked to, or `undefined`. */
export function userByExternalId(
  db: Kysely<Database>,
  provider: ExternalProvider,
  subject: string,
): Promise<UserTable | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(EXTERNAL_ID_COLUMN[provider], '=', subject)
    .executeTakeFirst();
}

/** Stores a new user. */
export async function insertUser(db: Kysely<Database>, user: UserTable): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

/** Stores a new user unless their address is taken (then nothing changes). */
export async function insertUserUnlessTaken(db: Kysely<Database>, user: UserTable): Promise<void> {
  await db
    .insertInto('users')
    .values(user)
    .onConflict((conflict) => conflict.column('email').doNothing())
    .execute();
}

/**
 * Sets the password of the address's user while it is not verified, and answers their id
 * (`undefined` when the address is verified). On PostgreSQL the update also locks the row
 * until the transaction commits.
 */
export async function setPendingPassword(
  trx: Kysely<Database>,
  email: string,
  passwordHash: string,
  at: Timestamp,
): Promise<string | undefined> {
  const pending = await trx
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: at })
    .where('email', '=', email)
    .where('email_verified_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return pending?.id;
}

/** Sets a user's password. */
export async function setPassword(
  db: Kysely<Database>,
  userId: string,
  passwordHash: string,
  at: Timestamp,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: at })
    .where('id', '=', userId)
    .execute();
}

/** Writes what a person changed on their account. */
export async function updateUserSettings(
  db: Kysely<Database>,
  userId: string,
  settings: UserSettings,
  at: Timestamp,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...settings, updated_at: at })
    .where('id', '=', userId)
    .execute();
}

/** Marks a user's address verified; `false` when it already was (nothing changes then). */
export async function markVerified(
  trx: Kysely<Database>,
  userId: string,
  at: Timestamp,
): Promise<boolean> {
  const verified = await trx
    .updateTable('users')
    .set({ email_verified_at: at, updated_at: at })
    .where('id', '=', userId)
    .where('email_verified_at', 'is', null)
    .executeTakeFirst();
  return Number(verified.numUpdatedRows) > 0;
}

/** Removes a user's password; `false` when they had none. */
export async function removePassword(
  trx: Kysely<Database>,
  userId: string,
  at: Timestamp,
): Promise<boolean> {
  const removed = await trx
    .updateTable('users')
    .set({ password_hash: null, updated_at: at })
    .where('id', '=', userId)
    .where('password_hash', 'is not', null)
    .executeTakeFirst();
  return Number(removed.numUpdatedRows) > 0;
}

/** Links a provider's subject to a user. */
export async function linkExternalId(
  trx: Kysely<Database>,
  userId: string,
  provider: ExternalProvider,
  subject: string,
  at: Timestamp,
): Promise<void> {
  await trx
    .updateTable('users')
    .set({ [EXTERNAL_ID_COLUMN[provider]]: subject, updated_at: at })
    .where('id', '=', userId)
    .execute();
}
