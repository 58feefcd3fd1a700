import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { createMessageFixture, createRoomInfoFixture, mockEndpoint } from '@mates/api-client/msw';
import { api, screenStories } from '../../testing/story-app';

const meta = { title: 'Screens/Chat/Call Transcript', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** After a call: its turns are the room's messages; a reply cut by barge-in is marked. */
export const AfterACall: Story = {
  parameters: {
    app: { path: '/chat-detail?roomId=room-1', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/room/roomInfo', () =>
          createRoomInfoFixture({
            messages: [
              createMessageFixture({
                messageId: 'u1',
                role: 'user',
                content: 'Tell me about your day.',
                call: { callId: 'call-1', cut: false },
              }),
              createMessageFixture({
                messageId: 'r1',
                content: 'Oh, it was lovely.',
                status: 'partial',
                call: { callId: 'call-1', cut: true },
              }),
              createMessageFixture({
                messageId: 'u2',
                role: 'user',
                content: 'Wait, which lake?',
                call: { callId: 'call-1', cut: false },
              }),
            ],
          }),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    const main = within(await canvas.findByRole('main'));
    await expect(await main.findByText('Wait, which lake?')).toBeVisible();
    await expect(main.getByText('Cut short in a call')).toBeVisible();
    await expect(main.getAllByRole('button', { name: /^Call / })[0]).toBeVisible();
  },
};
