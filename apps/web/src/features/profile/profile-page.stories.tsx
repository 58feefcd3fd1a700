import type { Meta, StoryObj } from '@storybook/react-vite';
import type {
  ForgotPasswordPayload,
  UpdateNicknamePayload,
  UpdateTagsPayload,
} from '@mates/api-client';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { http, HttpResponse } from 'msw';
import {
  createBenefitsFixture,
  createMateSummaryFixture,
  createPageFixture,
  createUserInfoFixture,
  DEFAULT_RESOLVERS,
  mockEndpoint,
  mockEndpointError,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import {
  api,
  expectNotice,
  screenStories,
  visitorAt,
  visitorClosesSignInAt,
  type StoryApp,
} from '../../testing/story-app';

const meta = { title: 'Screens/Profile', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

// The addresses reset links were asked for, in the story that asks.
const linksAskedFor: string[] = [];

export const Anonymous: Story = visitorAt('/profile');

/** "Sign in" opens the popup; closing it returns to discover. */
export const CloseSignInAndReturnHome: Story = visitorClosesSignInAt('/profile');

/** The account, fresh benefits (also in the header), places and settings. */
export const SignedIn: Story = {
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/user/benefits', () => createBenefitsFixture({ chats: 7, goldCoins: 3 })),
      ),
    },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('ada@example.com')).toBeVisible();
    await expect(await canvas.findByText(/7 chats · 3 gold coins/)).toBeVisible();
    const places = canvas.getByRole('navigation', { name: 'Your places' });
    await expect(within(places).getByRole('link', { name: 'Personas' })).toHaveAttribute(
      'href',
      '#/mine',
    );
    const account = within(canvas.getByRole('region', { name: 'Account' }));
    await expect(account.getByRole('link', { name: 'Your mates' })).toHaveAttribute(
      'href',
      '#/mine',
    );
    await expect(account.getByRole('link', { name: 'Create a mate' })).toHaveAttribute(
      'href',
      '#/generate',
    );
    // Only administrators are offered the moderation queue.
    await expect(canvas.queryByRole('link', { name: 'Moderation queue' })).toBeNull();
  },
};

/** An administrator's profile also leads to the moderation queue. */
export const Administrator: Story = {
  parameters: { app: { path: '/profile', admin: true } },
  play: async ({ canvas }) => {
    const account = within(await canvas.findByRole('region', { name: 'Account' }));
    await expect(account.getByRole('link', { name: 'Moderation queue' })).toHaveAttribute(
      'href',
      '#/moderation',
    );
  },
};

/** Changing the password: both fields first, then a confirmation. */
export const ChangeThePassword: Story = {
  parameters: { app: { path: '/profile', signedIn: true } },
  play: async ({ canvas, canvasElement }) => {
    const form = within(await canvas.findByRole('form', { name: 'Change password' }));
    await userEvent.click(form.getByRole('button', { name: 'Change password' }));
    await expect(await form.findByText('Fill in both passwords.')).toBeVisible();
    await userEvent.type(form.getByLabelText('Current password'), 'hunter22');
    await userEvent.type(form.getByLabelText('New password'), 'correct horse');
    await userEvent.click(form.getByRole('button', { name: 'Change password' }));
    await expectNotice(canvasElement, 'Your password is changed.');
    await expect(form.getByLabelText('New password')).toHaveValue('');
  },
};

/** The server refuses: its message shows, and nothing is lost from the form. */
/**
 * An account made with Google or Discord has no password, so none to give as the current one:
 * the card says so and mails the link that sets one to the account's address.
 */
export const SetAPasswordByMail: Story = {
  parameters: {
    app: { path: '/profile', signedIn: true, state: { userInfo: { hasPassword: false } } },
    msw: {
      handlers: api(
        mockEndpoint('/user/forgotPassword', ({ body }) => {
          linksAskedFor.push((body as ForgotPasswordPayload).email);
          return null;
        }),
      ),
    },
  },
  play: async ({ canvas }) => {
    linksAskedFor.length = 0;
    const form = within(await canvas.findByRole('form', { name: 'Set a password' }));
    await expect(form.queryByLabelText('Current password')).toBeNull();
    await expect(
      form.getByText(
        'You sign in with Google or Discord, so your account has no password yet. To set one, we mail a link to ada@example.com.',
      ),
    ).toBeVisible();
    const mail = form.getByRole('button', { name: 'Mail me the link' });
    await userEvent.click(mail);
    // Said politely where a screen reader hears it.
    const status = form.getByRole('status');
    await waitFor(() =>
      expect(status).toHaveTextContent(
        'The link is on its way to ada@example.com. It works once, for one hour.',
      ),
    );
    await expect(linksAskedFor).toEqual(['ada@example.com']);
    // The focus stays where it was, on the button pressed.
    await expect(mail).toHaveFocus();
  },
};

export const EnterAWrongCurrentPassword: Story = {
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: {
      handlers: api(
        mockEndpointError('/user/changePassword', 4001, 'The current password is wrong'),
      ),
    },
  },
  play: async ({ canvas }) => {
    const form = within(await canvas.findByRole('form', { name: 'Change password' }));
    await userEvent.type(form.getByLabelText('Current password'), 'hunter2');
    await userEvent.type(form.getByLabelText('New password'), 'correct horse');
    await userEvent.click(form.getByRole('button', { name: 'Change password' }));
    await expect(await form.findByText('The current password is wrong')).toBeVisible();
    await expect(form.getByLabelText('New password')).toHaveValue('correct horse');
  },
};

// What the mocked server was sent during one story: the nicknames asked for.
const nicknames: string[] = [];

/**
 * Choosing a name: an empty one is caught before anything is sent; a saved one, tidied by the
 * server, shows in the field and on the account at once.
 */
export const ChangeTheNickname: Story = {
  loaders: [() => void nicknames.splice(0)],
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: {
      handlers: api(
        // Recorded, then answered as by default (tidied as the server does).
        mockEndpoint('/user/updateNickname', (request) => {
          nicknames.push((request.body as UpdateNicknamePayload).nickname);
          return DEFAULT_RESOLVERS['/user/updateNickname'](request);
        }),
      ),
    },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const form = within(await canvas.findByRole('form', { name: 'Your name' }));
    const field = form.getByRole('textbox', { name: 'Nickname' });
    await expect(field).toHaveValue('Ada');
    await expect(field).toHaveAccessibleDescription(/Shown on the mates you publish/);
    await userEvent.clear(field);
    await userEvent.click(form.getByRole('button', { name: 'Save name' }));
    await expect(await form.findByText('Give yourself a name.')).toBeVisible();
    await expect(nicknames).toEqual([]);
    await userEvent.type(field, '  Ada   Lovelace ');
    await userEvent.click(form.getByRole('button', { name: 'Save name' }));
    await expectNotice(canvasElement, 'Your name is saved.');
    await expect(nicknames).toEqual(['  Ada   Lovelace ']);
    await expect(field).toHaveValue('Ada Lovelace');
    const account = within(canvas.getByRole('region', { name: 'Account' }));
    await expect(account.getByText('Ada Lovelace')).toBeVisible();
    await expect(app.services.store.getSnapshot().context.userInfo.nickname).toBe('Ada Lovelace');
  },
};

/**
 * A name kept from before nicknames were private (the address up to the "@") is not offered
 * again: the field starts empty, and says why.
 */
export const NicknameMadeFromTheAddress: Story = {
  parameters: {
    app: {
      path: '/profile',
      signedIn: true,
      state: { userInfo: { nickname: 'ada', email: 'ada@example.com', language: 'en' } },
    },
  },
  play: async ({ canvas }) => {
    const form = within(await canvas.findByRole('form', { name: 'Your name' }));
    const field = form.getByRole('textbox', { name: 'Nickname' });
    await expect(field).toHaveValue('');
    await expect(field).toHaveAccessibleDescription(/made from your e-mail address/);
  },
};

/** The server refuses a name: its message shows by the form, and what was typed stays. */
export const NicknameRefused: Story = {
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: {
      handlers: api(
        mockEndpointError(
          '/user/updateNickname',
          4000,
          'nickname: must not hold control or invisible characters',
        ),
      ),
    },
  },
  play: async ({ canvas, loaded }) => {
    const app = loaded.app as StoryApp;
    const form = within(await canvas.findByRole('form', { name: 'Your name' }));
    const field = form.getByRole('textbox', { name: 'Nickname' });
    await userEvent.clear(field);
    await userEvent.type(field, 'Ada Lovelace');
    await userEvent.click(form.getByRole('button', { name: 'Save name' }));
    await expect(
      await form.findByText('nickname: must not hold control or invisible characters'),
    ).toBeVisible();
    // Read with the field, after its hint.
    await expect(field).toHaveAccessibleDescription(
      /Shown on the mates you publish.*nickname: must not hold control or invisible characters/,
    );
    await expect(field).toHaveValue('Ada Lovelace');
    await expect(app.services.store.getSnapshot().context.userInfo.nickname).toBe('Ada');
  },
};

/** Logging out ends the session and returns to discover, signed out. */
export const LogOut: Story = {
  parameters: { app: { path: '/profile', signedIn: true } },
  play: async ({ canvas, loaded }) => {
    const app = loaded.app as StoryApp;
    await userEvent.click(await canvas.findByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/'));
    await expect(app.services.store.getSnapshot().context.userInfo.uuid).toBeUndefined();
    await expect(await canvas.findByRole('button', { name: 'Sign in' })).toBeVisible();
  },
};

// What the mocked server remembers during one story: whether mature mates are shown.
const mature = { shown: false };

/** Turning on mature mates shows them on discover at once, without a reload. */
export const MatureMatesShowAtOnce: Story = {
  loaders: [() => void (mature.shown = false)],
  parameters: {
    app: { path: '/', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/user/updateTags', ({ body }) => {
          mature.shown = (body as UpdateTagsPayload).nfsw ?? false;
          return createUserInfoFixture();
        }),
        mockEndpoint('/mate/recommend', () =>
          createPageFixture([
            createMateSummaryFixture({}, 0),
            ...(mature.shown
              ? [createMateSummaryFixture({ name: 'Velvet Nocturne', nsfw: true }, 1)]
              : []),
          ]),
        ),
      ),
    },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    await expect(await canvas.findAllByRole('article')).toHaveLength(1);
    await app.router.navigate('/profile');
    await userEvent.click(await canvas.findByRole('switch', { name: 'Show mature mates' }));
    // Asked once: are they an adult?
    const body = within(canvasElement.ownerDocument.body);
    const gate = await body.findByRole('dialog', { name: 'Are you 18 or older?' });
    await userEvent.click(within(gate).getByRole('button', { name: 'I am 18 or older' }));
    await waitFor(() => expect(mature.shown).toBe(true));
    await app.router.navigate('/');
    await expect(await canvas.findByText('Velvet Nocturne')).toBeVisible();
  },
};

/** Someone who does not confirm their age keeps mature mates off; nothing is sent. */
export const AgeGateDeclined: Story = {
  loaders: [() => void (mature.shown = false)],
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/user/updateTags', ({ body }) => {
          mature.shown = (body as UpdateTagsPayload).nfsw ?? false;
          return createUserInfoFixture();
        }),
      ),
    },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const body = within(canvasElement.ownerDocument.body);
    const mature18 = await canvas.findByRole('switch', { name: 'Show mature mates' });
    await userEvent.click(mature18);
    const gate = await body.findByRole('dialog', { name: 'Are you 18 or older?' });
    await userEvent.click(within(gate).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await expect(mature18).not.toBeChecked();
    await expect(mature.shown).toBe(false);
    await expect(app.services.store.getSnapshot().context.adultConfirmed).toBe(false);
  },
};

/** Once confirmed, the question is not asked again. */
export const AgeAskedOnlyOnce: Story = {
  parameters: { app: { path: '/profile', signedIn: true, state: { adultConfirmed: true } } },
  play: async ({ canvas, canvasElement }) => {
    await userEvent.click(await canvas.findByRole('switch', { name: 'Show mature mates' }));
    await expect(await canvas.findByRole('switch', { name: 'Show mature mates' })).toBeChecked();
    await expect(within(canvasElement.ownerDocument.body).queryByRole('dialog')).toBeNull();
  },
};

/** The theme follows the system until the person picks one; the choice is kept. */
export const ChooseATheme: Story = {
  parameters: { app: { path: '/profile', signedIn: true } },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const theme = await canvas.findByRole('combobox', { name: 'Theme' });
    await expect(theme).toHaveTextContent('As the system');
    await userEvent.click(theme);
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await body.findByRole('option', { name: 'Light' }));
    await waitFor(() => expect(app.services.store.getSnapshot().context.theme).toBe('light'));
    await expect(theme).toHaveTextContent('Light');
  },
};

/**
 * While a new name is saved, its button says so and the name stays as typed. (The
 * page itself does not load: it draws the signed-in person the app already holds.)
 */
export const SaveTheNicknameAndWait: Story = {
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: { handlers: api(mockEndpointLoading('/user/updateNickname')) },
  },
  play: async ({ canvas }) => {
    const form = within(await canvas.findByRole('form', { name: 'Your name' }));
    const field = form.getByRole('textbox', { name: 'Nickname' });
    await userEvent.clear(field);
    await userEvent.type(field, 'Ada Lovelace');
    await userEvent.click(form.getByRole('button', { name: 'Save name' }));
    await waitFor(() =>
      expect(form.getByRole('button', { name: 'Save name' })).toHaveAttribute('aria-busy', 'true'),
    );
    await expect(field).toHaveValue('Ada Lovelace');
  },
};

const BALANCES_STALE = 'Your balances could not be refreshed, so they may be out of date.';

/**
 * The balances could not be refreshed: the ones the app held before (12 chats, 40 gold coins)
 * stay, and the page says they may be out of date, why, and offers to try again.
 */
export const BalancesNotRefreshed: Story = {
  parameters: {
    app: {
      path: '/profile',
      signedIn: true,
      state: { userBenefits: { chats: 12, goldCoins: 40, userId: 'user-1' } },
    },
    msw: { handlers: api(mockEndpointError('/user/benefits', 5000, 'server error')) },
  },
  play: async ({ canvas }) => {
    const account = within(await canvas.findByRole('region', { name: 'Account' }));
    const alert = await account.findByRole('alert');
    await expect(alert).toHaveTextContent(BALANCES_STALE);
    await expect(alert).toHaveTextContent('server error');
    await expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled();
    await expect(account.getByText('What you have: 12 chats · 40 gold coins')).toBeVisible();
  },
};

// Whether the story's server fails to tell the balances (it is back once the story says so).
const benefitsServer = { down: true };

/** "Try again" after a failed refresh asks again: the fresh balances, and the warning gone. */
export const RefreshTheBalancesAgain: Story = {
  loaders: [() => void (benefitsServer.down = true)],
  parameters: {
    app: { path: '/profile', signedIn: true },
    msw: {
      handlers: api(
        http.get('*/api/user/benefits', () => {
          if (benefitsServer.down)
            return HttpResponse.json({ c: 5000, m: 'server error', d: null });
          return HttpResponse.json({
            c: 200,
            m: '',
            d: createBenefitsFixture({ chats: 7, goldCoins: 3 }),
          });
        }),
      ),
    },
  },
  play: async ({ canvas }) => {
    const account = within(await canvas.findByRole('region', { name: 'Account' }));
    const alert = await account.findByRole('alert');
    benefitsServer.down = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await expect(await account.findByText(/What you have: 7 chats · 3 gold coins/)).toBeVisible();
    await expect(account.queryByRole('alert')).toBeNull();
  },
};
