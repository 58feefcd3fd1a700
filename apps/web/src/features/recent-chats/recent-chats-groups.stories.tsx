import type { Meta, StoryObj } from '@storybook/react-vite';
import { delay, http } from 'msw';
import type { CreateGroupPayload } from '@mates/api-client';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  createGroupRoomInfoFixture,
  createPageFixture,
  createRoomGroupFixture,
  createRoomSummaryFixture,
  mockEndpoint,
  mockEndpointError,
} from '@mates/api-client/msw';
import { api, screenStories, type StoryApp } from '../../testing/story-app';

const meta = { title: 'Screens/Recent chats/Groups', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const LOADS = { timeout: 5000 };
const TAVERN = createRoomGroupFixture({ name: 'Tavern night' });

/** The person's chats: a group first, then a one-to-one chat. */
const rooms = mockEndpoint('/room/roomList', () =>
  createPageFixture([
    createRoomSummaryFixture({ roomId: 'room-group', group: TAVERN }, 0),
    createRoomSummaryFixture({}, 1),
  ]),
);

// The groups the dialog asked for, for the stories that check them (cleared by their loaders).
const created: CreateGroupPayload[] = [];
const recordCreates = http.post('*/api/room/createGroup', async ({ request }) => {
  created.push((await request.clone().json()) as CreateGroupPayload);
});

/** The dialog, opened from "New group". */
async function openDialog(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await userEvent.click(await canvas.findByRole('button', { name: 'New group' }, LOADS));
  return within(canvasElement.ownerDocument.body).findByRole('dialog', {
    name: 'New group chat',
  });
}

/** A group's row: its mates' portraits overlapping, and its name instead of a mate's. */
export const AGroupRow: Story = {
  parameters: { app: { path: '/recent-chats', signedIn: true }, msw: { handlers: api(rooms) } },
  play: async ({ canvas }) => {
    const row = await canvas.findByRole('listitem', { name: 'Tavern night' }, LOADS);
    await expect(within(row).getByRole('heading', { name: 'Tavern night' })).toBeVisible();
    await expect(
      within(row).getByRole('img', { name: /^Tavern night: Lyra Moonwhisper/ }),
    ).toBeVisible();
    await expect(
      within(row).getByRole('link', { name: 'Resume chat with Tavern night' }),
    ).toHaveAttribute('href', '#/chat-detail?roomId=room-group');
    await expect(canvas.getByRole('listitem', { name: 'Kai Tanaka' })).toBeVisible();
  },
};

/** The group's chat, once made: empty. */
const newGroupRoom = mockEndpoint('/room/roomInfo', () => {
  const info = createGroupRoomInfoFixture({ messages: [] });
  return { ...info, room: { ...info.room, roomId: 'room-group' } };
});

/**
 * "New group": the person's own mates (never a draft) and popular ones, chosen by keyboard or
 * mouse, ordered, named; the group's chat opens once it is made.
 */
export const CreateAGroup: Story = {
  loaders: [() => void (created.length = 0)],
  parameters: {
    app: { path: '/recent-chats', signedIn: true },
    msw: {
      handlers: api(rooms, recordCreates, newGroupRoom),
    },
  },
  play: async ({ canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const dialog = await openDialog(canvasElement);
    const yours = await within(dialog).findByRole('list', { name: 'Your mates' }, LOADS);
    // A draft cannot chat: only the public and the private one are offered.
    await expect(
      within(yours)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Lyra Moonwhisper', 'Kai Tanaka']);
    // Read once the dialog has drawn: found and not yet visible the moment it was, on a loaded
    // clean-clone CI run.
    await waitFor(() =>
      expect(within(dialog).getByText(/Each mate’s reply is charged as one chat/)).toBeVisible(),
    );
    await userEvent.click(within(yours).getByRole('button', { name: 'Kai Tanaka' }));
    const popular = within(dialog).getByRole('list', { name: 'Popular mates' });
    const rowan = within(popular).getByRole('button', { name: 'Rowan Ashdown' });
    rowan.focus();
    await userEvent.keyboard(' ');
    await expect(rowan).toHaveAttribute('aria-pressed', 'true');
    await expect(within(dialog).getByText('In the group: 2 of 6')).toBeVisible();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move Rowan Ashdown up' }));
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Group name' }),
      'Night watch',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create the group' }));
    await waitFor(() => expect(app.router.state.location.search).toBe('?roomId=room-group'));
    await expect(created).toEqual([
      { mateIds: ['mate-4', 'mate-2'], name: 'Night watch', turnOrder: 'natural' },
    ]);
  },
};

/** "Create the group" pressed twice while the first is on its way makes one group, not two. */
export const CreateOnce: Story = {
  loaders: [() => void (created.length = 0)],
  parameters: {
    app: { path: '/recent-chats', signedIn: true },
    msw: {
      handlers: api(
        rooms,
        // The server takes a moment to answer: the person presses again meanwhile.
        http.post('*/api/room/createGroup', async ({ request }) => {
          created.push((await request.clone().json()) as CreateGroupPayload);
          await delay(400);
        }),
        newGroupRoom,
      ),
    },
  },
  play: async ({ canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const dialog = await openDialog(canvasElement);
    const yours = await within(dialog).findByRole('list', { name: 'Your mates' }, LOADS);
    await userEvent.click(within(yours).getByRole('button', { name: 'Lyra Moonwhisper' }));
    await userEvent.click(within(yours).getByRole('button', { name: 'Kai Tanaka' }));
    const create = within(dialog).getByRole('button', { name: 'Create the group' });
    await userEvent.click(create);
    await userEvent.click(create);
    await waitFor(() => expect(app.router.state.location.search).toBe('?roomId=room-group'), LOADS);
    await expect(created).toHaveLength(1);
  },
};

/** One mate is not a group: the dialog says so, and nothing is made. */
export const TooFewMates: Story = {
  loaders: [() => void (created.length = 0)],
  parameters: {
    app: { path: '/recent-chats', signedIn: true },
    msw: { handlers: api(rooms, recordCreates) },
  },
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    const yours = await within(dialog).findByRole('list', { name: 'Your mates' }, LOADS);
    await userEvent.click(within(yours).getByRole('button', { name: 'Lyra Moonwhisper' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create the group' }));
    await expect(within(dialog).getByRole('alert')).toHaveTextContent('Choose at least 2 mates.');
    await expect(created).toEqual([]);
  },
};

/** Six mates fill a group: the others are offered but cannot be chosen. */
export const AFullGroup: Story = {
  parameters: { app: { path: '/recent-chats', signedIn: true }, msw: { handlers: api(rooms) } },
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    await within(dialog).findByRole('list', { name: 'Popular mates' }, LOADS);
    for (const name of [
      'Lyra Moonwhisper',
      'Kai Tanaka',
      'Captain Ione Vask',
      'Rowan Ashdown',
      'Dr. Mira Solberg',
      'Theo Blackwood',
    ])
      await userEvent.click(within(dialog).getByRole('button', { name, pressed: false }));
    await expect(within(dialog).getByText('A group holds at most 6 mates.')).toBeVisible();
    await expect(within(dialog).getByRole('button', { name: 'Sable' })).toBeDisabled();
  },
};

/** The server refuses (a mate no longer public, say): the dialog stays, nothing is lost. */
export const CreateRefused: Story = {
  parameters: {
    app: { path: '/recent-chats', signedIn: true },
    msw: {
      handlers: api(
        rooms,
        mockEndpointError('/room/createGroup', 4000, 'This mate cannot join a group.'),
      ),
    },
  },
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    const yours = await within(dialog).findByRole('list', { name: 'Your mates' }, LOADS);
    await userEvent.click(within(yours).getByRole('button', { name: 'Lyra Moonwhisper' }));
    await userEvent.click(within(yours).getByRole('button', { name: 'Kai Tanaka' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create the group' }));
    await expect(await within(dialog).findByRole('alert', {}, LOADS)).toHaveTextContent(
      'This mate cannot join a group.',
    );
    await expect(within(dialog).getByText('In the group: 2 of 6')).toBeVisible();
  },
};

/** On a small phone (320 × 568): the dialog fits the width. */
export const PhoneDialog: Story = {
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  parameters: { app: { path: '/recent-chats', signedIn: true }, msw: { handlers: api(rooms) } },
  play: async ({ canvasElement }) => {
    const view = canvasElement.ownerDocument.defaultView!;
    const dialog = await openDialog(canvasElement);
    await within(dialog).findByRole('list', { name: 'Your mates' }, LOADS);
    const box = dialog.getBoundingClientRect();
    await expect(box.left).toBeGreaterThanOrEqual(0);
    await expect(box.right).toBeLessThanOrEqual(view.innerWidth);
  },
};
