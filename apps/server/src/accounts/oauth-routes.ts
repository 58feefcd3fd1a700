import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { JWTPayload } from 'jose';
import { notice } from '../http/envelope';
import { contract } from '../http/contract';
import type { ApiEnv, Deps } from '../http/context';
import { createSession } from './sessions';
import { toUserInfo } from './user-info';
import { linkOrCreateUser, type ExternalIdentity } from './external-accounts';
import { discordIdentity } from './discord';
import { googleClaims } from './provider-profiles';
import { en } from '../i18n/en';

const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

/** `/user/loginGG` (Google ID token) and `/user/loginDiscord` (OAuth code). */
export function oauthRoutes(deps: Deps): Hono<ApiEnv> {
  const { db, config } = deps;
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/user');

  /** Signs `identity` in; tells the owner by mail when its password went (see `linkOrCreateUser`). */
  const signIn = async (c: Context<ApiEnv>, identity: ExternalIdentity) => {
    const { user, passwordRemoved } = await linkOrCreateUser(
      db,
      identity,
      c.get('language'),
      config.welcome,
    );
    if (passwordRemoved) {
      const provider = identity.provider === 'google' ? 'Google' : 'Discord';
      const text = [
        `You just signed in to your Mates account with ${provider}.`,
        `To keep the account yours, its password was removed and every other device was signed out: whoever chose that password may not have been you. Your mates, chats and coins are all still there.`,
        `To sign in with a password again, choose "Forgot your password?" on the sign-in page and set a new one.`,
      ];
      deps.mailer
        .send({
          to: user.email,
          subject: `You signed in to Mates with ${provider}`,
          text: `${text.join('\n\n')}\n`,
          html: text.map((paragraph) => `<p>${paragraph}</p>`).join(''),
        })
        .catch((error: unknown) =>
          c
            .get('log')
            .error(`the sign-in mail to ${user.email} was not sent: ${(error as Error).message}`),
        );
    }
    return toUserInfo(user, await createSession(db, user.id), config.adminEmails);
  };
  // jose is loaded at the first Google sign-in (a server without Google never needs it); the
  // keys are fetched once and cached by jose, and rotate on Google's schedule.
  let verifier: Promise<(credential: string) => Promise<JWTPayload>> | undefined;
  const verifyGoogle = async (credential: string) => {
    verifier ??= import('jose').then(({ createRemoteJWKSet, customFetch, jwtVerify }) => {
      const googleKeys = createRemoteJWKSet(new URL(config.google.jwksUrl), {
        [customFetch]: (url, options) => deps.fetch(url, options),
      });
      return async (token) =>
        (
          await jwtVerify(token, googleKeys, {
            issuer: GOOGLE_ISSUERS,
            audience: config.google.clientId,
          })
        ).payload;
    });
    return (await verifier)(credential);
  };

  const googlePayload = z.object({ credential: z.string().min(1).max(4096) });
  api.post('/user/loginGG', googlePayload, async (c, read) => {
    const { credential } = await read();
    if (!config.google.clientId) throw notice(en.notices.account.googleNotSetUp);
    let claims;
    try {
      claims = await verifyGoogle(credential);
    } catch (error) {
      c.get('log').warn(`Google credential refused: ${(error as Error).message}`);
      throw notice(en.notices.account.googleNotConfirmed);
    }
    const profile = googleClaims.safeParse(claims);
    if (!profile.success) {
      // Named by its fields only: the claims hold the person's address.
      const fields = profile.error.issues.map(
        (issue) => `${issue.path.join('.')}: ${issue.message}`,
      );
      c.get('log').warn(`Google credential unreadable: ${fields.join('; ')}`);
      throw notice(en.notices.account.googleNotConfirmed);
    }
    const identity: ExternalIdentity = {
      provider: 'google',
      subject: profile.data.sub,
      email: profile.data.email ?? null,
      emailVerified: profile.data.email_verified === true,
      // Not the Google name and photo, which are usually the person's own name and face: what
      // they publish here goes under a generated name until they choose one.
      nickname: '',
      avatar: null,
    };
    return signIn(c, identity);
  });

  api.get('/user/loginDiscord', z.object({ code: z.string().min(1).max(512) }), async (c, read) => {
    const { code } = await read();
    const identity = await discordIdentity({ ...deps, log: c.get('log') }, code);
    return signIn(c, identity);
  });
  return routes;
}
