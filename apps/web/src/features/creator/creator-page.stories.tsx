import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  createCreatorProfileFixture,
  createPageFixture,
  mockEndpoint,
  mockEndpointError,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import { api, failingLoad, screenStories } from '../../testing/story-app';

const meta = { title: 'Screens/Creator', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const PATH = '/creator?creatorId=creator-1';

/** Signed in, not following yet: the creator's figures, a "Follow" toggle and six public mates. */
export const NotFollowing: Story = {
  parameters: { app: { path: PATH, signedIn: true } },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Wren Calloway' }),
    ).toBeVisible();
    const figures = canvas.getByRole('region', { name: 'About Wren Calloway' });
    await expect(figures).toHaveTextContent('1280 followers · 12 public mates');
    await expect(figures).toHaveTextContent('Joined');
    await expect(
      canvas.getByText('I write characters who remember what you told them.'),
    ).toBeVisible();
    const follow = canvas.getByRole('button', { name: 'Follow' });
    await expect(follow).toHaveAttribute('aria-pressed', 'false');
    const mates = await canvas.findByRole('region', { name: 'Mates by Wren Calloway' });
    await waitFor(() => expect(within(mates).getAllByRole('article')).toHaveLength(6));
  },
};

/** Signed in and following: the toggle reads "Following" and is pressed. */
export const Following: Story = {
  parameters: {
    app: { path: PATH, signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/mate/creatorInfo', () =>
          createCreatorProfileFixture({ isFollowing: true, followers: 1281 }),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    const following = await canvas.findByRole('button', { name: 'Following' });
    await expect(following).toHaveAttribute('aria-pressed', 'true');
    await expect(canvas.getByText(/1281 followers/)).toBeVisible();
  },
};

// What the mocked server remembers during one story: whether Ada follows Wren.
const server = { following: false };

/** "Follow" follows, the count goes up; "Following" unfollows again. */
export const FollowAndUnfollow: Story = {
  loaders: [() => void (server.following = false)],
  parameters: {
    app: { path: PATH, signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/mate/followCreator', ({ query }) => {
          server.following = !server.following;
          return { creatorId: query.creatorId ?? '', following: server.following };
        }),
        mockEndpoint('/mate/creatorInfo', () =>
          createCreatorProfileFixture({
            isFollowing: server.following,
            followers: server.following ? 1281 : 1280,
          }),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Follow' }));
    const following = await canvas.findByRole('button', { name: 'Following' });
    await expect(following).toHaveAttribute('aria-pressed', 'true');
    await expect(canvas.getByText(/1281 followers/)).toBeVisible();
    await userEvent.click(following);
    await expect(await canvas.findByRole('button', { name: 'Follow' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    await expect(canvas.getByText(/1280 followers/)).toBeVisible();
    await expect(server.following).toBe(false);
  },
};

/** One's own page: no follow toggle, a way to "Your mates" instead. */
export const Own: Story = {
  parameters: {
    app: { path: '/creator?creatorId=user-1', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/mate/creatorInfo', () =>
          createCreatorProfileFixture({
            creatorId: 'user-1',
            name: 'Ada',
            avatar: null,
            bio: '',
            isSelf: true,
            followers: 3,
            mates: 6,
          }),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('heading', { level: 1, name: 'Ada' })).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'Your mates' })).toHaveAttribute(
      'href',
      '#/mine',
    );
    await expect(canvas.queryByRole('button', { name: /^Follow/ })).toBeNull();
    await expect(canvas.getByText('This is your page, as others see it.')).toBeVisible();
  },
};

/** A visitor sees the page and its mates; "Follow" asks them to sign in. */
export const Anonymous: Story = {
  parameters: { app: { path: PATH } },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Wren Calloway' }),
    ).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Follow' })).toBeVisible();
    await expect(
      await canvas.findByRole('region', { name: 'Mates by Wren Calloway' }),
    ).toBeVisible();
  },
};

/** A visitor presses "Follow": the sign-in popup opens, and nothing is followed. */
export const FollowAsksAVisitorToSignIn: Story = {
  parameters: { app: { path: PATH } },
  play: async ({ canvas, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await canvas.findByRole('button', { name: 'Follow' }));
    const dialog = await body.findByRole('dialog', { name: 'Sign in to Mates' });
    await waitFor(() => expect(dialog).toBeVisible());
  },
};

/** A creator with no public mates. */
export const NoMates: Story = {
  parameters: {
    app: { path: PATH, signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/mate/creatorInfo', () => createCreatorProfileFixture({ mates: 0 })),
        mockEndpoint('/mate/creatorMates', () => createPageFixture([])),
      ),
    },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No public mates yet')).toBeVisible();
    await expect(canvas.getByText('Wren Calloway has not published a mate yet.')).toBeVisible();
  },
};

/** The address names a creator the server does not know. */
export const UnknownCreator: Story = {
  parameters: {
    app: { path: '/creator?creatorId=nobody' },
    msw: {
      handlers: api(mockEndpointError('/mate/creatorInfo', 4004, 'There is no such creator')),
    },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('This creator does not exist')).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'Back to discover' })).toHaveAttribute(
      'href',
      '#/',
    );
  },
};

/** The address names no creator at all. */
export const NoCreatorChosen: Story = {
  parameters: { app: { path: '/creator' } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('This creator does not exist')).toBeVisible();
  },
};

export const Loading: Story = {
  parameters: {
    app: { path: PATH },
    msw: { handlers: api(mockEndpointLoading('/mate/creatorInfo')) },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('status', { name: 'Loading' })).toBeVisible();
  },
};

export const Error: Story = failingLoad(
  { path: PATH },
  '/mate/creatorInfo',
  'Creators are resting',
  'This creator could not be loaded',
);

/** The mates fail to load under a creator who loaded: the list says so and offers a retry. */
export const MatesError: Story = failingLoad(
  { path: PATH },
  '/mate/creatorMates',
  'Mates are resting',
);

/** On a small phone (320 × 568): the figures, the toggle and the cards fit. */
export const Phone: Story = {
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  parameters: { app: { path: PATH, signedIn: true } },
  play: async ({ canvas, canvasElement }) => {
    const view = canvasElement.ownerDocument.defaultView!;
    await expect(view.innerWidth).toBeLessThanOrEqual(320);
    const follow = await canvas.findByRole('button', { name: 'Follow' });
    await waitFor(() => expect(canvas.getAllByRole('article')).toHaveLength(6));
    await expect(canvasElement.ownerDocument.documentElement.scrollWidth).toBeLessThanOrEqual(
      view.innerWidth,
    );
    await expect(follow.getBoundingClientRect().right).toBeLessThanOrEqual(view.innerWidth);
    for (const card of canvas.getAllByRole('article')) {
      await expect(card.getBoundingClientRect().right).toBeLessThanOrEqual(view.innerWidth);
    }
  },
};
