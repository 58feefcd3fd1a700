import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { contract } from '../http/contract';
import type { ApiEnv, Deps } from '../http/context';
import { googleVerifier } from './google';
import { signInWithDiscord, signInWithGoogle, type OAuthDeps } from './oauth-service';

const googlePayload = z.object({ credential: z.string().min(1).max(4096) });
const discordQuery = z.object({ code: z.string().min(1).max(512) });

/** `/user/loginGG` (Google ID token) and `/user/loginDiscord` (OAuth code). */
export function oauthRoutes(deps: Deps): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/user');
  const verifyGoogle = googleVerifier(deps.config, deps.fetch);
  const oauth = (c: Context<ApiEnv>): OAuthDeps => ({ ...deps, verifyGoogle, log: c.get('log') });

  api.post('/user/loginGG', googlePayload, async (c, read) =>
    signInWithGoogle(oauth(c), (await read()).credential, c.get('language')),
  );

  api.get('/user/loginDiscord', discordQuery, async (c, read) =>
    signInWithDiscord(oauth(c), (await read()).code, c.get('language')),
  );
  return routes;
}
