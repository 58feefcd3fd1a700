import type { Kysely } from 'kysely';
import type { Database, UserTable } from '../db/schema';
import { now } from '../db/dialect';
import { hashToken, randomToken } from './secrets';
import {
  deleteSession,
  deleteSessionsOf,
  insertSession,
  sessionWithUser,
  touchSession,
} from './session-repository';
import {
  forgetSession,
  forgetUserSessions,
  sessionCache,
  type CachedSession,
} from './session-cache';

/** How long a session lives without use; every use pushes the end back (sliding). */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
// Writing the new expiry on every request would turn reads into writes; once an hour is enough.
const TOUCH_EVERY_MS = 60 * 60 * 1000;

const expiry = (from: number) => new Date(from + SESSION_TTL_MS).toISOString();

/** Opens a session for a user and returns its token (only its hash is stored). */
export async function createSession(db: Kysely<Database>, userId: string): Promise<string> {
  const token = randomToken();
  const at = now();
  await insertSession(db, {
    token_hash: hashToken(token),
    user_id: userId,
    created_at: at,
    last_seen_at: at,
    expires_at: expiry(Date.now()),
  });
  return token;
}

/**
 * The user behind a token, or `null` when it is unknown, expired or logged out. Sessions are
 * kept in this server's session cache (`session-cache.ts`) between calls: whatever could make
 * one wrong forgets it, here and on the other servers.
 */
export async function resolveSession(
  db: Kysely<Database>,
  token: string,
): Promise<UserTable | null> {
  if (!token) return null;
  const tokenHash = hashToken(token);
  const cache = sessionCache(db);
  const epoch = cache.epoch;
  const cached = cache.get(tokenHash);
  // Not put back: the cache's minute counts from the read, however often the session is used
  // (it bounds what a forget lost on its way leaves behind).
  if (cached) return checked(db, tokenHash, cached);
  const row = await sessionWithUser(db, tokenHash);
  if (!row) return null;
  const { session_expires_at, session_seen_at, ...user } = row;
  const session: CachedSession = {
    user,
    expiresAt: Date.parse(session_expires_at),
    seenAt: Date.parse(session_seen_at),
  };
  const found = await checked(db, tokenHash, session);
  // Forgotten while it was read or written as seen (a logout, a password changed): not kept.
  if (found && cache.epoch === epoch) cache.set(tokenHash, session);
  return found;
}

/**
 * The session's user once its time is checked: an expired one is ended (`null`); one last
 * written as seen over an hour ago is written as seen now (its end moves back).
 */
async function checked(
  db: Kysely<Database>,
  tokenHash: string,
  session: CachedSession,
): Promise<UserTable | null> {
  const nowMs = Date.now();
  if (session.expiresAt <= nowMs) {
    sessionCache(db).forgetHere(`t:${tokenHash}`);
    await deleteSession(db, tokenHash);
    return null;
  }
  if (nowMs - session.seenAt > TOUCH_EVERY_MS) {
    session.seenAt = nowMs;
    session.expiresAt = nowMs + SESSION_TTL_MS;
    await touchSession(db, tokenHash, { seenAt: now(), expiresAt: expiry(nowMs) });
  }
  return session.user;
}

/** Ends a session; unknown tokens are fine. */
export async function endSession(db: Kysely<Database>, token: string): Promise<void> {
  if (!token) return;
  const tokenHash = hashToken(token);
  await deleteSession(db, tokenHash);
  await forgetSession(db, tokenHash);
}

/** Ends every session of a user except the one with `keepToken`. */
export async function endOtherSessions(
  db: Kysely<Database>,
  userId: string,
  keepToken: string,
): Promise<void> {
  await deleteSessionsOf(db, userId, hashToken(keepToken));
  await forgetUserSessions(db, userId);
}
