import { afterEach, expect, test, vi } from 'vitest';
import { page } from 'vitest/browser';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { ENDPOINTS, type EndpointPath } from '@mates/api-client';
import { createUserInfoFixture, DEFAULT_RESOLVERS } from '@mates/api-client/msw';
import { USER_STORE_KEY } from '@mates/state-machines';
import { ThemeProvider } from '@mates/ui';
import { createServices } from '../lib/services';
import { ServicesProvider } from '../lib/services-context';
import { createRouter } from './router';

// Every call answered by the contract's default resolvers, as the MSW handlers do.
const fakeFetch: typeof fetch = async (input, init) => {
  const url = new URL(String(input), 'http://app.test');
  const path = url.pathname.replace(/^\/api/, '') as Exclude<EndpointPath, '/girl/chat/send'>;
  const resolve = DEFAULT_RESOLVERS[path] as unknown as ((request: unknown) => unknown) | undefined;
  if (!resolve || !(path in ENDPOINTS))
    return new Response(JSON.stringify({ c: 4004, m: 'no such call', d: null }));
  const d = await resolve({
    query: Object.fromEntries(url.searchParams),
    body: init?.body ? JSON.parse(String(init.body)) : undefined,
    request: new Request(url),
  });
  return new Response(JSON.stringify({ c: 200, m: '', d }), {
    headers: { 'content-type': 'application/json' },
  });
};

let root: Root | null = null;
afterEach(async () => {
  await act(async () => root?.unmount());
  document.body.innerHTML = '';
  window.sessionStorage.clear();
  vi.restoreAllMocks();
});

// Issue 37, new users 8: Back left the studio without asking (React Router warned that it
// could not block a navigation it had not made), and every load warned about HydrateFallback.
test("the studio's leave guard catches Back, and the app loads without router warnings", async () => {
  const warnings: string[] = [];
  for (const level of ['warn', 'error'] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      warnings.push(args.map(String).join(' '));
    });
  window.sessionStorage.setItem(
    USER_STORE_KEY,
    JSON.stringify({ userInfo: createUserInfoFixture() }),
  );
  window.history.replaceState(null, '', '#/mine');
  const router = createRouter();
  const services = createServices({
    apiBase: '/api',
    fetch: fakeFetch,
    storage: window.sessionStorage,
    tabStorage: window.sessionStorage,
    navigate: (to) => void router.navigate(to),
    reload: () => {},
  });
  await services.ready;
  const host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  await act(async () =>
    root!.render(
      <ThemeProvider>
        <ServicesProvider services={services}>
          <I18nextProvider i18n={services.i18n}>
            <QueryClientProvider client={services.queries}>
              <RouterProvider router={router} />
            </QueryClientProvider>
          </I18nextProvider>
        </ServicesProvider>
      </ThemeProvider>,
    ),
  );
  // A person's way into the studio: a link of the page, then some words of an idea.
  await page.getByRole('link', { name: 'Create a mate' }).click();
  await page.getByRole('textbox', { name: 'Your idea' }).fill('A lighthouse keeper');
  await expect.poll(() => router.state.location.pathname).toBe('/generate');

  window.history.back();
  await expect.element(page.getByRole('dialog', { name: 'Leave without saving?' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect
    .element(page.getByRole('textbox', { name: 'Your idea' }))
    .toHaveValue('A lighthouse keeper');
  expect(router.state.location.pathname).toBe('/generate');
  expect(window.location.hash).toBe('#/generate');
  expect(warnings.filter((line) => /HydrateFallback|block a POP|blocker/i.test(line))).toEqual([]);
});
