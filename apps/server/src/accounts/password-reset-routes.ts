import { Hono } from 'hono';
import { z } from 'zod';
import { contract } from '../http/contract';
import { clientIp, type ApiEnv, type Deps } from '../http/context';
import { notice } from '../http/envelope';
import { now } from '../db/dialect';
import { WELCOME, addBenefits } from './benefits';
import { hashPassword, hashToken, randomToken } from './secrets';
import { consume } from './rate-limits';
import { assertStrongPassword } from './password-policy';
import { addressWords, email, password } from './routes';
import { forgetUserSessions } from './session-cache';

/** How long a mailed reset link works. */
export const RESET_TTL_MS = 60 * 60 * 1000;

/** What a reset with a link that is unknown, used or too old answers (5007). */
export const RESET_LINK_DEAD =
  'This reset link has expired or was already used. Ask for a new one.';

/**
 * Mails a reset link to the account that uses `address`, if any: one live link per account (an
 * older one stops working), stored by its hash. Nothing happens for an address no account uses.
 */
async function mailResetLink(deps: Deps, address: string): Promise<void> {
  const { db, mailer, config } = deps;
  const user = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('email', '=', address)
    .executeTakeFirst();
  if (!user) return;
  const token = randomToken();
  const at = Date.now();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('password_resets')
      .set({ used_at: now() })
      .where('user_id', '=', user.id)
      .where('used_at', 'is', null)
      .execute();
    await trx
      .insertInto('password_resets')
      .values({
        token_hash: hashToken(token),
        user_id: user.id,
        created_at: new Date(at).toISOString(),
        expires_at: new Date(at + RESET_TTL_MS).toISOString(),
        used_at: null,
      })
      .execute();
  });
  const link = `${config.publicUrl}/#/reset-password?token=${encodeURIComponent(token)}`;
  await mailer.send({
    to: user.email,
    subject: 'Reset your Mates password',
    text: `Someone, we hope you, asked to reset the password of your Mates account.\n\nChoose a new password here:\n${link}\n\nThe link works once, for one hour. If you did not ask, ignore this mail: your password stays as it is.\n`,
    html: `<p>Someone, we hope you, asked to reset the password of your Mates account.</p><p><a href="${link}">Choose a new password</a></p><p>The link works once, for one hour. If you did not ask, ignore this mail: your password stays as it is.</p>`,
  });
}

/**
 * A forgotten password: `/user/forgotPassword` mails a link that works once, for an hour;
 * `/user/resetPassword` sets the new password with it and ends every session of the account.
 * The first answers alike whether or not an account uses the address, and just as fast (the
 * account is looked up, and its link made and mailed, after the answer: {@link mailResetLink}),
 * so it tells no one who has an account.
 */
export function passwordResetRoutes(deps: Deps): Hono<ApiEnv> {
  const { db, limits, config } = deps;
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/user');

  api.post('/user/forgotPassword', z.object({ email }), async (c, read) => {
    await consume(limits.forgotPasswordByIp, clientIp(c));
    const input = await read();
    // Counted for the address whether or not it has an account: the limit tells nothing.
    await consume(limits.forgotPasswordByEmail, input.email);
    // Answered before anything depends on the address: whether an account uses it (the lookup,
    // the link, the mail) is worked out after the answer, which is the same and as fast for any
    // address. A link lost to a restart meanwhile is asked for again.
    const log = c.get('log');
    // On a later turn of the event loop: SQLite's queries run on this thread, and begun at once
    // they would hold the answer while they ran.
    setImmediate(() => {
      // Whatever it rejects with (a mailer may reject with no error at all), the catch itself
      // must not throw: that would be an unhandled rejection.
      mailResetLink(deps, input.email).catch((error: unknown) =>
        log.error(
          { err: error },
          `the reset link for a forgotten password was not sent: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    });
    return null;
  });

  api.post(
    '/user/resetPassword',
    z.object({ token: z.string().min(1).max(200), password }),
    async (c, read) => {
      await consume(limits.resetPassword, clientIp(c));
      const input = await read();
      const tokenHash = hashToken(input.token);
      const reset = await db
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
      if (!reset || reset.used_at || new Date(reset.expires_at).getTime() <= Date.now())
        throw notice(RESET_LINK_DEAD);
      // A weak password is refused before the link is used: the person tries again with it.
      assertStrongPassword('password', input.password, addressWords(reset.email));
      const passwordHash = await hashPassword(input.password);
      await db.transaction().execute(async (trx) => {
        // Used once: of two resets at the same moment, one wins and the other is told so.
        const used = await trx
          .updateTable('password_resets')
          .set({ used_at: now() })
          .where('token_hash', '=', tokenHash)
          .where('used_at', 'is', null)
          .executeTakeFirst();
        if (Number(used.numUpdatedRows) === 0) throw notice(RESET_LINK_DEAD);
        await trx
          .updateTable('users')
          .set({ password_hash: passwordHash, updated_at: now() })
          .where('id', '=', reset.user_id)
          .execute();
        // The mailed link proves the address, as the registration's link would have: a pending
        // sign-up is verified (with its welcome, once), and every registration link and ticket
        // still out dies. Someone else may have registered this address first to keep such a
        // ticket, waiting for its owner to open their link and sign them in.
        const verified = await trx
          .updateTable('users')
          .set({ email_verified_at: now() })
          .where('id', '=', reset.user_id)
          .where('email_verified_at', 'is', null)
          .executeTakeFirst();
        if (Number(verified.numUpdatedRows) > 0)
          await addBenefits(trx, reset.user_id, config.welcome, WELCOME);
        await trx.deleteFrom('email_verifications').where('user_id', '=', reset.user_id).execute();
        // Whoever knew the old password is signed out everywhere.
        await trx.deleteFrom('sessions').where('user_id', '=', reset.user_id).execute();
      });
      await forgetUserSessions(db, reset.user_id);
      return null;
    },
  );
  return routes;
}
