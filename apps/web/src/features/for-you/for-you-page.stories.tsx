import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { mockEndpoint, mockEndpointLoading } from '@mates/api-client/msw';
import { api, failingLoad, screenStories } from '../../testing/story-app';

const meta = { title: 'Screens/For you', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** A visitor without tags: the trending ranking, and a way to choose tags. */
export const Anonymous: Story = {
  parameters: { app: { path: '/for-you' } },
  play: async ({ canvas }) => {
    const trending = await canvas.findByRole('region', { name: 'Trending this week' });
    await expect(await within(trending).findAllByRole('article')).toHaveLength(5);
    await expect(canvas.getByRole('link', { name: 'Choose tags' })).toHaveAttribute('href', '#/');
  },
};

/** Signed in with chosen tags: trending, then mates picked for those tags. */
export const SignedIn: Story = {
  parameters: { app: { path: '/for-you', signedIn: true, state: { selectedTags: ['fantasy'] } } },
  play: async ({ canvas }) => {
    const picked = await canvas.findByRole('region', { name: 'Picked for your tags' });
    await expect(await within(picked).findAllByRole('article')).toHaveLength(8);
  },
};

export const Loading: Story = {
  parameters: {
    app: { path: '/for-you' },
    msw: { handlers: api(mockEndpointLoading('/mate/trendingRank')) },
  },
  play: async ({ canvas }) => {
    const trending = await canvas.findByRole('region', { name: 'Trending this week' });
    await expect(trending).toHaveAttribute('aria-busy', 'true');
  },
};

export const Empty: Story = {
  parameters: {
    app: { path: '/for-you' },
    msw: { handlers: api(mockEndpoint('/mate/trendingRank', () => [])) },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('Nobody has chatted this week yet.')).toBeVisible();
  },
};

export const Error: Story = failingLoad(
  { path: '/for-you' },
  '/mate/trendingRank',
  'Ranking unavailable',
);
