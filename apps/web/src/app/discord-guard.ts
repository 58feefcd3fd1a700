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

/**
 * SPEC.md §2's global guard: a navigation carrying `code` signs in through Discord with it,
 * then continues to the same path without the code; a failure is a negative notification.
 */
export async function runDiscordGuard(services: Services, location: Location): Promise<boolean> {
  const code = discordCode(location);
  if (!code) return false;
  const target = pathWithoutCode(location);
  window.history.replaceState(
    null,
    '',
    `${location.pathname === '/user/loginDiscord' ? '/' : location.pathname}#${target}`,
  );
  try {
    const userInfo = await services.client.user.loginDiscord({ code });
    services.store.trigger.loginSucceeded({ userInfo });
  } catch (error) {
    services.notices.trigger.added({
      tone: 'negative',
      message: error instanceof Error && error.message ? error.message : 'something error',
    });
  }
  return true;
}
