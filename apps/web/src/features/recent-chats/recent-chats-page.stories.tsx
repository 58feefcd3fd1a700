import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  createMateSummaryFixture,
  createMessageFixture,
  createMessageHitFixture,
  createMessageHitsFixture,
  createPageFixture,
  createRoomInfoFixture,
  createRoomSummaryFixture,
  mockEndpoint,
  mockEndpointError,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import type { MessageHits, RoomSummary } from '@mates/api-client';
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

/**
 * The last message is previewed as plain text: no raw `*asterisks*` or table pipes, lines run
 * together, paragraphs apart, a table read row by row.
 */
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
                content:
                  '*She waves.*\nSee you **tomorrow**, then?\n\n| Day | Plan |\n|---|---|\n| Mon | Rest |',
              },
            }),
          ]),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    const list = await canvas.findByRole('list', { name: 'Your conversations' });
    await expect(
      within(list).getByText('She waves. See you tomorrow, then? Day, Plan; Mon, Rest'),
    ).toBeVisible();
    await expect(list).not.toHaveTextContent('*');
    await expect(list).not.toHaveTextContent('|');
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

// Message search: the words of every chat, as the person types them.

const SEARCH = 'Search your messages';

/** Types `words` into the message search of the page. */
async function searchFor(canvas: ReturnType<typeof within>, words: string) {
  await userEvent.type(await canvas.findByRole('searchbox', { name: SEARCH }), words);
}

/** Page `page` of a search with `count` hits a page, each with its own message id. */
function hitsPage(page: number, count: number, hasMore: boolean): MessageHits {
  const hits = createMessageHitsFixture(count, { page, hasMore });
  return {
    ...hits,
    list: hits.list.map((hit, index) => ({
      ...hit,
      message: { ...hit.message, messageId: `msg-hit-${page}-${index + 1}` },
    })),
  };
}

/**
 * One letter searches nothing (the chats stay listed); from two, the words are searched once
 * typing pauses, and the search says it is under way.
 */
export const TypeToSearch: Story = {
  parameters: {
    app: { path: '/recent-chats', signedIn: true },
    msw: { handlers: api(mockEndpointLoading('/room/searchMessages')) },
  },
  play: async ({ canvas }) => {
    await searchFor(canvas, 'm');
    await expect(await canvas.findByRole('list', { name: 'Your conversations' })).toBeVisible();
    await searchFor(canvas, 'a');
    await expect(
      await canvas.findByRole('status', { name: 'Searching your messages' }),
    ).toBeVisible();
    await expect(canvas.queryByRole('list', { name: 'Your conversations' })).toBeNull();
  },
};

/**
 * The messages that hold the words, newest first: whose chat, who said it, the words around the
 * match marked, a link to the chat at that message; how many is announced.
 */
export const SearchYourMessages: Story = {
  parameters: { app: { path: '/recent-chats', signedIn: true } },
  play: async ({ canvas }) => {
    await searchFor(canvas, 'map');
    const list = await canvas.findByRole('list', { name: 'Messages with “map”' });
    const hits = within(list).getAllByRole('listitem');
    await expect(hits).toHaveLength(3);
    await expect(canvas.getByRole('status')).toHaveTextContent('3 messages found');
    const [first, second] = hits;
    await expect(within(first!).getByRole('heading', { name: 'Lyra Moonwhisper' })).toBeVisible();
    await expect(first).toHaveTextContent('You said');
    await expect(second).toHaveTextContent(/said ·/);
    await expect(second).not.toHaveTextContent('You said');
    const link = within(first!).getByRole('link', {
      name: 'Hit 1: the old map of the northern coast.',
    });
    await expect(link).toHaveAttribute('href', '#/chat-detail?roomId=room-1&messageId=msg-hit-1');
    const marked = within(link).getByText('map');
    await expect(marked.tagName).toBe('MARK');
    // Every result is reached with Tab, after the search box.
    await userEvent.tab();
    await expect(link).toHaveFocus();
  },
};

/**
 * A message found in a group chat is titled by the group's name, and a mate's words there by the
 * mate who said them: it was titled by the group's first member, as if a one-to-one chat.
 */
export const SearchFindsAGroupMessage: Story = {
  parameters: {
    app: { path: '/recent-chats', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/room/searchMessages', () => {
          const [mine, theirs] = createMessageHitsFixture(2).list;
          return {
            ...createMessageHitsFixture(2),
            list: [
              { ...mine!, groupName: 'Lighthouse club' },
              { ...theirs!, groupName: 'Lighthouse club' },
            ],
          };
        }),
      ),
    },
  },
  play: async ({ canvas }) => {
    await searchFor(canvas, 'map');
    const list = await canvas.findByRole('list', { name: 'Messages with “map”' });
    const [mine, theirs] = within(list).getAllByRole('listitem');
    await expect(mine).toHaveAccessibleName('Lighthouse club');
    await expect(within(mine!).getByRole('heading', { name: 'Lighthouse club' })).toBeVisible();
    await expect(mine).toHaveTextContent('You said');
    const speaker = createMessageHitsFixture(2).list[1]!.mate.name;
    await expect(theirs).toHaveTextContent(`${speaker} said`);
  },
};

/** More than a page: "Show more" adds the next page below, and the count follows. */
export const ShowMoreResults: Story = {
  parameters: {
    app: { path: '/recent-chats', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/room/searchMessages', ({ query }) =>
          query.page === '2' ? hitsPage(2, 20, false) : hitsPage(1, 20, true),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    await searchFor(canvas, 'map');
    const list = await canvas.findByRole('list', { name: 'Messages with “map”' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(20));
    await expect(canvas.getByRole('status')).toHaveTextContent(
      '20 messages found so far; more below',
    );
    await userEvent.click(canvas.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(40));
    await expect(canvas.getByRole('status')).toHaveTextContent('40 messages found');
    await expect(canvas.queryByRole('button', { name: 'Show more' })).toBeNull();
  },
};

/** Words no message holds: said, and announced. */
export const SearchFindsNothing: Story = {
  parameters: {
    app: { path: '/recent-chats', signedIn: true },
    msw: {
      handlers: api(mockEndpoint('/room/searchMessages', () => createMessageHitsFixture(0))),
    },
  },
  play: async ({ canvas }) => {
    await searchFor(canvas, 'zebra');
    const title = await canvas.findByRole('heading', { name: 'No message holds “zebra”' });
    // Said inside the polite live region: announced as it appears.
    await expect(title.closest('[role="status"]')).not.toBeNull();
    await expect(canvas.getByText('Try other words, or fewer of them.')).toBeVisible();
    await expect(within(canvas.getByRole('main')).queryByRole('list')).toBeNull();
  },
};

/** A search that failed says so, with the server's reason, and offers to try again. */
export const SearchFailed: Story = {
  parameters: {
    app: { path: '/recent-chats', signedIn: true },
    msw: { handlers: api(mockEndpointError('/room/searchMessages', 5000, 'Search is resting')) },
  },
  play: async ({ canvas }) => {
    await searchFor(canvas, 'map');
    const alert = await canvas.findByRole('alert');
    await expect(alert).toHaveTextContent('Your messages could not be searched');
    await expect(alert).toHaveTextContent('Search is resting');
    await expect(within(alert).getByRole('button', { name: 'Try again' })).toBeVisible();
  },
};

/** On a phone (320 × 568) the results fit the width: nothing to scroll sideways. */
export const SearchOnAPhone: Story = {
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  parameters: { app: { path: '/recent-chats', signedIn: true } },
  play: async ({ canvas, canvasElement }) => {
    const view = canvasElement.ownerDocument.defaultView!;
    await expect(view.innerWidth).toBeLessThanOrEqual(320);
    await searchFor(canvas, 'map');
    const list = await canvas.findByRole('list', { name: 'Messages with “map”' });
    for (const hit of within(list).getAllByRole('listitem')) {
      await expect(hit.getBoundingClientRect().right).toBeLessThanOrEqual(view.innerWidth);
    }
    const page = canvasElement.ownerDocument.documentElement;
    await expect(page.scrollWidth).toBeLessThanOrEqual(view.innerWidth);
  },
};

/** A room of 120 messages kept as the server keeps them: pages of 50 before a message. */
const storedRoom = mockEndpoint('/room/roomInfo', ({ query }) => {
  const messages = Array.from({ length: 120 }, (_, index) =>
    createMessageFixture({
      messageId: `msg-${index + 1}`,
      role: index % 2 ? 'user' : 'mate',
      content: `Message ${index + 1}: the tide came in over the old causeway, as it does.`,
    }),
  );
  const size = Number(query.pageSize ?? 50);
  const end = query.before
    ? messages.findIndex((message) => message.messageId === query.before)
    : messages.length;
  const start = Math.max(0, end - size);
  return createRoomInfoFixture({ messages: messages.slice(start, end), hasMoreBefore: start > 0 });
});

/**
 * A result opens its chat at the message, though it is two pages back: older messages load
 * until it is there, and it is scrolled to, focused and marked.
 */
export const OpenAResult: Story = {
  parameters: {
    app: { path: '/recent-chats', signedIn: true },
    msw: {
      handlers: api(
        storedRoom,
        mockEndpoint('/room/searchMessages', () =>
          createMessageHitsFixture(1, {
            list: [
              createMessageHitFixture({
                message: createMessageFixture({
                  messageId: 'msg-5',
                  content: 'Message 5: the tide came in over the old causeway, as it does.',
                }),
                snippet: [
                  { text: 'Message 5: the ', match: false },
                  { text: 'tide', match: true },
                  { text: ' came in over the old causeway, as it does.', match: false },
                ],
              }),
            ],
          }),
        ),
      ),
    },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    await searchFor(canvas, 'tide');
    await userEvent.click(await canvas.findByRole('link', { name: /the tide came in/ }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/chat-detail'));
    await expect(app.router.state.location.search).toBe('?roomId=room-1&messageId=msg-5');
    const target = await waitFor(
      () => {
        const found = canvasElement.ownerDocument.getElementById('message-msg-5');
        expect(found).not.toBeNull();
        return found!;
      },
      { timeout: 8000 },
    );
    await waitFor(() => expect(target).toHaveFocus(), { timeout: 8000 });
    await expect(target).toHaveTextContent('Message 5: the tide came in');
  },
};
