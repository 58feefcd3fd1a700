import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { DISCORD_REDIRECT_PATH } from '@mates/state-machines';
import { useServices } from '../lib/services-context';
import type { DeletionProofState } from '../lib/discord-state';
import { routeTo } from '../lib/paths';

/**
 * The address to continue at when Discord's redirect put `code` (and `state`) in the real
 * query string (`/user/loginDiscord?code=…&state=…`): they move into the hash query of the app path, where
 * {@link useDiscordGuard} takes it like any other navigation's; `null` when there is none.
 */
export function moveCodeIntoHash(
  location: Pick<Location, 'pathname' | 'search' | 'hash'>,
): string | null {
  const real = new URLSearchParams(location.search);
  const code = real.get('code');
  if (!code) return null;
  const [path = '/', query = ''] = (location.hash.slice(1) || '/').split('?');
  const hashQuery = new URLSearchParams(query);
  for (const key of ['code', 'state']) {
    const value = real.get(key);
    real.delete(key);
    if (value !== null) hashQuery.set(key, value);
  }
  const pathname = location.pathname === DISCORD_REDIRECT_PATH ? '/' : location.pathname;
  const rest = real.toString();
  return `${pathname}${rest ? `?${rest}` : ''}#${path}?${hashQuery}`;
}

/**
 * The global guard (docs/product.md): a navigation carrying `code` signs in through Discord
 * with it and continues at the same path without the code; a failure is a negative
 * notification.
 * The code is sent only with the OAuth `state` this tab issued: anyone can craft a link with
 * their own code, which would sign the victim into the attacker's account (login CSRF).
 * A code that comes back for a state "Delete my account" issued is no sign-in: it is taken,
 * unspent, to the profile, whose dialog sends it as the proof.
 */
export function useDiscordGuard(): void {
  const { client, store, notices, discordStates } = useServices();
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  // Each code is spent once, even when an effect runs twice (StrictMode).
  const handled = useRef<string | null>(null);
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const code = params.get('code');
    if (!code || handled.current === code) return;
    handled.current = code;
    const state = params.get('state');
    params.delete('code');
    params.delete('state');
    const search = params.toString();
    const confirmation = discordStates.takeConfirmation(state);
    if (confirmation) {
      const back: DeletionProofState = {
        deletionProof: { discordCode: code, publicMates: confirmation.publicMates },
      };
      navigate(routeTo('/profile'), { replace: true, state: back });
      return;
    }
    navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '' },
      { replace: true },
    );
    if (!discordStates.take(state)) {
      notices.trigger.added({ tone: 'negative', message: t('auth.discordForeign') });
      return;
    }
    client.user.loginDiscord({ code }).then(
      (userInfo) => store.trigger.loginSucceeded({ userInfo }),
      (error: unknown) =>
        notices.trigger.added({
          tone: 'negative',
          message: error instanceof Error && error.message ? error.message : 'something error',
        }),
    );
  }, [location.pathname, location.search, navigate, client, store, notices, discordStates, t]);
}
