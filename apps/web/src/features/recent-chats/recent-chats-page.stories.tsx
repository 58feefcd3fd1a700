import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  createMateSummaryFixture,
  createPageFixture,
  createRoomSummaryFixture,
  mockEndpoint,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import type { RoomSummary } from '@mates/api-client';
import {
  api,
  failingLoad,
  screenStories,
  visitorAt,
  visitorClosesSignInAt,
  type StoryApp,
} from '../../testing/story-app';

const meta = { title: 'Screens/Recent chats', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

export const Anonymous: Story = visitorAt('/recent-chats');

/** "Sign in" opens the popup; closing it returns to discover. */
export const CloseSignInAndReturnHome: Story = visitorClosesSignInAt('/recent-chats');

/** Each conversation resumes where it was, and can be deleted. */
export const SignedIn: Story = {
  parameters: { app: { path: '/recent-chats', signedIn: true } },
  play: async ({ canvas }) => {
    const list = await canvas.findByRole('list', { name: 'Your conversations' });
    await expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    await expect(
      canvas.getByRole('link', { name: 'Resume chat with Lyra Moonwhisper' }),
    ).toHaveAttribute('href', '#/chat-detail?roomId=room-1');
    await expect(
      canvas.getByRole('button', { name: 'Delete chat with Lyra Moonwhisper' }),
    ).toBeVisible();
  },
};

// What the mocked server remembers during one story: the user's rooms, newest first.
const rooms: RoomSummary[] = [];

/** A chat started elsewhere is listed when the person comes back, without a reload. */
export const ANewChatIsListedAtOnce: Story = {
  loaders: [() => void rooms.splice(0, rooms.length, createRoomSummaryFixture({}, 1))],
  parameters: {
    app: { path: '/recent-chats', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/room/roomList', () => createPageFixture([...rooms])),
        mockEndpoint('/room/createRoom', () => {
          const room = createRoomSummaryFixture({
            roomId: 'room-new',
            mateId: 'mate-1',
            mate: createMateSummaryFixture(),
          });
          rooms.unshift(room);
          return room;
        }),
      ),
    },
  },
  play: async ({ canvas, loaded }) => {
    const app = loaded.app as StoryApp;
    const list = await canvas.findByRole('list', { name: 'Your conversations' });
    await expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    await app.router.navigate('/detail?mateId=mate-1');
    await userEvent.click(
      await canvas.findByRole('button', { name: 'Chat with Lyra Moonwhisper' }),
    );
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/chat-detail'));
    await app.router.navigate('/recent-chats');
    await waitFor(() =>
      expect(
        within(canvas.getByRole('list', { name: 'Your conversations' })).getAllByRole('listitem'),
      ).toHaveLength(2),
    );
    await expect(
      canvas.getByRole('link', { name: 'Resume chat with Lyra Moonwhisper' }),
    ).toHaveAttribute('href', '#/chat-detail?roomId=room-new');
  },
};

/** The last message is previewed as plain text: no raw `*asterisks*`, lines run together. */
export const PlainPreviews: Story = {
  parameters: {
    app: { path: '/recent-chats', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/room/roomList', () =>
          createPageFixture([
            createRoomSummaryFixture({
              lastMessage: {
                ...createRoomSummaryFixture().lastMessage!,
                content: '*She waves.*\nSee you **tomorrow**, then?',
              },
            }),
          ]),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    const list = await canvas.findByRole('list', { name: 'Your conversations' });
    await expect(within(list).getByText('She waves. See you tomorrow, then?')).toBeVisible();
    await expect(list).not.toHaveTextContent('*');
  },
};

/**
 * A chat with branches is listed once, by the path used last, and says how many paths it has;
 * a chat of one path says nothing of branches.
 */
export const ChatWithBranches: Story = {
  parameters: {
    app: { path: '/recent-chats', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/room/roomList', () =>
          createPageFixture([
            createRoomSummaryFixture({ roomId: 'room-3', branchCount: 3 }),
            createRoomSummaryFixture({ branchCount: 1 }, 1),
          ]),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    const list = await canvas.findByRole('list', { name: 'Your conversations' });
    const [branched, single] = within(list).getAllByRole('listitem');
    await expect(branched).toHaveTextContent('3 branches');
    await expect(
      within(branched!).getByRole('link', { name: 'Resume chat with Lyra Moonwhisper' }),
    ).toHaveAttribute('href', '#/chat-detail?roomId=room-3');
    await expect(single).not.toHaveTextContent(/branch/i);
  },
};

/** Deleting a chat asks first; Cancel keeps it. */
export const CancelDeletingAChat: Story = {
  parameters: { app: { path: '/recent-chats', signedIn: true } },
  play: async ({ canvas, canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    const list = await canvas.findByRole('list', { name: 'Your conversations' });
    await expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    await userEvent.click(
      canvas.getByRole('button', { name: 'Delete chat with Lyra Moonwhisper' }),
    );
    const confirm = await body.findByRole('dialog', { name: 'Delete this chat?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await expect(within(list).getAllByRole('listitem')).toHaveLength(3);
  },
};

export const Loading: Story = {
  parameters: {
    app: { path: '/recent-chats', signedIn: true },
    msw: { handlers: api(mockEndpointLoading('/room/roomList')) },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('status', { name: 'Loading' })).toBeVisible();
  },
};

export const Empty: Story = {
  parameters: {
    app: { path: '/recent-chats', signedIn: true },
    msw: { handlers: api(mockEndpoint('/room/roomList', () => createPageFixture([]))) },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No chats yet')).toBeVisible();
  },
};

export const Error: Story = failingLoad(
  { path: '/recent-chats', signedIn: true },
  '/room/roomList',
  'Chats are resting',
);
