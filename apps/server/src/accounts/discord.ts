import type { Config } from '../config';
import { notice } from '../http/envelope';
import type { ExternalIdentity } from './external-accounts';
import type { Logger } from '../logging/logger';
import { en } from '../i18n/en';

/** What talking to Discord needs. */
export interface DiscordDeps {
  config: Pick<Config, 'discord' | 'publicUrl'>;
  fetch: typeof globalThis.fetch;
  log: Logger;
}

const NOT_CONFIRMED = 'Discord could not confirm this sign-in. Please try again.';

/** Who a Discord authorization code belongs to: exchanges it for a token, then reads the user. */
export async function discordIdentity(deps: DiscordDeps, code: string): Promise<ExternalIdentity> {
  const { clientId, clientSecret, apiUrl } = deps.config.discord;
  if (!clientId || !clientSecret) throw notice(en.notices.account.discordNotSetUp);
  const token = await callDiscord<{ access_token?: unknown; token_type?: unknown }>(
    deps,
    'token exchange',
    `${apiUrl}/oauth2/token`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: clientId,
        client_secret: clientSecret,
        grant_type: 'authorization_code',
        code,
        redirect_uri: `${deps.config.publicUrl}/user/loginDiscord`,
      }),
    },
  );
  if (typeof token.access_token !== 'string') throw unreadable(deps, 'token exchange', token);
  const tokenType = typeof token.token_type === 'string' ? token.token_type : 'Bearer';
  const me = await callDiscord<{
    id: string;
    username: string;
    global_name?: string | null;
    email?: string | null;
    verified?: boolean;
    avatar?: string | null;
  }>(deps, 'user fetch', `${apiUrl}/users/@me`, {
    headers: { authorization: `${tokenType} ${token.access_token}` },
  });
  return {
    provider: 'discord',
    subject: String(me.id),
    email: me.email ?? null,
    emailVerified: me.verified === true,
    nickname: me.global_name || me.username,
    avatar: me.avatar ? `https://cdn.discordapp.com/avatars/${me.id}/${me.avatar}.png` : null,
  };
}

/**
 * One call to Discord's API within `config.discord.timeoutMs` (answer and body alike), read
 * as JSON. Every way it can fail becomes a 5007 the user can act on; the detail is logged.
 */
async function callDiscord<T>(
  deps: DiscordDeps,
  step: string,
  url: string,
  init: RequestInit,
): Promise<T> {
  const { timeoutMs } = deps.config.discord;
  let status: number;
  let text: string;
  try {
    const response = await deps.fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    status = response.status;
    text = await response.text();
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') {
      deps.log.warn(`Discord ${step}: no answer within ${timeoutMs} ms`);
      throw notice(en.notices.account.discordTimeout);
    }
    deps.log.warn(`Discord ${step}: ${(error as Error).message}`);
    throw notice(en.notices.account.discordUnreachable);
  }
  if (status < 200 || status > 299) {
    deps.log.warn(`Discord ${step} refused: ${status} ${text.slice(0, 500)}`);
    throw notice(NOT_CONFIRMED);
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw unreadable(deps, step, text);
  }
}

function unreadable(deps: DiscordDeps, step: string, answer: unknown) {
  const shown = typeof answer === 'string' ? answer : JSON.stringify(answer);
  deps.log.warn(`Discord ${step}: unreadable answer ${shown.slice(0, 500)}`);
  return notice(en.notices.account.discordUnreadable);
}
