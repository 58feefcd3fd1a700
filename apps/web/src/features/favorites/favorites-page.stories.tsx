import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import {
  createMateSummariesFixture,
  mockEndpoint,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import {
  api,
  failingLoad,
  screenStories,
  visitorAt,
  visitorClosesSignInAt,
} from '../../testing/story-app';

const meta = { title: 'Screens/Favorites', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

export const Anonymous: Story = visitorAt('/favorite');

/** "Sign in" opens the popup; closing it returns to discover. */
export const CloseSignInAndReturnHome: Story = visitorClosesSignInAt('/favorite');

// What the mocked server remembers during one story: the favorites.
const server = { favorites: createMateSummariesFixture(3) };

/** The favorites, each with its heart pressed. */
export const SignedIn: Story = {
  parameters: { app: { path: '/favorite', signedIn: true } },
  play: async ({ canvas }) => {
    await expect(await canvas.findAllByRole('article')).toHaveLength(3);
    const hearts = canvas.getAllByRole('button', { name: 'Favorite' });
    await expect(hearts).toHaveLength(3);
    for (const heart of hearts) {
      await expect(heart).toHaveAttribute('aria-pressed', 'true');
    }
  },
};

/** Pressing a heart removes that mate from the favorites. */
export const RemoveAFavorite: Story = {
  loaders: [() => void (server.favorites = createMateSummariesFixture(3))],
  parameters: {
    app: { path: '/favorite', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/user/favorites', () => server.favorites),
        mockEndpoint('/user/doFavorite', ({ query }) => {
          server.favorites = server.favorites.filter((mate) => mate.mateId !== query.mateId);
          return { mateId: query.mateId ?? '', favorite: false };
        }),
      ),
    },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findAllByRole('article')).toHaveLength(3);
    const [heart] = canvas.getAllByRole('button', { name: 'Favorite' });
    await expect(heart).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(heart!);
    await waitFor(() => expect(canvas.getAllByRole('article')).toHaveLength(2));
  },
};

export const Loading: Story = {
  parameters: {
    app: { path: '/favorite', signedIn: true },
    msw: { handlers: api(mockEndpointLoading('/user/favorites')) },
  },
  play: async ({ canvas }) => {
    const list = await canvas.findByRole('region', { name: 'Your favorite mates' });
    await expect(list).toHaveAttribute('aria-busy', 'true');
  },
};

export const Empty: Story = {
  parameters: {
    app: { path: '/favorite', signedIn: true },
    msw: { handlers: api(mockEndpoint('/user/favorites', () => [])) },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No favorites yet')).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'Back to discover' })).toBeVisible();
  },
};

export const Error: Story = failingLoad(
  { path: '/favorite', signedIn: true },
  '/user/favorites',
  'Favorites are resting',
);
