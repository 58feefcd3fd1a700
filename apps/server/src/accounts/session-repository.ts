import type { Kysely } from 'kysely';
import type { Database, SessionTable, UserTable } from '../db/schema';
import { preparedQuery } from '../db/prepared-query';

/** Stores a new session. */
export async function insertSession(db: Kysely<Database>, row: SessionTable): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

/** A session's user, with when the session ends and was last written as seen. */
export type SessionRow = UserTable & { session_expires_at: string; session_seen_at: string };

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

/** The session of a token's hash with its user, or `undefined`. */
export async function sessionWithUser(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<SessionRow | undefined> {
  return (await sessionByToken(db, { tokenHash })).rows[0];
}

/** Writes a session as seen at `seenAt`, ending at `expiresAt`. */
export async function touchSession(
  db: Kysely<Database>,
  tokenHash: string,
  times: { seenAt: string; expiresAt: string },
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_seen_at: times.seenAt, expires_at: times.expiresAt })
    .where('token_hash', '=', tokenHash)
    .execute();
}

/** Deletes one session (an unknown one is fine). */
export async function deleteSession(db: Kysely<Database>, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

/**
 * Deletes every session of a user, or every one but `keepTokenHash`'s. The caller forgets them
 * in the session cache once its transaction commits (`forgetUserSessions`).
 */
export async function deleteSessionsOf(
  db: Kysely<Database>,
  userId: string,
  keepTokenHash?: string,
): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepTokenHash !== undefined) query = query.where('token_hash', '!=', keepTokenHash);
  await query.execute();
}
