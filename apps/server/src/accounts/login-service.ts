import type { UserInfo } from '@mates/api-client';
import type { UserTable } from '../db/schema';
import { now } from '../db/dialect';
import { refused } from '../domain/errors';
import type { AccountDeps } from './account-deps';
import { assertStrongPassword } from './password-policy';
import { endResetLinksOf } from './password-reset-repository';
import { consume, startLoginAttempt } from './rate-limits';
import { addressWords } from './registration-service';
import { hashPassword, verifyPassword } from './secrets';
import { createSession, endOtherSessions, endSession } from './sessions';
import { toUserInfo } from './user-info';
import { setPassword, userByEmail } from './user-repository';

/**
 * Signs a person in with their address and password: a new session. Each attempt is counted
 * against the address and the account before the (slow) password check, see
 * `startLoginAttempt`; a wrong address and a wrong password are refused alike, and an address
 * not confirmed yet is refused once the password is right.
 */
export async function login(
  deps: AccountDeps,
  input: { email: string; password: string; ip: string },
): Promise<UserInfo> {
  const { db, limits } = deps;
  await consume(limits.login, `${input.ip}:${input.email}`);
  const succeeded = await startLoginAttempt(limits, input.ip, input.email);
  const user = await userByEmail(db, input.email);
  if (!(await verifyPassword(user?.password_hash, input.password)) || !user) {
    throw refused('notices.account.wrongPassword');
  }
  await succeeded();
  if (!user.email_verified_at) throw refused('notices.account.confirmEmail');
  return toUserInfo(user, await createSession(db, user.id), deps.config.adminEmails);
}

/** Ends the session of `token` (an unknown one is fine). */
export function logout(deps: Pick<AccountDeps, 'db'>, token: string): Promise<void> {
  return endSession(deps.db, token);
}

/**
 * Changes the signed-in person's password, once the current one proves them: a weak new one
 * is refused first, and every other session of theirs ends (the one of `token` stays), as does
 * every reset link still out.
 */
export async function changePassword(
  deps: Pick<AccountDeps, 'db'>,
  user: UserTable,
  token: string,
  input: { oldPassword: string; newPassword: string },
): Promise<void> {
  assertStrongPassword('newPassword', input.newPassword, addressWords(user.email));
  // An account made with Google or Discord has no current password to give.
  if (!user.password_hash) throw refused('notices.account.noPassword');
  if (!(await verifyPassword(user.password_hash, input.oldPassword))) {
    throw refused('notices.account.currentPassword');
  }
  const passwordHash = await hashPassword(input.newPassword);
  // A reset link mailed before the change (perhaps to whoever the change shuts out) dies with
  // the old password.
  await deps.db.transaction().execute(async (trx) => {
    await setPassword(trx, user.id, passwordHash, now());
    await endResetLinksOf(trx, user.id, now());
  });
  // Forgets the user's cached sessions too, on every server.
  await endOtherSessions(deps.db, user.id, token);
}
