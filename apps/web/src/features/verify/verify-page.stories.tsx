import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { mockEndpoint, mockEndpointError } from '@mates/api-client/msw';
import { api, screenStories, type StoryApp } from '../../testing/story-app';

const meta = { title: 'Screens/Verify email', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const pending = { registerEmail: 'ada@example.com', verifyTicket: 'ticket-1' };
const path = '/verify-email-address?redirect_url=%2Ffavorite';

// The link is never opened while the story runs.
const waiting = api(
  mockEndpoint('/user/verify/status', () => ({ verified: false, userInfo: null })),
);

/** Waiting for the link: where it went, and a way to use another address. */
export const Anonymous: Story = {
  parameters: { app: { path, state: pending }, msw: { handlers: waiting } },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByText(
        'We sent a link to ada@example.com. Open it, and this page signs you in by itself.',
      ),
    ).toBeVisible();
    await expect(
      canvas.getByRole('status', { name: 'Waiting for the link to be opened' }),
    ).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Use another address' })).toBeVisible();
  },
};

/** "Use another address" reopens the sign-up popup. */
export const UseAnotherAddress: Story = {
  parameters: { app: { path, state: pending }, msw: { handlers: waiting } },
  play: async ({ canvas, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await canvas.findByRole('button', { name: 'Use another address' }));
    await expect(await body.findByRole('dialog', { name: 'Create your account' })).toBeTruthy();
  },
};

/** The link was opened: the page signs in and lands on redirect_url (docs/product.md, transitions). */
export const SignedIn: Story = {
  parameters: { app: { path, state: pending } },
  play: async ({ loaded }) => {
    const app = loaded.app as StoryApp;
    await waitFor(() => expect(app.reloads).toBe(1), { timeout: 4000 });
    await expect(app.services.store.getSnapshot().context.userInfo.uuid).toBe('user-1');
    await expect(window.location.hash).toBe('#/favorite');
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  },
};

/** Nobody signed up in this browser: nothing to wait for; sign up instead. */
export const Empty: Story = {
  parameters: { app: { path: '/verify-email-address' } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('Nothing to verify')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Sign up' })).toBeVisible();
  },
};

/** With nothing to verify, "Sign up" opens the sign-up popup. */
export const SignUpInstead: Story = {
  parameters: { app: { path: '/verify-email-address' } },
  play: async ({ canvas, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await expect(await canvas.findByText('Nothing to verify')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Sign up' }));
    await expect(await body.findByRole('dialog', { name: 'Create your account' })).toBeTruthy();
  },
};

export const Error: Story = {
  parameters: {
    app: { path, state: pending },
    msw: { handlers: api(mockEndpointError('/user/verify/status', 4001, 'Unknown ticket')) },
  },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByText('We could not check your address', {}, { timeout: 4000 }),
    ).toBeVisible();
  },
};
