import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import type { Review, ReviewPayload } from '@mates/api-client';
import {
  createMateExtraInfoFixture,
  createMateFixture,
  createReviewFixture,
  mockEndpoint,
  mockEndpointError,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import {
  api,
  expectNotice,
  failingLoad,
  missingLoad,
  screenStories,
  type StoryApp,
} from '../../testing/story-app';

const meta = { title: 'Screens/Detail', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** A visitor sees the whole card: name, greeting, creator. */
export const Anonymous: Story = {
  parameters: { app: { path: '/detail?mateId=mate-1' } },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Lyra Moonwhisper' }),
    ).toBeVisible();
    await expect(canvas.getByRole('heading', { name: 'Greeting' })).toBeVisible();
    await expect(await canvas.findByRole('link', { name: "Wren Calloway's page" })).toHaveAttribute(
      'href',
      '#/creator?creatorId=creator-1',
    );
    // Only the mate's creator sees its visibility and the editor.
    await expect(canvas.queryByRole('region', { name: 'Your mate' })).toBeNull();
  },
};

/** In French, a label and its value are written as French writes them: a space before the colon. */
export const InFrench: Story = {
  parameters: { app: { path: '/detail?mateId=mate-1', language: 'fr' } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText(/^Scénario : You meet Lyra/)).toBeVisible();
  },
};

// Ada's own mate, as the server answers its creator.
const ADA = { creatorId: 'user-1', name: 'Ada', avatar: null };

/** The creator on their own mate: its visibility, "Edit", and no follow button for oneself. */
export const OwnMate: Story = {
  parameters: {
    app: { path: '/detail?mateId=mate-1', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/mate/getMateDetail', () =>
          createMateFixture({ creator: ADA, visibility: 'private' }),
        ),
        mockEndpoint('/mate/mateExtraInfo', () =>
          createMateExtraInfoFixture({
            creator: { ...ADA, bio: '', followers: 0, mates: 0 },
          }),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    const own = within(await canvas.findByRole('region', { name: 'Your mate' }));
    await expect(own.getByText('Visibility: Private')).toBeVisible();
    await expect(own.getByText('Only you can see it and chat with it.')).toBeVisible();
    await expect(own.getByRole('link', { name: 'Edit Lyra Moonwhisper' })).toHaveAttribute(
      'href',
      '#/generate?mateId=mate-1',
    );
    await expect(await canvas.findByRole('link', { name: "Ada's page" })).toBeVisible();
    await expect(canvas.queryByRole('button', { name: 'Follow Ada' })).toBeNull();
    await expect(canvas.queryByRole('region', { name: /Moderators hid/ })).toBeNull();
  },
};

/**
 * `{{user}}` in third-person card text reads as the reader's name ("Ada is stranded"), never
 * as "You is stranded"; a visitor, whose name is not known, reads as "User".
 */
export const ReaderNameInCardText: Story = {
  parameters: {
    app: { path: '/detail?mateId=mate-1', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/mate/getMateDetail', () =>
          createMateFixture({
            description: '{{char}} has asked {{user}} to look at a crime scene.',
            scenario: '{{user}} is stranded on the island.',
          }),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByText('Lyra Moonwhisper has asked Ada to look at a crime scene.'),
    ).toBeVisible();
    await expect(canvas.getByText(/Ada is stranded on the island\./)).toBeVisible();
    await expect(canvas.queryByText(/You (is|has)/)).toBeNull();
  },
};

export const ReaderNameForAVisitor: Story = {
  parameters: {
    app: { path: '/detail?mateId=mate-1' },
    msw: {
      handlers: api(
        mockEndpoint('/mate/getMateDetail', () =>
          createMateFixture({ scenario: '{{user}} is stranded on the island.' }),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText(/User is stranded on the island\./)).toBeVisible();
  },
};

/** The creator of a hidden mate is told why, what it means, and what to do. */
export const HiddenMateNotice: Story = {
  parameters: {
    app: { path: '/detail?mateId=mate-1', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/mate/getMateDetail', () =>
          createMateFixture({
            creator: ADA,
            moderation: {
              reason: 'underage',
              note: 'The description gives her age as fifteen.',
              hiddenAt: '2026-11-21T10:00:00.000Z',
            },
          }),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    const notice = within(
      await canvas.findByRole('region', {
        name: 'Moderators hid this mate: Presents or involves a minor',
      }),
    );
    await expect(
      notice.getByText('Their note to you: The description gives her age as fifteen.'),
    ).toBeVisible();
    await expect(notice.getByText(/Others cannot find or open it/)).toBeVisible();
    await expect(notice.getByRole('link', { name: 'Edit' })).toHaveAttribute(
      'href',
      '#/generate?mateId=mate-1',
    );
    await expect(notice.getByRole('link', { name: 'Contact support' })).toHaveAttribute(
      'href',
      '#/support',
    );
    await expect(canvas.getByRole('region', { name: 'Your mate' })).toHaveTextContent(
      'Visibility: Public',
    );
  },
};

/** A visitor presses "Chat": the sign-in popup asks them to sign in first. */
export const ChatAsksAVisitorToSignIn: Story = {
  parameters: { app: { path: '/detail?mateId=mate-1' } },
  play: async ({ canvas, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(
      await canvas.findByRole('button', { name: 'Chat with Lyra Moonwhisper' }),
    );
    const dialog = await body.findByRole('dialog', { name: 'Sign in to Mates' });
    await waitFor(() => expect(dialog).toBeVisible());
  },
};

// What the mocked server remembers during one story: whom the user follows.
const server = { following: false };

/** Signed in: the creator can be followed, and "Chat" starts a conversation. */
export const SignedIn: Story = {
  parameters: { app: { path: '/detail?mateId=mate-1', signedIn: true } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('button', { name: 'Follow Wren Calloway' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Chat with Lyra Moonwhisper' })).toBeVisible();
  },
};

/** Follow the creator, then "Chat" creates a room and opens it. */
export const FollowTheCreatorAndStartAChat: Story = {
  loaders: [() => void (server.following = false)],
  parameters: {
    app: { path: '/detail?mateId=mate-1', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/mate/followCreator', ({ query }) => {
          server.following = !server.following;
          return { creatorId: query.creatorId ?? '', following: server.following };
        }),
        mockEndpoint('/mate/mateExtraInfo', () =>
          createMateExtraInfoFixture({ isFollowingCreator: server.following }),
        ),
        mockEndpoint('/room/createRoom', () => ({
          roomId: 'room-7',
          mateId: 'mate-1',
          personaId: null,
          createdAt: '2026-11-01T09:00:00.000Z',
          updatedAt: '2026-11-01T09:00:00.000Z',
        })),
      ),
    },
  },
  play: async ({ canvas, loaded }) => {
    const app = loaded.app as StoryApp;
    await userEvent.click(await canvas.findByRole('button', { name: 'Follow Wren Calloway' }));
    await expect(
      await canvas.findByRole('button', { name: 'Unfollow Wren Calloway' }),
    ).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Chat with Lyra Moonwhisper' }));
    await waitFor(() =>
      expect(app.router.state.location.pathname + app.router.state.location.search).toBe(
        '/chat-detail?roomId=room-7',
      ),
    );
  },
};

/** Reporting a mate: a reason, optional details, a thank-you. */
export const SendAReport: Story = {
  parameters: { app: { path: '/detail?mateId=mate-1' } },
  play: async ({ canvas, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await canvas.findByRole('button', { name: 'Report' }));
    const dialog = within(await body.findByRole('dialog', { name: 'Report Lyra Moonwhisper' }));
    await userEvent.type(dialog.getByLabelText('Details (optional)'), 'Her greeting is empty.');
    await userEvent.click(dialog.getByRole('button', { name: 'Send report' }));
    await expectNotice(canvasElement, 'Thank you — we will look at this mate.');
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
  },
};

/** The server refuses a report: the dialog stays open with the reason and keeps the text. */
export const SendARefusedReport: Story = {
  parameters: {
    app: { path: '/detail?mateId=mate-1' },
    msw: { handlers: api(mockEndpointError('/mate/feedback', 4001, 'Details are too long')) },
  },
  play: async ({ canvas, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await canvas.findByRole('button', { name: 'Report' }));
    const dialog = within(await body.findByRole('dialog', { name: 'Report Lyra Moonwhisper' }));
    await userEvent.type(dialog.getByLabelText('Details (optional)'), 'Too long.');
    await userEvent.click(dialog.getByRole('button', { name: 'Send report' }));
    await expect(await dialog.findByText('Details are too long')).toBeVisible();
    await expect(dialog.getByLabelText('Details (optional)')).toHaveValue('Too long.');
  },
};

export const Loading: Story = {
  parameters: {
    app: { path: '/detail?mateId=mate-1' },
    msw: { handlers: api(mockEndpointLoading('/mate/getMateDetail')) },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('status', { name: 'Loading' })).toBeVisible();
  },
};

/** No reviews yet. */
export const NoReviews: Story = {
  parameters: {
    app: { path: '/detail?mateId=mate-1' },
    msw: {
      handlers: api(
        mockEndpoint('/mate/mateExtraInfo', () =>
          createMateExtraInfoFixture({
            reviewSummary: { average: 0, count: 0, distribution: [0, 0, 0, 0, 0] },
            recentReviews: [],
          }),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No reviews yet.')).toBeVisible();
  },
};

// The review the story's server keeps for Ada, once she posted one.
let adaReview: Review | null = null;
const reviewServer = [
  mockEndpoint('/mate/review', ({ body }) => {
    const { rating, content = '' } = body as ReviewPayload;
    adaReview = createReviewFixture({
      reviewId: 'review-ada',
      author: { creatorId: 'user-1', name: 'Ada', avatar: null },
      rating,
      content,
    });
    return adaReview;
  }),
  mockEndpoint('/mate/mateExtraInfo', () =>
    createMateExtraInfoFixture({
      reviewSummary: adaReview
        ? { average: adaReview.rating, count: 1, distribution: [0, 0, 0, 1, 0] }
        : { average: 0, count: 0, distribution: [0, 0, 0, 0, 0] },
      recentReviews: adaReview ? [adaReview] : [],
    }),
  ),
];

/** Posting a review: the form then says a review exists and keeps it, to change it. */
export const PostAReview: Story = {
  loaders: [() => void (adaReview = null)],
  parameters: {
    app: { path: '/detail?mateId=mate-1', signedIn: true },
    msw: { handlers: api(...reviewServer) },
  },
  play: async ({ canvas }) => {
    const form = within(await canvas.findByRole('form', { name: 'Your review' }));
    await userEvent.click(form.getByRole('button', { name: '4 stars' }));
    await userEvent.type(form.getByRole('textbox'), 'Kind and curious.');
    await userEvent.click(form.getByRole('button', { name: 'Post review' }));
    await expect(
      await form.findByText('You reviewed this mate. Change your review here.'),
    ).toBeVisible();
    await expect(form.getByRole('button', { name: '4 stars' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(form.getByRole('textbox')).toHaveValue('Kind and curious.');
    await expect(form.getByRole('button', { name: 'Update review' })).toBeVisible();
  },
};

/** The address names no mate. */
export const NoMateChosen: Story = {
  parameters: { app: { path: '/detail' } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No mate chosen')).toBeVisible();
  },
};

/** A mate that is not there (deleted, or a wrong link): the way back, not "Try again". */
export const MateNotFound: Story = missingLoad(
  { path: '/detail?mateId=mate-404' },
  '/mate/getMateDetail',
  'Mate not found.',
  ['Discover mates'],
);

export const Error: Story = failingLoad(
  { path: '/detail?mateId=mate-404' },
  '/mate/getMateDetail',
  'No such mate',
  'This mate could not be loaded',
);

/** The mate is drawn at once; its creator and reviews, read apart, say they are on their way. */
export const CreatorAndReviewsLoading: Story = {
  parameters: {
    app: { path: '/detail?mateId=mate-1' },
    msw: { handlers: api(mockEndpointLoading('/mate/mateExtraInfo')) },
  },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Lyra Moonwhisper' }),
    ).toBeVisible();
    await expect(canvas.getByRole('status', { name: 'Loading' })).toBeVisible();
  },
};

/** The creator and reviews failed: the mate stays, with the reason and a retry for the rest. */
export const CreatorAndReviewsError: Story = {
  parameters: {
    app: { path: '/detail?mateId=mate-1' },
    msw: { handlers: api(mockEndpointError('/mate/mateExtraInfo', 5000, 'server error')) },
  },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Lyra Moonwhisper' }),
    ).toBeVisible();
    await expect(await canvas.findByText('Something went wrong')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Try again' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Chat with Lyra Moonwhisper' })).toBeVisible();
  },
};
