import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { delay, http, type HttpHandler } from 'msw';
import { useEffect } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import type { EndpointPath } from '@mates/api-client';
import {
  createHandlers,
  createPublicConfigFixture,
  createUserInfoFixture,
  mockEndpoint,
  mockEndpointError,
} from '@mates/api-client/msw';
import { USER_STORE_KEY, type KeyValueStorage, type UserState } from '@mates/state-machines';
import { createServices, type Services } from '../lib/services';
import {
  DISCORD_CONFIRMATION_KEY,
  DISCORD_STATE_KEY,
  type DiscordConfirmation,
} from '../lib/discord-state';
import { ServicesProvider } from '../lib/services-context';
import { routes } from '../app/router';
import { NOT_FOUND, ROUTES } from '../lib/paths';

/** Where a screen story starts: the path, and who is looking. */
export interface StoryAppOptions {
  /** The app path, with its query, e.g. `/detail?mateId=mate-1`. */
  path: string;
  /** Signed in as the fixture user (Ada); default a visitor. */
  signedIn?: boolean;
  /** Signed in as Ada, an administrator (`userInfo.isAdmin`): implies `signedIn`. */
  admin?: boolean;
  /** The interface language; default English. */
  language?: string;
  /** More of the user store's state, e.g. a pending sign-up. */
  state?: Partial<UserState>;
  /** The OAuth state of a Discord sign-in this tab started, as the Discord button issues it. */
  discordState?: string;
  /** A Discord sign-in this tab started to confirm deleting the account ("Delete my account"). */
  discordConfirmation?: DiscordConfirmation;
  /** A first visit: nothing stored yet, and the browser asks for these languages. */
  firstVisit?: { browserLanguages: string[] };
  /** More of what this device keeps (`localStorage`), by key: e.g. unsent messages. */
  stored?: Record<string, string>;
}

/** The whole app as a story runs it: the real route table in a memory router. */
export interface StoryApp {
  router: ReturnType<typeof createMemoryRouter>;
  services: Services;
  /** Reloads the app asked for (a story cannot reload; the store has changed already). */
  reloads: number;
  /** Addresses the app left for (the Discord authorize page). */
  redirects: string[];
}

function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage {
  const values = new Map(Object.entries(initial));
  return {
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
  };
}

/** Makes the app for one story, with its texts loaded. */
export async function createStoryApp(options: StoryAppOptions): Promise<StoryApp> {
  const {
    path,
    admin = false,
    language = 'en',
    state = {},
    discordState,
    discordConfirmation,
  } = options;
  const signedIn = admin || (options.signedIn ?? false);
  const saved: Partial<UserState> = {
    ...state,
    // Signed in as Ada, with whatever the story's own state changes of her.
    userInfo: signedIn
      ? { ...createUserInfoFixture({ language, isAdmin: admin }), ...state.userInfo }
      : { language },
  };
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const app = { router, reloads: 0, redirects: [] as string[] };
  const services = createServices({
    apiBase: '/api',
    storage: memoryStorage({
      ...options.stored,
      ...(!options.firstVisit && { [USER_STORE_KEY]: JSON.stringify(saved) }),
    }),
    browserLanguages: options.firstVisit?.browserLanguages ?? [],
    tabStorage: memoryStorage({
      ...(discordState && { [DISCORD_STATE_KEY]: discordState }),
      ...(discordConfirmation && {
        [DISCORD_CONFIRMATION_KEY]: JSON.stringify(discordConfirmation),
      }),
    }),
    navigate: (to) => void router.navigate(to),
    reload: () => void (app.reloads += 1),
    redirect: (url) => void app.redirects.push(url),
    currentPath: () => router.state.location.pathname + router.state.location.search,
  });
  await services.ready;
  return Object.assign(app, { services });
}

/**
 * Renders a story's app with the providers `main.tsx` gives the real one. The app's links are
 * hash links (`#/detail?…`); in a story they go to its memory router, as the hash router takes
 * them in the app (the story's frame keeps its own address).
 */
export function StoryAppView({ app }: { app: StoryApp }) {
  useEffect(() => {
    const follow = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href^="#/"]');
      if (!link || event.defaultPrevented || event.button !== 0) return;
      event.preventDefault();
      void app.router.navigate(link.getAttribute('href')!.slice(1));
    };
    document.addEventListener('click', follow);
    return () => document.removeEventListener('click', follow);
  }, [app.router]);
  return (
    <ServicesProvider services={app.services}>
      <I18nextProvider i18n={app.services.i18n}>
        <QueryClientProvider client={app.services.queries}>
          <RouterProvider router={app.router} />
        </QueryClientProvider>
      </I18nextProvider>
    </ServicesProvider>
  );
}

/**
 * The API as a story sees it: its own answers first, then every call's fixture from
 * `@mates/api-client/msw`. No Google button (its script is on the internet).
 */
export function api(...overrides: HttpHandler[]): HttpHandler[] {
  return [
    ...overrides,
    mockEndpoint('/extra/publicConfig', () => createPublicConfigFixture({ googleClientId: null })),
    ...createHandlers(),
  ];
}

/**
 * The shared part of a screen's stories (spread into a meta that names its title): each story
 * names its start in `parameters.app` and its API in `parameters.msw.handlers`; the story's
 * `loaded.app` is the running app.
 */
export const screenStories = {
  parameters: {
    layout: 'fullscreen',
    // The docs addon would otherwise print each story as JSX after it renders, walking the
    // running app passed as a prop (router, stores, query client): it held Storybook's page for
    // seconds to a minute and overflowed the stack on the chat. A screen shows its story's source.
    docs: { source: { type: 'code' } },
    msw: { handlers: api() },
  },
  loaders: [
    async ({ parameters }) => ({
      app: await createStoryApp((parameters.app as StoryAppOptions | undefined) ?? { path: '/' }),
    }),
  ],
  render: (_args, { loaded }) => <StoryAppView app={loaded.app as StoryApp} />,
} satisfies Meta;

/** A visitor on a screen for signed-in users: the page asks them to sign in (docs/product.md, routes). */
export function visitorAt(path: string): StoryObj<Meta> {
  return {
    parameters: { app: { path } },
    play: async ({ canvas }) => {
      await expect(await canvas.findByText('Sign in to see this page')).toBeVisible();
      const main = within(canvas.getByRole('main'));
      await expect(main.getByRole('button', { name: 'Sign in' })).toBeVisible();
    },
  };
}

/**
 * A visitor on a screen for signed-in users presses "Sign in": the popup opens in mode 2, and
 * closing it returns to "/" (docs/product.md, routes).
 */
export function visitorClosesSignInAt(path: string): StoryObj<Meta> {
  return {
    parameters: { app: { path } },
    play: async ({ canvas, canvasElement, loaded }) => {
      const app = loaded.app as StoryApp;
      const body = within(canvasElement.ownerDocument.body);
      const main = within(await canvas.findByRole('main'));
      await userEvent.click(await main.findByRole('button', { name: 'Sign in' }));
      const dialog = await body.findByRole('dialog', { name: 'Sign in to Mates' });
      await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
      await waitFor(() => expect(app.router.state.location.pathname).toBe('/'));
    },
  };
}

/**
 * Waits for a top notification saying `text` (docs/product.md, errors), on screen. (Over the
 * open popup the toast region is hidden from the accessibility tree like all outside a modal;
 * Radix announces each toast through a live region of its own.)
 */
export async function expectNotice(canvasElement: HTMLElement, text: string): Promise<void> {
  const body = within(canvasElement.ownerDocument.body);
  await waitFor(() =>
    expect(body.getAllByText(text).some((element) => element.checkVisibility())).toBe(true),
  );
}

/** Checks the header and footer against the route table of docs/product.md for the app's path. */
export async function expectChrome(canvasElement: HTMLElement, app: StoryApp): Promise<void> {
  const canvas = within(canvasElement);
  const path = app.router.state.location.pathname;
  const entry = ROUTES.find((route) => route.path === path) ?? NOT_FOUND;
  await canvas.findByRole('main');
  await expect(Boolean(canvas.queryByRole('banner'))).toBe(entry.header);
  await expect(Boolean(canvas.queryByRole('contentinfo'))).toBe(entry.footer);
}

/**
 * The screen's way back (`name`, to `target`) is where every screen puts it: the first link of
 * its content, above its title.
 */
export async function expectBackLinkFirst(
  canvasElement: HTMLElement,
  name: string,
  target: string,
): Promise<void> {
  const main = within(await within(canvasElement).findByRole('main'));
  const title = await main.findByRole('heading', { level: 1 });
  const [first] = main.getAllByRole('link');
  await expect(first).toHaveAccessibleName(name);
  await expect(first).toHaveAttribute('href', target);
  await expect(
    first!.compareDocumentPosition(title) & Node.DOCUMENT_POSITION_FOLLOWING,
  ).toBeTruthy();
}

/** The signed-in person's chats and gold coins, as the header says them, in the screen itself. */
export async function expectBalances(canvasElement: HTMLElement, app: StoryApp): Promise<void> {
  const main = within(await within(canvasElement).findByRole('main'));
  // The store may still be taking the balances the page loads: both figures are read again,
  // together, until the page shows the store's latest.
  await waitFor(async () => {
    const { chats, goldCoins } = app.services.store.getSnapshot().context.userBenefits;
    await expect(main.getByText(`${chats.toLocaleString('en')} chats`)).toBeVisible();
    await expect(main.getByText(`${goldCoins.toLocaleString('en')} gold coins`)).toBeVisible();
  });
}

/**
 * A screen whose thing is not there (4004, `message`): the alert says so and offers the way on
 * (links named `ways`, the first one first), not a retry that cannot help.
 */
export function missingLoad(
  app: StoryAppOptions,
  endpoint: EndpointPath,
  message: string,
  ways: string[],
): StoryObj<Meta> {
  return {
    parameters: { app, msw: { handlers: api(mockEndpointError(endpoint, 4004, message)) } },
    play: async ({ canvas }) => {
      const alert = await canvas.findByRole('alert');
      await expect(alert).toHaveTextContent(message);
      await expect(within(alert).queryByRole('button', { name: 'Try again' })).toBeNull();
      const links = within(alert).getAllByRole('link');
      await expect(links.map((link) => link.textContent)).toEqual(ways);
    },
  };
}

/**
 * A screen whose load fails with the server's `message`: an alert says what failed (`title`,
 * when the screen names it) and why, and offers to try again.
 */
export function failingLoad(
  app: StoryAppOptions,
  endpoint: EndpointPath,
  message: string,
  title?: string,
): StoryObj<Meta> {
  return {
    parameters: { app, msw: { handlers: api(mockEndpointError(endpoint, 5000, message)) } },
    play: async ({ canvas }) => {
      const alert = await canvas.findByRole('alert');
      await expect(alert).toHaveTextContent(message);
      if (title) await expect(alert).toHaveTextContent(title);
      await expect(within(alert).getByRole('button', { name: 'Try again' })).toBeVisible();
    },
  };
}

/**
 * Calls to `path` (`/room/saveMemory`), counted as each arrives and passed on to the story's
 * next handler after `ms`: a second press that should do nothing while the first is answered
 * shows as a second call. `reset` is for the story's loaders.
 */
export function slowCalls(method: 'get' | 'post', path: EndpointPath, ms = 300) {
  const counted = { asked: 0 };
  return {
    counted,
    handler: http[method](`*/api${path}`, () => {
      counted.asked += 1;
      return delay(ms);
    }),
    reset: () => void (counted.asked = 0),
  };
}
