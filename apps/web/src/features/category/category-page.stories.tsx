import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  createMateSummariesFixture,
  createPageFixture,
  mockEndpoint,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import { api, failingLoad, screenStories, type StoryApp } from '../../testing/story-app';

const meta = { title: 'Screens/Category', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

// The mocked catalog: three mates tagged romance, eight for any other tag.
const recommend = api(
  mockEndpoint('/mate/recommend', ({ query }) =>
    createPageFixture(createMateSummariesFixture(query.tags === 'romance' ? 3 : 8)),
  ),
);

/** Every tag group; the first tag is chosen, with its mates. */
export const Anonymous: Story = {
  parameters: { app: { path: '/category' }, msw: { handlers: recommend } },
  play: async ({ canvas }) => {
    const groups = await canvas.findByRole('navigation', { name: 'Tag groups' });
    await expect(await canvas.findAllByRole('article')).toHaveLength(8);
    const [firstGroup] = within(groups).getAllByRole('group');
    const chips = within(firstGroup!).getAllByRole('button');
    await expect(chips[0]).toHaveAttribute('aria-pressed', 'true');
  },
};

/** Choosing another tag shows its mates and keeps it in the address. */
export const ChooseATag: Story = {
  parameters: { app: { path: '/category' }, msw: { handlers: recommend } },
  play: async ({ canvas, loaded }) => {
    const app = loaded.app as StoryApp;
    const groups = await canvas.findByRole('navigation', { name: 'Tag groups' });
    await expect(await canvas.findAllByRole('article')).toHaveLength(8);
    const [firstGroup] = within(groups).getAllByRole('group');
    const chips = within(firstGroup!).getAllByRole('button');
    await expect(chips[0]).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(within(groups).getByRole('button', { name: 'Romance' }));
    await waitFor(() => expect(canvas.getAllByRole('article')).toHaveLength(3));
    await expect(app.router.state.location.search).toBe('?tag=romance');
  },
};

export const SignedIn: Story = {
  parameters: { app: { path: '/category?tag=fantasy', signedIn: true } },
  play: async ({ canvas }) => {
    await expect(await canvas.findAllByRole('article')).toHaveLength(8);
    await expect(canvas.getByRole('region', { name: 'Mates tagged Fantasy' })).toBeVisible();
  },
};

export const Loading: Story = {
  parameters: {
    app: { path: '/category' },
    msw: { handlers: api(mockEndpointLoading('/extra/tagsMap')) },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('status', { name: 'Loading' })).toBeVisible();
  },
};

export const Empty: Story = {
  parameters: {
    app: { path: '/category?tag=fantasy' },
    msw: { handlers: api(mockEndpoint('/mate/recommend', () => createPageFixture([]))) },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No mates carry this tag yet')).toBeVisible();
  },
};

export const Error: Story = failingLoad(
  { path: '/category' },
  '/extra/tagsMap',
  'Tags are resting',
);
