import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema';
import { createSession } from '../src/accounts/sessions';

/**
 * A verified user made directly in the database, with `benefits` to spend, and a session token:
 * benches need many people at once, faster than signing each up through the API.
 */
export async function benchUser(
  db: Kysely<Database>,
  userId: string,
  benefits: { chats: number; goldCoins: number },
): Promise<string> {
  const at = new Date().toISOString();
  await db
    .insertInto('users')
    .values({
      id: userId,
      email: `${userId}@bench.local`,
      password_hash: null,
      nickname: userId,
      avatar: null,
      bio: '',
      language: 'en',
      nfsw: false,
      tags: '[]',
      gender: null,
      email_verified_at: at,
      google_sub: null,
      discord_id: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await db
    .insertInto('benefits')
    .values({
      user_id: userId,
      chats: benefits.chats,
      gold_coins: benefits.goldCoins,
      updated_at: at,
    })
    .execute();
  return createSession(db, userId);
}
