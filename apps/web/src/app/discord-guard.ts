import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useServices } from './services-context';
import type { Services } from './services';

/** The `code` query parameter, from the real query string or the hash's. */
export function discordCode(location: Pick<Location, 'search' | 'hash'>): string | null {
  const real = new URLSearchParams(location.search).get('code');
  if (real) return real;
  const hashQuery = location.hash.includes('?')
    ? location.hash.slice(location.hash.indexOf('?'))
    : '';
  return new URLSearchParams(hashQuery).get('code');
}

/** The app path to continue to, without the code: `/user/loginDiscord?code=…` continues at `/`. */
export function pathWithoutCode(location: Pick<Location, 'hash'>): string {
  const [path = '/', query = ''] = (location.hash.slice(1) || '/').split('?');
  const params = new URLSearchParams(query);
  params.delete('code');
  const rest = params.toString();
  return `${path}${rest ? `?${rest}` : ''}`;
}

/** Signs in through Discord with `code`; a failure is a negative notification (SPEC.md §8). */
export async function signInWithDiscord(services: Services, code: string): Promise<void> {
  try {
    const userInfo = await services.client.user.loginDiscord({ code });
    services.store.trigger.loginSucceeded({ userInfo });
  } catch (error) {
    services.notices.trigger.added({
      tone: 'negative',
      message: error instanceof Error && error.message ? error.message : 'something error',
    });
  }
}

/**
 * SPEC.md §2's global guard at start, before the router reads the address: a `code` in the
 * real query string (the Discord redirect lands on `/user/loginDiscord?code=…`) or the hash
 * query signs in with it, and the app continues at the same path without the code.
 */
export function runDiscordGuard(services: Services, location: Location): Promise<void> | null {
  const code = discordCode(location);
  if (!code) return null;
  const target = pathWithoutCode(location);
  window.history.replaceState(
    null,
    '',
    `${location.pathname === '/user/loginDiscord' ? '/' : location.pathname}#${target}`,
  );
  return signInWithDiscord(services, code);
}

/** The same guard on every later navigation inside the app. */
export function useDiscordGuard(): void {
  const services = useServices();
  const location = useLocation();
  const navigate = useNavigate();
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
    void signInWithDiscord(services, code);
  }, [location.pathname, location.search, navigate, services]);
}
