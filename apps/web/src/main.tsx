import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { createServices } from './lib/services';
import { ServicesProvider } from './lib/services-context';
import { AppTheme } from './app/app-theme';
import { createRouter } from './app/router';
import { moveCodeIntoHash } from './app/discord-guard';
import { entryScriptsOf, reloadForNewVersion } from './lib/new-version';

// Discord's redirect carries its code and state in the real query string; the router reads the hash.
const moved = moveCodeIntoHash(window.location);
if (moved) window.history.replaceState(null, '', moved);
reloadForNewVersion(window, {
  entry: entryScriptsOf(document.head.outerHTML),
  fetchPage: async () => {
    const page = await fetch(window.location.pathname, { cache: 'no-store' });
    if (!page.ok) throw new Error(`the app's page answered ${page.status}`);
    return page.text();
  },
  reload: () => window.location.reload(),
});
const router = createRouter();
const services = createServices({
  apiBase: import.meta.env.VITE_API_BASE ?? '/api',
  storage: window.localStorage,
  tabStorage: window.sessionStorage,
  navigate: (path) => void router.navigate(path),
  reload: () => window.location.reload(),
});

await services.ready;
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ServicesProvider services={services}>
      <AppTheme>
        <I18nextProvider i18n={services.i18n}>
          <QueryClientProvider client={services.queries}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </I18nextProvider>
      </AppTheme>
    </ServicesProvider>
  </StrictMode>,
);

// The sign-in popup is not part of the first screen; it loads once the page is idle, so that
// "Sign in" answers at once.
const whenIdle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 1));
whenIdle(() => void services.popup.load().catch(() => {}));
