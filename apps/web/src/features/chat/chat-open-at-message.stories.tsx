import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { createMessageFixture, createRoomInfoFixture, mockEndpoint } from '@mates/api-client/msw';
import { api, expectNotice, screenStories } from '../../testing/story-app';

const meta = { title: 'Screens/Chat/Open at a message', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** Time for older pages to arrive on a busy machine. */
const LOADS = { timeout: 8000 };

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
 * A `messageId` in the route (a search result led here) opens the chat at that message, two
 * pages back: older messages load until it is there, then it is in view, focused and marked.
 */
export const OpensAtAnOlderMessage: Story = {
  parameters: {
    app: { path: '/chat-detail?roomId=room-1&messageId=msg-5', signedIn: true },
    msw: { handlers: api(storedRoom) },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    const target = await waitFor(() => {
      const found = canvasElement.ownerDocument.getElementById('message-msg-5');
      expect(found).not.toBeNull();
      return found!;
    }, LOADS);
    await waitFor(() => expect(target).toHaveFocus(), LOADS);
    await expect(target).toHaveTextContent('Message 5: the tide came in');
    // Three pages: the newest 50, the 50 before, and the 20 that hold message 5.
    await expect(within(log).getAllByRole('article')).toHaveLength(120);
    const box = target.getBoundingClientRect();
    const view = canvasElement.ownerDocument.defaultView!;
    await expect(box.top).toBeGreaterThanOrEqual(0);
    await expect(box.bottom).toBeLessThanOrEqual(view.innerHeight);
  },
};

/** A message no longer in the chat (deleted since the search): the chat opens, and says so. */
export const LinkedMessageGone: Story = {
  parameters: {
    app: { path: '/chat-detail?roomId=room-1&messageId=msg-deleted', signedIn: true },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('log', { name: 'Conversation' })).toBeVisible();
    await expectNotice(canvasElement, 'The message you looked for is no longer in the chat.');
  },
};
