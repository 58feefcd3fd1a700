import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { mockEndpoint, mockEndpointLoading } from '@mates/api-client/msw';
import {
  api,
  failingLoad,
  screenStories,
  visitorAt,
  visitorClosesSignInAt,
} from '../../testing/story-app';

const meta = { title: 'Screens/Following', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

export const Anonymous: Story = visitorAt('/follow-list');

/** "Sign in" opens the popup; closing it returns to discover. */
export const CloseSignInAndReturnHome: Story = visitorClosesSignInAt('/follow-list');

export const SignedIn: Story = {
  parameters: { app: { path: '/follow-list', signedIn: true } },
  play: async ({ canvas }) => {
    const list = await canvas.findByRole('list', { name: 'Creators you follow' });
    await expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    await expect(canvas.getByRole('button', { name: 'Unfollow Wren Calloway' })).toBeVisible();
    await expect(within(list).getByRole('link', { name: 'Wren Calloway' })).toHaveAttribute(
      'href',
      '#/creator?creatorId=creator-1',
    );
  },
};

export const Loading: Story = {
  parameters: {
    app: { path: '/follow-list', signedIn: true },
    msw: { handlers: api(mockEndpointLoading('/mate/followList')) },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('status', { name: 'Loading' })).toBeVisible();
  },
};

export const Empty: Story = {
  parameters: {
    app: { path: '/follow-list', signedIn: true },
    msw: { handlers: api(mockEndpoint('/mate/followList', () => [])) },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('You follow no creators yet')).toBeVisible();
  },
};

export const Error: Story = failingLoad(
  { path: '/follow-list', signedIn: true },
  '/mate/followList',
  'Follows are resting',
);
