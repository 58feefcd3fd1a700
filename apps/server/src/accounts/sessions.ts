import type { Kysely } from 'kysely';
import type { Database, UserTable } from '../db/schema';
import { now } from '../db/dialect';
import { preparedQuery } from '../db/prepared-query';
import { hashToken, randomToken } from './secrets';

/** How long a session lives without use; every use pushes the end back (sliding). */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
// Writing the new expiry on every request would turn reads into writes; once an hour is enough.
const TOUCH_EVERY_MS = 60 * 60 * 1000;

const expiry = (from: number) => new Date(from + SESSION_TTL_MS).toISOString();

/** Opens a session for a user and returns its token (only its hash is stored). */
export async function createSession(db: Kysely<Database>, userId: string): Promise<string> {
  const token = randomToken();
  const at = now();
  await db
    .insertInto('sessions')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      created_at: at,
      last_seen_at: at,
      expires_at: expiry(Date.now()),
    })
    .execute();
  return token;
}

// Every API call reads its session: compiled once (see `preparedQuery`), on the primary key.
const sessionByToken = preparedQuery((db, v: { tokenHash: string }) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select([
      'sessions.expires_at as session_expires_at',
      'sessions.last_seen_at as session_seen_at',
    ])
    .where('sessions.token_hash', '=', v.tokenHash),
);

/** The user behind a token, or `null` when it is unknown, expired or logged out. */
export async function resolveSession(
  db: Kysely<Database>,
  token: string,
): Promise<UserTable | null> {
  if (!token) return null;
  const tokenHash = hashToken(token);
  const [row] = (await sessionByToken(db, { tokenHash })).rows;
  if (!row) return null;
  const nowMs = Date.now();
  if (Date.parse(row.session_expires_at) <= nowMs) {
    await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
    return null;
  }
  if (nowMs - Date.parse(row.session_seen_at) > TOUCH_EVERY_MS) {
    await db
      .updateTable('sessions')
      .set({ last_seen_at: now(), expires_at: expiry(nowMs) })
      .where('token_hash', '=', tokenHash)
      .execute();
  }
  const { session_expires_at, session_seen_at, ...user } = row;
  return user;
}

/** Ends a session; unknown tokens are fine. */
export async function endSession(db: Kysely<Database>, token: string): Promise<void> {
  if (!token) return;
  await db.deleteFrom('sessions').where('token_hash', '=', hashToken(token)).execute();
}

/** Ends every session of a user except the one with `keepToken`. */
export async function endOtherSessions(
  db: Kysely<Database>,
  userId: string,
  keepToken: string,
): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where('token_hash', '!=', hashToken(keepToken))
    .execute();
}
