import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { mockEndpointError, mockEndpointLoading } from '@mates/api-client/msw';
import { api, screenStories } from '../../testing/story-app';

const meta = { title: 'Screens/Support', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** Anyone may write: a category, the message, where to answer (optional), and Send. */
export const Anonymous: Story = {
  parameters: { app: { path: '/support' } },
  play: async ({ canvas }) => {
    const form = within(await canvas.findByRole('form', { name: 'Support' }));
    await expect(form.getByLabelText('Your message')).toHaveValue('');
    await expect(form.getByLabelText('Where can we answer? (optional)')).toHaveValue('');
    await expect(form.getByRole('button', { name: 'Send' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Sign in' })).toBeVisible();
  },
};

/** The same form for a signed-in user. */
export const SignedIn: Story = {
  parameters: { app: { path: '/support', signedIn: true } },
  play: async ({ canvas }) => {
    const form = within(await canvas.findByRole('form', { name: 'Support' }));
    await expect(form.getByLabelText('Your message')).toHaveValue('');
    await expect(form.getByRole('button', { name: 'Send' })).toBeVisible();
    await expect(canvas.queryByRole('button', { name: 'Sign in' })).toBeNull();
  },
};

/** An empty message is caught before sending; a written one is sent and the box empties. */
export const SendAMessage: Story = {
  parameters: { app: { path: '/support' } },
  play: async ({ canvas }) => {
    const form = within(await canvas.findByRole('form', { name: 'Support' }));
    await userEvent.click(form.getByRole('button', { name: 'Send' }));
    await expect(await form.findByText('Write a few words first.')).toBeVisible();
    await userEvent.type(form.getByLabelText('Your message'), 'The heart button does nothing.');
    await userEvent.click(form.getByRole('button', { name: 'Send' }));
    await expect(await form.findByText('Thank you — your message reached us.')).toBeVisible();
    await expect(form.getByLabelText('Your message')).toHaveValue('');
  },
};

/** Signed in, with an address to answer at. */
export const SendWithAnAddressToAnswerAt: Story = {
  parameters: { app: { path: '/support', signedIn: true } },
  play: async ({ canvas }) => {
    const form = within(await canvas.findByRole('form', { name: 'Support' }));
    await userEvent.type(form.getByLabelText('Your message'), 'More mates who like chess.');
    await userEvent.type(form.getByLabelText('Where can we answer? (optional)'), 'ada@example.com');
    await userEvent.click(form.getByRole('button', { name: 'Send' }));
    await expect(await form.findByText('Thank you — your message reached us.')).toBeVisible();
  },
};

/** While the message is on its way, the button says it is busy. */
export const SendAndWait: Story = {
  parameters: {
    app: { path: '/support' },
    msw: { handlers: api(mockEndpointLoading('/user/feedback')) },
  },
  play: async ({ canvas }) => {
    const form = within(await canvas.findByRole('form', { name: 'Support' }));
    await userEvent.type(form.getByLabelText('Your message'), 'Hello');
    await userEvent.click(form.getByRole('button', { name: 'Send' }));
    await expect(form.getByRole('button', { name: 'Send' })).toHaveAttribute('aria-busy', 'true');
  },
};

/** The server refuses: its reason shows by the message, which stays as typed. */
export const SendARefusedMessage: Story = {
  parameters: {
    app: { path: '/support' },
    msw: { handlers: api(mockEndpointError('/user/feedback', 4001, 'That message is too long')) },
  },
  play: async ({ canvas }) => {
    const form = within(await canvas.findByRole('form', { name: 'Support' }));
    await userEvent.type(form.getByLabelText('Your message'), 'Hello');
    await userEvent.click(form.getByRole('button', { name: 'Send' }));
    await expect(await form.findByText('That message is too long')).toBeVisible();
    await expect(form.getByLabelText('Your message')).toHaveValue('Hello');
  },
};
