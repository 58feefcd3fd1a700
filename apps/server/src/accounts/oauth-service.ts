import type { UserInfo } from '@mates/api-client';
import type { Config } from '../config';
import type { Logger } from '../logging/logger';
import type { AccountDeps } from './account-deps';
import { passwordRemovedMail } from './account-mails';
import { discordIdentity } from './discord';
import { linkOrCreateUser, type ExternalIdentity } from './external-account-service';
import { googleIdentity, type GoogleVerifier } from './google';
import { createSession } from './sessions';
import { toUserInfo } from './user-info';

/** What signing in through Google or Discord needs. */
export interface OAuthDeps extends Pick<AccountDeps, 'db' | 'mailer'> {
  config: Pick<Config, 'google' | 'discord' | 'publicUrl' | 'welcome' | 'adminEmails'>;
  /** Fetch for Google's keys and Discord's API. */
  fetch: typeof globalThis.fetch;
  verifyGoogle: GoogleVerifier;
  /** The request's logger. */
  log: Logger;
}

/** Signs in with a Google ID token (`/user/loginGG`). */
export async function signInWithGoogle(
  deps: OAuthDeps,
  credential: string,
  language: string,
): Promise<UserInfo> {
  return signIn(deps, await googleIdentity(deps, credential), language);
}

/** Signs in with a Discord authorization code (`/user/loginDiscord`). */
export async function signInWithDiscord(
  deps: OAuthDeps,
  code: string,
  language: string,
): Promise<UserInfo> {
  return signIn(deps, await discordIdentity(deps, code), language);
}

/**
 * Signs `identity` in (a new session); tells the owner by mail when its password went (see
 * `linkOrCreateUser`), without waiting for the mail.
 */
async function signIn(
  deps: OAuthDeps,
  identity: ExternalIdentity,
  language: string,
): Promise<UserInfo> {
  const { db, config } = deps;
  const { user, passwordRemoved } = await linkOrCreateUser(db, identity, language, config.welcome);
  if (passwordRemoved) {
    deps.mailer
      // To the account's owner, in the language the account chose.
      .send(passwordRemovedMail(user.email, identity.provider, user.language))
      .catch((error: unknown) =>
        deps.log.error(
          `the sign-in mail to ${user.email} was not sent: ${(error as Error).message}`,
        ),
      );
  }
  return toUserInfo(user, await createSession(db, user.id), config.adminEmails);
}
