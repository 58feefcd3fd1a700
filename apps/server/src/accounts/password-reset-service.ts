import { now } from '../db/dialect';
import { refused } from '../domain/errors';
import type { Logger } from '../logging/logger';
import type { AccountDeps } from './account-deps';
import { resetLinkMail } from './account-mails';
import { WELCOME, addBenefits } from './benefits';
import { assertStrongPassword } from './password-policy';
import { resetByToken, replaceResetLink, useResetLink } from './password-reset-repository';
import { consume } from './rate-limits';
import { addressWords } from './registration-service';
import { hashPassword, hashToken, randomToken } from './secrets';
import { forgetUserSessions } from './session-cache';
import { deleteSessionsOf } from './session-repository';
import { markVerified, setPassword, userByEmail } from './user-repository';
import { deleteVerificationsOf } from './verification-repository';

/** How long a mailed reset link works. */
export const RESET_TTL_MS = 60 * 60 * 1000;

/**
 * Asks for a reset link for `email`: counted for the address whether or not an account uses
 * it (the limit tells nothing), and answered before anything depends on the address: whether
 * an account uses it (the lookup, the link, the mail) is worked out after the answer, which is
 * the same and as fast for any address. A link lost to a restart meanwhile is asked for again.
 */
export async function forgotPassword(deps: AccountDeps, email: string, log: Logger): Promise<void> {
  await consume(deps.limits.forgotPasswordByEmail, email);
  // On a later turn of the event loop: SQLite's queries run on this thread, and begun at once
  // they would hold the answer while they ran.
  setImmediate(() => {
    // Whatever it rejects with (a mailer may reject with no error at all), the catch itself
    // must not throw: that would be an unhandled rejection.
    mailResetLink(deps, email).catch((error: unknown) =>
      log.error(
        { err: error },
        `the reset link for a forgotten password was not sent: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  });
}

/**
 * Mails a reset link to the account that uses `address`, if any: one live link per account (an
 * older one stops working), stored by its hash. Nothing happens for an address no account uses.
 */
async function mailResetLink(deps: AccountDeps, address: string): Promise<void> {
  const user = await userByEmail(deps.db, address);
  if (!user) return;
  const token = randomToken();
  const at = Date.now();
  const row = {
    token_hash: hashToken(token),
    user_id: user.id,
    created_at: new Date(at).toISOString(),
    expires_at: new Date(at + RESET_TTL_MS).toISOString(),
    used_at: null,
  };
  await replaceResetLink(deps.db, row, now());
  // Whoever asked may be anyone: the mail goes to the account, in its language.
  await deps.mailer.send(resetLinkMail(user.email, token, deps.config.publicUrl, user.language));
}

/**
 * Sets a new password with a mailed link, which works once, for an hour (5007 otherwise). The
 * link proves the address, as the registration's link would have: a pending sign-up is verified
 * (with its welcome, once), and every registration link and ticket still out dies. Someone else
 * may have registered this address first to keep such a ticket, waiting for its owner to open
 * their link and sign them in. Whoever knew the old password is signed out everywhere.
 */
export async function resetPassword(
  deps: Pick<AccountDeps, 'db' | 'config'>,
  input: { token: string; password: string },
): Promise<void> {
  const { db, config } = deps;
  const tokenHash = hashToken(input.token);
  const reset = await resetByToken(db, tokenHash);
  if (!reset || reset.used_at || new Date(reset.expires_at).getTime() <= Date.now())
    throw refused('notices.account.resetLinkDead');
  // A weak password is refused before the link is used: the person tries again with it.
  assertStrongPassword('password', input.password, addressWords(reset.email));
  const passwordHash = await hashPassword(input.password);
  await db.transaction().execute(async (trx) => {
    // Used once: of two resets at the same moment, one wins and the other is told so.
    if (!(await useResetLink(trx, tokenHash, now())))
      throw refused('notices.account.resetLinkDead');
    await setPassword(trx, reset.user_id, passwordHash, now());
    if (await markVerified(trx, reset.user_id, now()))
      await addBenefits(trx, reset.user_id, config.welcome, WELCOME);
    await deleteVerificationsOf(trx, reset.user_id);
    await deleteSessionsOf(trx, reset.user_id);
  });
  await forgetUserSessions(db, reset.user_id);
}
