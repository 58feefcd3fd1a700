/**
 * The module scripts a page of the app starts with (`/assets/first-screen-….js` and the
 * bundler's runtime), in order, as one string: a new version names others. `''` when none.
 */
export function entryScriptsOf(html: string): string {
  const scripts: string[] = [];
  for (const [tag] of html.matchAll(/<script\b[^>]*>/g)) {
    const src = /\ssrc="([^"]+)"/.exec(tag)?.[1];
    if (src && /\stype="module"/.test(tag)) scripts.push(src);
  }
  return scripts.join(' ');
}

/** What {@link reloadForNewVersion} needs of the page it runs in. */
export interface NewVersionOptions {
  /** The module scripts this page started with (see {@link entryScriptsOf}). */
  entry: string;
  /** The app's page as the server serves it now, read past every cache. */
  fetchPage: () => Promise<string>;
  reload: () => void;
}

/**
 * Reloads the page onto the new version when a piece of its code cannot be loaded (Vite's
 * `vite:preloadError`) because an upgrade replaced the server's files since the page was
 * opened: the pieces it loads as they are needed (a screen, the reply parser at the first send)
 * are gone. Only then: the server's page is read again, and the reload happens only if it names
 * other module scripts than this page's. Offline, or the same version (a piece that failed for
 * another reason), nothing reloads, and the failed step fails as it would (a send's text goes
 * back into its box). The reloaded page runs the new version, so it cannot reload again for the
 * same reason: no loop, however slow the connection. What was being written is kept on the
 * device (`drafts.ts`).
 */
export function reloadForNewVersion(
  target: Pick<Window, 'addEventListener'>,
  { entry, fetchPage, reload }: NewVersionOptions,
): void {
  let checking = false;
  target.addEventListener('vite:preloadError', () => {
    if (checking || entry === '') return;
    checking = true;
    fetchPage()
      .then((page) => {
        const served = entryScriptsOf(page);
        if (served !== '' && served !== entry) reload();
      })
      // Not reachable: not a new version that anyone can load now.
      .catch(() => {})
      .finally(() => {
        checking = false;
      });
  });
}
