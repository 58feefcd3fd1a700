import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  createPublicConfigFixture,
  mockEndpoint,
  mockEndpointError,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import { api, expectNotice, screenStories, type StoryApp } from '../testing/story-app';

// The shell's rules across screens: the Discord guard, the session-expired and notice codes
// (docs/product.md, errors), and the popup's sign-up path to the waiting page.
const meta = { title: 'Screens/Shell', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const location = (app: StoryApp) =>
  app.router.state.location.pathname + app.router.state.location.search;

/**
 * A navigation carrying `code` and the state this tab issued signs in through Discord and
 * continues without them.
 */
export const SignedInThroughDiscord: Story = {
  parameters: {
    app: { path: '/favorite?code=discord-code-1&state=tab-state', discordState: 'tab-state' },
  },
  play: async ({ loaded }) => {
    const app = loaded.app as StoryApp;
    await waitFor(() => expect(location(app)).toBe('/favorite'));
    await waitFor(() =>
      expect(app.services.store.getSnapshot().context.userInfo.uuid).toBe('user-1'),
    );
    await expect(app.reloads).toBe(1);
  },
};

/** A code Discord no longer accepts: a negative notification with the server's message. */
export const DiscordSignInExpired: Story = {
  parameters: {
    app: { path: '/favorite?code=old-code&state=tab-state', discordState: 'tab-state' },
    msw: {
      handlers: api(
        mockEndpointError('/user/loginDiscord', 4001, 'That Discord sign-in has expired'),
      ),
    },
  },
  play: async ({ canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    await expectNotice(canvasElement, 'That Discord sign-in has expired');
    await expect(location(app)).toBe('/favorite');
    await expect(app.services.store.getSnapshot().context.userInfo.uuid).toBeUndefined();
  },
};

/**
 * A code with no state, or a state this tab did not issue (a link someone crafted with their
 * own code): refused with a notification, and the code never reaches the server.
 */
export const DiscordSignInNotStartedHere: Story = {
  parameters: {
    app: { path: '/favorite?code=attacker-code&state=attacker-state', discordState: 'tab-state' },
    msw: {
      handlers: api(mockEndpointError('/user/loginDiscord', 5007, 'The server saw the code')),
    },
  },
  play: async ({ canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    await expectNotice(
      canvasElement,
      'This Discord sign-in was not started here. Please use the Discord button again.',
    );
    await expect(location(app)).toBe('/favorite');
    await expect(app.services.store.getSnapshot().context.userInfo.uuid).toBeUndefined();
    // The tab's state is used up: replaying the right one later fails too.
    await expect(app.services.discordStates.take('tab-state')).toBe(false);
    await expect(
      within(canvasElement.ownerDocument.body).queryByText('The server saw the code'),
    ).toBeNull();
  },
};

/**
 * "Sign in", then the popup's Discord button: the app leaves for Discord's authorize page with
 * scope "identify email" and a fresh state that this tab keeps.
 */
export const SignInWithDiscord: Story = {
  parameters: { app: { path: '/' } },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await canvas.findByRole('button', { name: 'Sign in' }));
    await userEvent.click(await body.findByRole('button', { name: 'Discord' }));
    await waitFor(() => expect(app.redirects).toHaveLength(1));
    const url = new URL(app.redirects[0]!);
    await expect(url.origin + url.pathname).toBe('https://discord.com/oauth2/authorize');
    await expect(url.searchParams.get('scope')).toBe('identify email');
    await expect(url.searchParams.get('client_id')).toBe('1234567890');
    const state = url.searchParams.get('state')!;
    await expect(state).toMatch(/^[\w-]{43}$/);
    await expect(app.services.discordStates.take(state)).toBe(true);
  },
};

/** 5002: the user info is cleared and the popup opens in mode 2. */
export const SessionExpired: Story = {
  parameters: {
    app: { path: '/favorite', signedIn: true },
    msw: { handlers: api(mockEndpointError('/user/favorites', 5002, 'login expired')) },
  },
  play: async ({ canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const body = within(canvasElement.ownerDocument.body);
    await expect(await body.findByRole('dialog', { name: 'Sign in to Mates' })).toBeTruthy();
    await expect(app.services.store.getSnapshot().context.userInfo.uuid).toBeUndefined();
  },
};

/** 5007: a negative top notification with the server's message. */
export const ServerNotice: Story = {
  parameters: {
    app: { path: '/' },
    msw: {
      handlers: api(mockEndpointError('/mate/recommend', 5007, 'Too many requests, slow down')),
    },
  },
  play: async ({ canvasElement }) => {
    await expectNotice(canvasElement, 'Too many requests, slow down');
  },
};

/** 5007 without a message says "something error" (docs/product.md, errors). */
export const ServerNoticeWithoutMessage: Story = {
  parameters: {
    app: { path: '/' },
    msw: { handlers: api(mockEndpointError('/mate/recommend', 5007)) },
  },
  play: async ({ canvasElement }) => {
    await expectNotice(canvasElement, 'something error');
  },
};

/** Signing up from a gated page: the waiting page, then back where the visitor was. */
export const SignUpFromAGatedPage: Story = {
  parameters: {
    app: { path: '/favorite' },
    msw: {
      handlers: api(
        mockEndpoint('/user/verify/status', () => ({ verified: false, userInfo: null })),
      ),
    },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const body = within(canvasElement.ownerDocument.body);
    const main = within(await canvas.findByRole('main'));
    await userEvent.click(await main.findByRole('button', { name: 'Sign in' }));
    await userEvent.click(await body.findByRole('button', { name: 'Sign up' }));
    const dialog = within(await body.findByRole('dialog', { name: 'Create your account' }));
    await userEvent.type(dialog.getByLabelText('Email address'), 'nell@example.com');
    await userEvent.type(dialog.getByLabelText('Password'), 'lighthouse{Enter}');
    await waitFor(() =>
      expect(location(app)).toBe('/verify-email-address?redirect_url=%2Ffavorite'),
    );
    await expect(await canvas.findByText(/We sent a link to nell@example\.com/)).toBeVisible();
  },
};

/** Sign in and wait: while the call runs, the popup says "Please wait..." over its form. */
export const SignInAndWait: Story = {
  parameters: {
    app: { path: '/' },
    msw: { handlers: api(mockEndpointLoading('/user/login')) },
  },
  play: async ({ canvas, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await canvas.findByRole('button', { name: 'Sign in' }));
    const dialog = within(await body.findByRole('dialog', { name: 'Sign in to Mates' }));
    await userEvent.type(dialog.getByLabelText('Email address'), 'ada@example.com');
    await userEvent.type(dialog.getByLabelText('Password'), 'hunter22{Enter}');
    await expect(await dialog.findByRole('status')).toHaveTextContent('Please wait...');
  },
};

/** A sign-in the server refuses is only logged (docs/product.md, errors): the popup stays, as typed. */
export const SignInWithAWrongPassword: Story = {
  parameters: {
    app: { path: '/' },
    msw: {
      handlers: api(mockEndpointError('/user/login', 4001, 'Email or password is wrong')),
    },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await canvas.findByRole('button', { name: 'Sign in' }));
    const dialog = within(await body.findByRole('dialog', { name: 'Sign in to Mates' }));
    await userEvent.type(dialog.getByLabelText('Email address'), 'ada@example.com');
    await userEvent.type(dialog.getByLabelText('Password'), 'wrong{Enter}');
    await waitFor(() => expect(dialog.queryByRole('status')).toBeNull());
    await expect(dialog.getByLabelText('Email address')).toHaveValue('ada@example.com');
    await expect(body.queryByText('Email or password is wrong')).toBeNull();
    await expect(app.services.store.getSnapshot().context.userInfo.uuid).toBeUndefined();
  },
};

/** A sign-up the server refuses: a negative notification with its message (docs/product.md, errors). */
export const SignUpWithATakenAddress: Story = {
  parameters: {
    app: { path: '/' },
    msw: {
      handlers: api(
        mockEndpointError('/user/register', 4009, 'This address already has an account'),
      ),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await canvas.findByRole('button', { name: 'Sign in' }));
    await userEvent.click(await body.findByRole('button', { name: 'Sign up' }));
    const dialog = within(await body.findByRole('dialog', { name: 'Create your account' }));
    await userEvent.type(dialog.getByLabelText('Email address'), 'ada@example.com');
    await userEvent.type(dialog.getByLabelText('Password'), 'hunter22{Enter}');
    await expectNotice(canvasElement, 'This address already has an account');
  },
};

/** A password the server finds too easy: the reason under the field, without its key, no notice. */
export const SignUpWithAnEasyPassword: Story = {
  parameters: {
    app: { path: '/' },
    msw: {
      handlers: api(
        mockEndpointError(
          '/user/register',
          4000,
          'password: is too easy to guess (a common password, a pattern or your address); a few uncommon words make a strong one',
        ),
      ),
    },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await canvas.findByRole('button', { name: 'Sign in' }));
    await userEvent.click(await body.findByRole('button', { name: 'Sign up' }));
    const dialog = within(await body.findByRole('dialog', { name: 'Create your account' }));
    await userEvent.type(dialog.getByLabelText('Email address'), 'ada@example.com');
    await userEvent.type(dialog.getByLabelText('Password'), 'password123{Enter}');
    const password = dialog.getByLabelText('Password');
    await waitFor(() => expect(password).toHaveAttribute('aria-invalid', 'true'));
    await expect(password).toHaveAccessibleDescription(
      'is too easy to guess (a common password, a pattern or your address); a few uncommon words make a strong one',
    );
    const { app } = loaded as { app: StoryApp };
    await expect(app.services.notices.getSnapshot().context.notices).toEqual([]);
  },
};

/** A saved session shows its real balances in the header at once, not "0 chats". */
export const BalancesOfASavedSession: Story = {
  parameters: {
    app: { path: '/', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/user/benefits', () => ({ chats: 42, goldCoins: 7, userId: 'user-1' })),
      ),
    },
  },
  play: async ({ canvas }) => {
    const banner = await canvas.findByRole('banner');
    await waitFor(() => expect(banner).toHaveTextContent('42 chats'));
    await expect(banner).toHaveTextContent('7 gold coins');
  },
};

/** Signing in through the popup shows the person's balances in the header without a visit to /profile. */
export const BalancesAfterSigningIn: Story = {
  parameters: {
    app: { path: '/' },
    msw: {
      handlers: api(
        mockEndpoint('/user/benefits', () => ({ chats: 42, goldCoins: 7, userId: 'user-1' })),
      ),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await canvas.findByRole('button', { name: 'Sign in' }));
    const dialog = within(await body.findByRole('dialog', { name: 'Sign in to Mates' }));
    await userEvent.type(dialog.getByLabelText('Email address'), 'ada@example.com');
    await userEvent.type(dialog.getByLabelText('Password'), 'hunter22{Enter}');
    const banner = await canvas.findByRole('banner');
    await waitFor(() => expect(banner).toHaveTextContent('42 chats'));
    await expect(banner).toHaveTextContent('7 gold coins');
  },
};

/** A first visit speaks the browser's language when the app has it (here Spanish). */
export const FirstVisitInTheBrowsersLanguage: Story = {
  parameters: { app: { path: '/', firstVisit: { browserLanguages: ['es-MX', 'en'] } } },
  play: async ({ canvas, loaded }) => {
    const app = loaded.app as StoryApp;
    await expect(await canvas.findByRole('button', { name: 'Iniciar sesión' })).toBeVisible();
    await expect(app.services.store.getSnapshot().context.userInfo.language).toBe('es');
  },
};

/** A browser language the app does not have falls back to English. */
export const FirstVisitInAnotherLanguage: Story = {
  parameters: { app: { path: '/', firstVisit: { browserLanguages: ['ja-JP'] } } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('button', { name: 'Sign in' })).toBeVisible();
  },
};

/** Google is set up here but its script cannot load (offline, blocked): the popup says so. */
export const GoogleUnreachable: Story = {
  parameters: {
    app: { path: '/' },
    msw: {
      handlers: api(
        mockEndpoint('/extra/publicConfig', () =>
          createPublicConfigFixture({ googleClientId: 'mates-test.apps.googleusercontent.com' }),
        ),
      ),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await canvas.findByRole('button', { name: 'Sign in' }));
    const dialog = await body.findByRole('dialog', { name: 'Sign in to Mates' });
    const unavailable = await within(dialog).findByText(
      'Google sign-in is unavailable right now. Use your e-mail address, or try again later.',
      {},
      { timeout: 10_000 },
    );
    // Google's script can fail before the dialog has faded in (opacity 0 at first): visible once
    // it has.
    await waitFor(() => expect(unavailable).toBeVisible());
    // Discord's button carries its mark.
    const discord = within(dialog).getByRole('button', { name: 'Discord' });
    await expect(discord.querySelector('svg path')).not.toBeNull();
  },
};

/** By keyboard: the first Tab stop skips the header's links and puts the focus on the page. */
export const SkipToContent: Story = {
  parameters: { app: { path: '/', signedIn: true } },
  play: async ({ canvas }) => {
    await canvas.findByRole('banner');
    await userEvent.tab();
    const skip = canvas.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect(canvas.getByRole('main', { name: 'Main content' })).toHaveFocus();
  },
};
