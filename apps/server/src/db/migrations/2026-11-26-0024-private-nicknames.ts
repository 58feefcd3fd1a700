import type { Kysely } from 'kysely';
import { generatedNickname } from '../../accounts/nicknames';

/** Accounts read at a time: a large user table is never held in memory whole. */
const PAGE = 1000;

interface UserNames {
  users: { id: string; email: string; nickname: string };
}

/**
 * Whether a nickname is its account's address up to the `@`: as registration made it (cut at
 * 40 characters), or as a Google or Discord sign-in without a name did (whole).
 */
function madeFromAddress(user: { email: string; nickname: string }): boolean {
  const local = user.email.split('@')[0]!;
  return user.nickname === local || user.nickname === local.slice(0, 40);
}

/**
 * A new account's nickname used to be its e-mail address up to the `@`, shown to everyone as a
 * creator's or a reviewer's name. Every nickname that is still exactly that (nobody could
 * change it) becomes a generated one; names chosen elsewhere (Google, Discord) stay.
 */
export async function up(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped as Kysely<UserNames>;
  let after = '';
  for (;;) {
    const page = await db
      .selectFrom('users')
      .select(['id', 'email', 'nickname'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    for (const user of page)
      if (madeFromAddress(user))
        await db
          .updateTable('users')
          .set({ nickname: generatedNickname() })
          .where('id', '=', user.id)
          .execute();
    if (page.length < PAGE) return;
    after = page.at(-1)!.id;
  }
}
