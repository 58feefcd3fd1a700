import type { z } from 'zod';
import type { Config } from '../config';
import { refused } from '../domain/errors';
import type { ExternalIdentity } from './external-account-service';
import type { Logger } from '../logging/logger';
import { discordToken, discordUser } from './provider-profiles';

/** What talking to Discord needs. */
export interface DiscordDeps {
  config: Pick<Config, 'discord' | 'publicUrl'>;
  fetch: typeof globalThis.fetch;
  log: Logger;
}

/** Who a Discord authorization code belongs to: exchanges it for a token, then reads the user. */
export async function discordIdentity(deps: DiscordDeps, code: string): Promise<ExternalIdentity> {
  const { clientId, clientSecret, apiUrl } = deps.config.discord;
  if (!clientId || !clientSecret) throw refused('notices.account.discordNotSetUp');
  const token = await callDiscord(deps, 'token exchange', discordToken, `${apiUrl}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: clientId,
      client_secret: clientSecret,
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${deps.config.publicUrl}/user/loginDiscord`,
    }),
  });
  const me = await callDiscord(deps, 'user fetch', discordUser, `${apiUrl}/users/@me`, {
    headers: { authorization: `${token.token_type ?? 'Bearer'} ${token.access_token}` },
  });
  return {
    provider: 'discord',
    subject: me.id,
    email: me.email ?? null,
    emailVerified: me.verified === true,
    nickname: me.global_name || me.username,
    avatar: me.avatar ? `https://cdn.discordapp.com/avatars/${me.id}/${me.avatar}.png` : null,
  };
}

/**
 * One call to Discord's API within `config.discord.timeoutMs` (answer and body alike), read
 * as JSON of the shape `schema` describes. Every way it can fail becomes a 5007 the user can
 * act on; the detail is logged.
 */
async function callDiscord<S extends z.ZodType>(
  deps: DiscordDeps,
  step: string,
  schema: S,
  url: string,
  init: RequestInit,
): Promise<z.infer<S>> {
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
      throw refused('notices.account.discordTimeout');
    }
    deps.log.warn(`Discord ${step}: ${(error as Error).message}`);
    throw refused('notices.account.discordUnreachable');
  }
  if (status < 200 || status > 299) {
    deps.log.warn(`Discord ${step} refused: ${status} ${text.slice(0, 500)}`);
    throw refused('notices.account.discordNotConfirmed');
  }
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw unreadable(deps, step, text.slice(0, 500));
  }
  const read = schema.safeParse(answer);
  // Named by its fields only: the answer holds a token or the person's address.
  if (!read.success) throw unreadable(deps, step, `of another shape (${fieldsOf(read.error)})`);
  return read.data;
}

/** `field: what is wrong with it` for each of a schema's issues, without the values. */
function fieldsOf(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
}

function unreadable(deps: DiscordDeps, step: string, answer: string) {
  deps.log.warn(`Discord ${step}: unreadable answer ${answer}`);
  return refused('notices.account.discordUnreadable');
}
