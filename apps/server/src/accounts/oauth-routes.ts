import { Hono } from 'hono';
import { z } from 'zod';
import { createRemoteJWKSet, customFetch, jwtVerify } from 'jose';
import { notice, ok } from '../http/envelope';
import { body, query } from '../http/validate';
import type { ApiEnv, Deps } from '../http/context';
import { createSession } from './sessions';
import { toUserInfo } from './user-info';
import { linkOrCreateUser, type ExternalIdentity } from './external-accounts';

const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

/** `/user/loginGG` (Google ID token) and `/user/loginDiscord` (OAuth code). */
export function oauthRoutes(deps: Deps): Hono<ApiEnv> {
  const { db, config } = deps;
  const routes = new Hono<ApiEnv>();
  // Fetched once and cached by jose; keys rotate on Google's schedule.
  const googleKeys = createRemoteJWKSet(new URL(config.google.jwksUrl), {
    [customFetch]: (url, options) => deps.fetch(url, options),
  });

  routes.post('/loginGG', async (c) => {
    const { credential } = await body(c, z.object({ credential: z.string().min(1).max(4096) }));
    if (!config.google.clientId) throw notice('Google sign-in is not set up on this server.');
    let claims;
    try {
      ({ payload: claims } = await jwtVerify(credential, googleKeys, {
        issuer: GOOGLE_ISSUERS,
        audience: config.google.clientId,
      }));
    } catch (error) {
      deps.log(`Google credential refused: ${(error as Error).message}`);
      throw notice('Google could not confirm this sign-in. Please try again.');
    }
    const identity: ExternalIdentity = {
      provider: 'google',
      subject: String(claims.sub),
      email: typeof claims.email === 'string' ? claims.email : null,
      emailVerified: claims.email_verified === true,
      nickname: typeof claims.name === 'string' ? claims.name : '',
      avatar: typeof claims.picture === 'string' ? claims.picture : null,
    };
    const user = await linkOrCreateUser(db, identity, c.get('language'), config.welcome);
    return ok(c, toUserInfo(user, await createSession(db, user.id)));
  });

  routes.get('/loginDiscord', async (c) => {
    const { code } = query(c, z.object({ code: z.string().min(1).max(512) }));
    const { clientId, clientSecret, apiUrl } = config.discord;
    if (!clientId || !clientSecret) throw notice('Discord sign-in is not set up on this server.');
    const tokenResponse = await deps.fetch(`${apiUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: clientId,
        client_secret: clientSecret,
        grant_type: 'authorization_code',
        code,
        redirect_uri: `${config.publicUrl}/user/loginDiscord`,
      }),
    });
    if (!tokenResponse.ok) {
      deps.log(
        `Discord token exchange refused: ${tokenResponse.status} ${await tokenResponse.text()}`,
      );
      throw notice('Discord could not confirm this sign-in. Please try again.');
    }
    const { access_token: accessToken, token_type: tokenType = 'Bearer' } =
      (await tokenResponse.json()) as {
        access_token: string;
        token_type?: string;
      };
    const meResponse = await deps.fetch(`${apiUrl}/users/@me`, {
      headers: { authorization: `${tokenType} ${accessToken}` },
    });
    if (!meResponse.ok) throw notice('Discord could not confirm this sign-in. Please try again.');
    const me = (await meResponse.json()) as {
      id: string;
      username: string;
      global_name?: string | null;
      email?: string | null;
      verified?: boolean;
      avatar?: string | null;
    };
    const user = await linkOrCreateUser(
      db,
      {
        provider: 'discord',
        subject: me.id,
        email: me.email ?? null,
        emailVerified: me.verified === true,
        nickname: me.global_name || me.username,
        avatar: me.avatar ? `https://cdn.discordapp.com/avatars/${me.id}/${me.avatar}.png` : null,
      },
      c.get('language'),
      config.welcome,
    );
    return ok(c, toUserInfo(user, await createSession(db, user.id)));
  });
  return routes;
}
