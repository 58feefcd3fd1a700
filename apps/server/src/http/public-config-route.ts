import { Hono } from 'hono';
import type { PublicConfig } from '@mates/api-client';
import { contract } from './contract';
import type { ApiEnv, Deps } from './context';

/** `/extra/publicConfig`: what a browser may know of the server — client ids, never secrets. */
export function publicConfigRoute(deps: Deps): Hono<ApiEnv> {
  const { google, discord, publicUrl } = deps.config;
  const publicConfig: PublicConfig = {
    productName: 'Mates',
    googleClientId: google.clientId ?? null,
    // Discord sign-in works only with both halves of its credentials.
    discord:
      discord.clientId && discord.clientSecret
        ? { clientId: discord.clientId, redirectUri: `${publicUrl}/user/loginDiscord` }
        : null,
  };
  const routes = new Hono<ApiEnv>();
  contract(routes, '/extra').get('/extra/publicConfig', () => publicConfig);
  return routes;
}
