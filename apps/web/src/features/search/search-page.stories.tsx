import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  createMateSummariesFixture,
  createPageFixture,
  mockEndpoint,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import { api, failingLoad, screenStories, type StoryApp } from '../../testing/story-app';

const meta = { title: 'Screens/Search', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** Before typing: popular searches and the trending ranking; no footer (docs/product.md, routes). */
export const Anonymous: Story = {
  parameters: { app: { path: '/search' } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('banner')).toBeVisible();
    await expect(canvas.queryByRole('contentinfo')).toBeNull();
    await expect(await canvas.findByRole('button', { name: 'vampire' })).toBeVisible();
    await expect(await canvas.findByText('Trending ranking')).toBeVisible();
  },
};

// The mocked search: one mate for "lyra", three for anything else.
const search = api(
  mockEndpoint('/mate/search', ({ query }) =>
    createPageFixture(createMateSummariesFixture(query.keyword === 'lyra' ? 1 : 3)),
  ),
);

/** Signed in, with a query in the address: its results, counted. */
export const SignedIn: Story = {
  parameters: { app: { path: '/search?q=lyra', signedIn: true }, msw: { handlers: search } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('searchbox', { name: 'Search mates' })).toHaveValue(
      'lyra',
    );
    await expect(await canvas.findAllByRole('article')).toHaveLength(1);
    await expect(canvas.getByText('1 mate found')).toBeVisible();
  },
};

/** From any page, words typed in the header's search box and Enter open their results. */
export const SearchFromTheHeader: Story = {
  parameters: { app: { path: '/favorite', signedIn: true }, msw: { handlers: search } },
  play: async ({ canvas }) => {
    const banner = await canvas.findByRole('banner');
    await userEvent.type(
      within(banner).getByRole('searchbox', { name: 'Search mates' }),
      'lyra{Enter}',
    );
    // The search page's own field takes the words; the header leaves its box out there.
    await expect(await canvas.findByRole('searchbox', { name: 'Search mates' })).toHaveValue(
      'lyra',
    );
    await waitFor(() => expect(within(banner).queryByRole('searchbox')).toBeNull());
    await waitFor(() => expect(canvas.getAllByRole('article')).toHaveLength(1));
    // Signed in, the header offers the person's places.
    await expect(within(banner).getByRole('link', { name: 'Recent chats' })).toHaveAttribute(
      'href',
      '#/recent-chats',
    );
  },
};

/** Results as you type, counted, a page at a time. */
export const TypeAQuery: Story = {
  parameters: { app: { path: '/search', signedIn: true }, msw: { handlers: search } },
  play: async ({ canvas }) => {
    await userEvent.type(await canvas.findByRole('searchbox', { name: 'Search mates' }), 'lyra');
    await waitFor(() => expect(canvas.getAllByRole('article')).toHaveLength(1));
    await expect(canvas.getByText('1 mate found')).toBeVisible();
  },
};

/**
 * The address changed while the page is open (a search link followed, Back, the address typed):
 * the field and the results follow it, and what the person types after still searches.
 */
export const FollowsTheAddress: Story = {
  parameters: { app: { path: '/search?q=elf', signedIn: true }, msw: { handlers: search } },
  play: async ({ canvas, loaded }) => {
    const app = loaded.app as StoryApp;
    const field = await canvas.findByRole('searchbox', { name: 'Search mates' });
    await waitFor(() => expect(canvas.getAllByRole('article')).toHaveLength(3));
    await app.router.navigate('/search?q=lyra');
    await waitFor(() => expect(field).toHaveValue('lyra'));
    await waitFor(() => expect(canvas.getAllByRole('article')).toHaveLength(1));
    await app.router.navigate('/search');
    await waitFor(() => expect(field).toHaveValue(''));
    await userEvent.type(field, 'mage');
    await waitFor(() => expect(canvas.getAllByRole('article')).toHaveLength(3));
    await expect(app.router.state.location.search).toBe('?q=mage');
  },
};

export const Loading: Story = {
  parameters: {
    app: { path: '/search?q=elf' },
    msw: { handlers: api(mockEndpointLoading('/mate/search')) },
  },
  play: async ({ canvas }) => {
    const results = await canvas.findByRole('region', { name: 'Results for “elf”' });
    await expect(results).toHaveAttribute('aria-busy', 'true');
  },
};

export const Empty: Story = {
  parameters: {
    app: { path: '/search?q=zzz' },
    msw: { handlers: api(mockEndpoint('/mate/search', () => createPageFixture([]))) },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No mate matches “zzz”')).toBeVisible();
  },
};

export const Error: Story = failingLoad(
  { path: '/search?q=elf' },
  '/mate/search',
  'Search is resting',
  'Search failed',
);
