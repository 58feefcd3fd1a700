import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect';
import { generatedNickname } from '../../accounts/nicknames';

/** Accounts renamed a page at a time: a large user table is never held in memory whole. */
const PAGE = 1000;

interface UserNames {
  users: {
    id: string;
    nickname: string;
    avatar: string | null;
    email: string;
    google_sub: string | null;
    discord_id: string | null;
  };
}

/**
 * Until now, nobody could choose their nickname, and it was shown to everyone as the name of a
 * creator or a reviewer. It was the account's e-mail address up to the `@` (cut at 40
 * characters by registration, whole by a sign-in without a name), or the Google account's name,
 * with its photo as the avatar: usually the person's own name and face. Each of those becomes a
 * generated nickname, and the Google photo goes. A Discord display name and picture, chosen to
 * be shown, stay, unless the name is the address up to the `@` too (so no nickname is that,
 * which the web app relies on); so does the Google name of an account that also signed in
 * with Discord, as nothing tells which of the two it came from.
 */
export async function up(untyped: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const db = untyped as Kysely<UserNames>;
  const localPart =
    dialect === 'postgres'
      ? sql<string>`split_part(email, '@', 1)`
      : sql<string>`substr(email, 1, instr(email, '@') - 1)`;
  let after = '';
  for (;;) {
    const page = await db
      .selectFrom('users')
      .select(['id', 'google_sub', 'discord_id'])
      .where('id', '>', after)
      .where((eb) =>
        eb.or([
          eb('nickname', '=', localPart),
          eb('nickname', '=', sql<string>`substr(${localPart}, 1, 40)`),
          eb.and([eb('google_sub', 'is not', null), eb('discord_id', 'is', null)]),
        ]),
      )
      .orderBy('id')
      .limit(PAGE)
      .execute();
    for (const user of page) {
      const google = user.google_sub !== null && user.discord_id === null;
      await db
        .updateTable('users')
        .set({ nickname: generatedNickname(), ...(google ? { avatar: null } : {}) })
        .where('id', '=', user.id)
        .execute();
    }
    if (page.length < PAGE) return;
    after = page.at(-1)!.id;
  }
}
