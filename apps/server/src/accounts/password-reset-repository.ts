import type { Kysely } from 'kysely';
import type { Database, PasswordResetTable } from '../db/schema';

/** A reset link by its token's hash, with its user's address; `undefined`: no such link. */
export function resetByToken(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<
  (Pick<PasswordResetTable, 'user_id' | 'expires_at' | 'used_at'> & { email: string }) | undefined
> {
  return db
    .selectFrom('password_resets')
    .innerJoin('users', 'users.id', 'password_resets.user_id')
    .select([
      'password_resets.user_id',
      'password_resets.expires_at',
      'password_resets.used_at',
      'users.email',
    ])
    .where('password_resets.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Makes `row` its user's only live reset link: every earlier one of theirs is marked used. */
export async function replaceResetLink(
  db: Kysely<Database>,
  row: PasswordResetTable,
  at: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('password_resets')
      .set({ used_at: at })
      .where('user_id', '=', row.user_id)
      .where('used_at', 'is', null)
      .execute();
    await trx.insertInto('password_resets').values(row).execute();
  });
}

/**
 * Ends every reset link of `userId`'s still out (marked used): the password was changed from
 * the profile, and a link asked for before must not set it again.
 */
export async function endResetLinksOf(
  db: Kysely<Database>,
  userId: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('password_resets')
    .set({ used_at: at })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

/** Marks a reset link used, once: `false` when it already was. */
export async function useResetLink(
  trx: Kysely<Database>,
  tokenHash: string,
  at: string,
): Promise<boolean> {
  const used = await trx
    .updateTable('password_resets')
    .set({ used_at: at })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) > 0;
}
