import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { DISCORD_REDIRECT_PATH } from '@mates/state-machines';
import { useServices } from './services-context';

/**
 * The address to continue at when Discord's redirect put `code` in the real query string
 * (`/user/loginDiscord?code=…`): the code moves into the hash query of the app path, where
 * {@link useDiscordGuard} takes it like any other navigation's; `null` when there is none.
 */
export function moveCodeIntoHash(
  location: Pick<Location, 'pathname' | 'search' | 'hash'>,
): string | null {
  const real = new URLSearchParams(location.search);
  const code = real.get('code');
  if (!code) return null;
  real.delete('code');
  const [path = '/', query = ''] = (location.hash.slice(1) || '/').split('?');
  const hashQuery = new URLSearchParams(query);
  hashQuery.set('code', code);
  const pathname = location.pathname === DISCORD_REDIRECT_PATH ? '/' : location.pathname;
  const rest = real.toString();
  return `${pathname}${rest ? `?${rest}` : ''}#${path}?${hashQuery}`;
}

/**
 * SPEC.md §2's global guard: a navigation carrying `code` signs in through Discord with it and
 * continues at the same path without the code; a failure is a negative notification (§8).
 */
export function useDiscordGuard(): void {
  const { client, store, notices } = useServices();
  const location = useLocation();
  const navigate = useNavigate();
  // Each code is spent once, even when an effect runs twice (StrictMode).
  const handled = useRef<string | null>(null);
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const code = params.get('code');
    if (!code || handled.current === code) return;
    handled.current = code;
    params.delete('code');
    const search = params.toString();
    navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '' },
      { replace: true },
    );
    client.user.loginDiscord({ code }).then(
      (userInfo) => store.trigger.loginSucceeded({ userInfo }),
      (error: unknown) =>
        notices.trigger.added({
          tone: 'negative',
          message: error instanceof Error && error.message ? error.message : 'something error',
        }),
    );
  }, [location.pathname, location.search, navigate, client, store, notices]);
}
