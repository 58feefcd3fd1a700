import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import type { ForgotPasswordPayload, ResetPasswordPayload } from '@mates/api-client';
import { mockEndpoint, mockEndpointError, mockEndpointLoading } from '@mates/api-client/msw';
import { api, expectChrome, screenStories, type StoryApp } from '../../testing/story-app';

const meta = { title: 'Screens/Reset password', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

// What the mocked server was asked during one story.
const asked = { links: [] as string[], resets: [] as ResetPasswordPayload[] };

/** From the sign-in popup's "Forgot your password?" to the page that asks for the address. */
export const FromTheSignInPopup: Story = {
  parameters: { app: { path: '/' } },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await canvas.findByRole('button', { name: 'Sign in' }));
    const dialog = await body.findByRole('dialog', { name: 'Sign in to Mates' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Forgot your password?' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/reset-password'));
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Reset your password' }),
    ).toBeVisible();
    await expectChrome(canvasElement, app);
  },
};

/** The address is sent; the page says where to look, without telling whether it has an account. */
export const AskForALink: Story = {
  loaders: [() => void (asked.links = [])],
  parameters: {
    app: { path: '/reset-password' },
    msw: {
      handlers: api(
        mockEndpoint('/user/forgotPassword', ({ body }) => {
          asked.links.push((body as ForgotPasswordPayload).email);
          return null;
        }),
      ),
    },
  },
  play: async ({ canvas }) => {
    const field = await canvas.findByRole('textbox', { name: 'Email address' });
    await userEvent.type(field, 'not an address');
    await userEvent.click(canvas.getByRole('button', { name: 'Send the link' }));
    await expect(field).toHaveAccessibleDescription(
      'Give an e-mail address, such as ada@example.com.',
    );
    await expect(asked.links).toEqual([]);
    await userEvent.clear(field);
    await userEvent.type(field, 'ada@example.com{Enter}');
    await expect(await canvas.findByText('Check your mail')).toBeVisible();
    await expect(canvas.getByText(/If an account uses ada@example\.com/)).toBeVisible();
    await expect(asked.links).toEqual(['ada@example.com']);
  },
};

/** The mailed link: a new password, then signing in with it. */
export const ChooseANewPassword: Story = {
  loaders: [() => void (asked.resets = [])],
  parameters: {
    app: { path: '/reset-password?token=reset-token-1' },
    msw: {
      handlers: api(
        mockEndpoint('/user/resetPassword', ({ body }) => {
          asked.resets.push(body as ResetPasswordPayload);
          return null;
        }),
      ),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.type(
      await canvas.findByLabelText('New password'),
      'a brand new lantern{Enter}',
    );
    await expect(await canvas.findByText('Your password is changed')).toBeVisible();
    await expect(asked.resets).toEqual([
      { token: 'reset-token-1', password: 'a brand new lantern' },
    ]);
    // Signed out everywhere: the header offers "Sign in" too; this is the page's own.
    await userEvent.click(
      within(canvas.getByRole('main')).getByRole('button', { name: 'Sign in' }),
    );
    const dialog = await body.findByRole('dialog', { name: 'Sign in to Mates' });
    await waitFor(() => expect(dialog).toBeVisible());
  },
};

/** A weak password is refused beside the field; what was typed stays. */
export const WeakPassword: Story = {
  parameters: {
    app: { path: '/reset-password?token=reset-token-1' },
    msw: {
      handlers: api(
        mockEndpointError(
          '/user/resetPassword',
          4000,
          'password: is too easy to guess: add another word or two',
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    const field = await canvas.findByLabelText('New password');
    await userEvent.type(field, 'password1{Enter}');
    await waitFor(() =>
      expect(field).toHaveAccessibleDescription(
        'password: is too easy to guess: add another word or two',
      ),
    );
    await expect(field).toHaveValue('password1');
  },
};

/** While the link is being sent, the button says so and cannot send it twice. */
export const SendTheLinkAndWait: Story = {
  parameters: {
    app: { path: '/reset-password' },
    msw: { handlers: api(mockEndpointLoading('/user/forgotPassword')) },
  },
  play: async ({ canvas }) => {
    const form = within(await canvas.findByRole('form', { name: 'Reset your password' }));
    await userEvent.type(form.getByRole('textbox', { name: 'Email address' }), 'ada@example.com');
    await userEvent.click(form.getByRole('button', { name: 'Send the link' }));
    const button = form.getByRole('button', { name: 'Send the link' });
    await waitFor(() => expect(button).toHaveAttribute('aria-busy', 'true'));
    await expect(button).toBeDisabled();
  },
};

/** Too many links asked for (4003): the reason shows beside the address, which stays as typed. */
export const SendTheLinkAndFail: Story = {
  parameters: {
    app: { path: '/reset-password' },
    msw: {
      handlers: api(
        mockEndpointError(
          '/user/forgotPassword',
          4003,
          'Too many attempts. Please try again in 42 minutes.',
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    const field = await canvas.findByRole('textbox', { name: 'Email address' });
    await userEvent.type(field, 'ada@example.com{Enter}');
    await waitFor(() =>
      expect(field).toHaveAccessibleDescription(
        'Too many attempts. Please try again in 42 minutes.',
      ),
    );
    await expect(field).toHaveValue('ada@example.com');
    await expect(canvas.queryByText('Check your mail')).toBeNull();
    await expect(canvas.getByRole('button', { name: 'Send the link' })).toBeEnabled();
  },
};

/** While the new password is saved, the button says so and cannot save it twice. */
export const SaveTheNewPasswordAndWait: Story = {
  parameters: {
    app: { path: '/reset-password?token=reset-token-1' },
    msw: { handlers: api(mockEndpointLoading('/user/resetPassword')) },
  },
  play: async ({ canvas }) => {
    await userEvent.type(
      await canvas.findByLabelText('New password'),
      'a brand new lantern{Enter}',
    );
    const button = canvas.getByRole('button', { name: 'Set the new password' });
    await waitFor(() => expect(button).toHaveAttribute('aria-busy', 'true'));
    await expect(button).toBeDisabled();
  },
};

const EXPIRED_LINK = {
  app: { path: '/reset-password?token=reset-token-old' },
  msw: {
    handlers: api(
      mockEndpointError(
        '/user/resetPassword',
        5007,
        'This reset link has expired or was already used. Ask for a new one.',
      ),
    ),
  },
};

/**
 * A used or expired link (5007): the server's sentence says to ask for a new one, and the page
 * offers the ways on: a new link, or signing in.
 */
export const UseAnExpiredLink: Story = {
  parameters: EXPIRED_LINK,
  play: async ({ canvas }) => {
    const field = await canvas.findByLabelText('New password');
    await userEvent.type(field, 'a brand new lantern{Enter}');
    await waitFor(() =>
      expect(field).toHaveAccessibleDescription(
        'This reset link has expired or was already used. Ask for a new one.',
      ),
    );
    await expect(canvas.queryByText('Your password is changed')).toBeNull();
    const form = within(canvas.getByRole('form', { name: 'Reset your password' }));
    await expect(form.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute(
      'href',
      '#/reset-password',
    );
    await expect(form.getByRole('button', { name: 'Sign in' })).toBeVisible();
  },
};

/** From an expired link, "Ask for a new link" leads to the form that mails one. */
export const AskForANewLinkAfterAnExpiredOne: Story = {
  parameters: EXPIRED_LINK,
  play: async ({ canvas, loaded }) => {
    const app = loaded.app as StoryApp;
    await userEvent.type(
      await canvas.findByLabelText('New password'),
      'a brand new lantern{Enter}',
    );
    await userEvent.click(await canvas.findByRole('link', { name: 'Ask for a new link' }));
    await waitFor(() => expect(app.router.state.location.search).toBe(''));
    await expect(await canvas.findByRole('textbox', { name: 'Email address' })).toHaveValue('');
    await expect(canvas.getByRole('button', { name: 'Send the link' })).toBeEnabled();
  },
};

/** From an expired link, "Sign in" opens the sign-in popup (the old password may still work). */
export const SignInAfterAnExpiredLink: Story = {
  parameters: EXPIRED_LINK,
  play: async ({ canvas, canvasElement }) => {
    await userEvent.type(
      await canvas.findByLabelText('New password'),
      'a brand new lantern{Enter}',
    );
    const form = within(canvas.getByRole('form', { name: 'Reset your password' }));
    await userEvent.click(await form.findByRole('button', { name: 'Sign in' }));
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('dialog', { name: 'Sign in to Mates' });
    await waitFor(() => expect(dialog).toBeVisible());
  },
};
