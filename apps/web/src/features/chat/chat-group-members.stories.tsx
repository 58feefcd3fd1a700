import type { Meta, StoryObj } from '@storybook/react-vite';
import { delay, http } from 'msw';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  createGroupMemberFixture,
  createGroupRoomInfoFixture,
  createRoomGroupFixture,
  mockChatStream,
  mockEndpoint,
  mockEndpointError,
} from '@mates/api-client/msw';
import { api, screenStories } from '../../testing/story-app';

const meta = { title: 'Screens/Chat/Group members', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const room = '/chat-detail?roomId=room-group';
const LOADS = { timeout: 5000 };

const groupRoom = mockEndpoint('/room/roomInfo', () => {
  const info = createGroupRoomInfoFixture();
  return { ...info, room: { ...info.room, roomId: 'room-group' } };
});

// What the sheet asked the server, by call (cleared by each story's loader).
const calls: { path: string; body: unknown }[] = [];
const recordGroupCalls = http.post('*/api/room/:call', async ({ request, params }) => {
  if (String(params.call).match(/Group/))
    calls.push({ path: String(params.call), body: await request.clone().json() });
});

/** Opens the members sheet from the header. */
async function openMembers(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await canvas.findByRole('log', { name: 'Conversation' }, LOADS);
  await userEvent.click(canvas.getByRole('button', { name: 'Members' }));
  return within(canvasElement.ownerDocument.body).findByRole('dialog', { name: 'The group' });
}

/** The sheet: each member with its mute switch, talkativeness and Remove; the settings. */
export const MembersSheet: Story = {
  parameters: { app: { path: room, signedIn: true }, msw: { handlers: api(groupRoom) } },
  play: async ({ canvasElement }) => {
    const sheet = await openMembers(canvasElement);
    // Opened on the sheet itself, not on a Remove button.
    await waitFor(() => expect(sheet).toHaveFocus());
    const members = within(sheet).getByRole('list', { name: 'Members' });
    await expect(within(members).getAllByRole('listitem')).toHaveLength(3);
    await expect(within(sheet).getByRole('switch', { name: 'Mute Kai Tanaka' })).not.toBeChecked();
    await expect(
      within(sheet).getByRole('button', { name: 'Remove Kai Tanaka from the group' }),
    ).toBeEnabled();
    await expect(within(sheet).getByRole('textbox', { name: 'Group name' })).toHaveValue(
      'Lyra, Kai, Captain',
    );
    await expect(within(sheet).getByRole('button', { name: 'Invite a mate' })).toBeEnabled();
  },
};

/** Muting a member by keyboard: the change goes to the server, the switch follows its answer. */
export const MuteAMember: Story = {
  loaders: [() => void (calls.length = 0)],
  parameters: {
    app: { path: room, signedIn: true },
    msw: { handlers: api(groupRoom, recordGroupCalls) },
  },
  play: async ({ canvasElement }) => {
    const sheet = await openMembers(canvasElement);
    const kai = within(sheet).getByRole('switch', { name: 'Mute Kai Tanaka' });
    kai.focus();
    await userEvent.keyboard(' ');
    await waitFor(() => expect(kai).toBeChecked());
    await expect(calls).toEqual([
      { path: 'updateGroupMember', body: { roomId: 'room-group', mateId: 'mate-2', muted: true } },
    ]);
  },
};

/** Removing a member: it moves under "Left the group", its past replies keep its name. */
export const RemoveAMember: Story = {
  loaders: [() => void (calls.length = 0)],
  parameters: {
    app: { path: room, signedIn: true },
    msw: { handlers: api(groupRoom, recordGroupCalls) },
  },
  play: async ({ canvasElement }) => {
    const sheet = await openMembers(canvasElement);
    await userEvent.click(
      within(sheet).getByRole('button', { name: 'Remove Kai Tanaka from the group' }),
    );
    const former = await within(sheet).findByRole('list', { name: 'Left the group' }, LOADS);
    await expect(former).toHaveTextContent('Kai Tanaka');
    await expect(within(sheet).getAllByRole('listitem').length).toBeGreaterThan(2);
    await expect(calls).toEqual([
      { path: 'removeGroupMember', body: { roomId: 'room-group', mateId: 'mate-2' } },
    ]);
    const log = within(canvasElement).getByRole('log', { name: 'Conversation' });
    const kai = within(log).getByRole('article', { name: 'Kai Tanaka says' });
    await expect(within(kai).getByText('· left the group')).toBeVisible();
  },
};

/**
 * Remove pressed twice while the server answers: the member is removed once, and the sheet
 * says nothing went wrong (a second removal was refused: it was no longer a member).
 */
export const RemoveOnce: Story = {
  loaders: [() => void (calls.length = 0)],
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        groupRoom,
        recordGroupCalls,
        http.post('*/api/room/removeGroupMember', () => delay(300)),
      ),
    },
  },
  play: async ({ canvasElement }) => {
    const sheet = await openMembers(canvasElement);
    const remove = within(sheet).getByRole('button', { name: 'Remove Kai Tanaka from the group' });
    await userEvent.click(remove);
    await userEvent.click(remove);
    const former = await within(sheet).findByRole('list', { name: 'Left the group' }, LOADS);
    await expect(former).toHaveTextContent('Kai Tanaka');
    await expect(calls).toEqual([
      { path: 'removeGroupMember', body: { roomId: 'room-group', mateId: 'mate-2' } },
    ]);
  },
};

/**
 * While a reply is written, Remove and Invite wait (the server changes members between turns
 * only), and say why to a screen reader too; once the turn ends they are offered again.
 */
export const BusyDuringATurn: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        groupRoom,
        mockChatStream({
          delayMs: 150,
          speakers: [{ speakerId: 'mate-2', reply: 'one two three four five six seven eight' }],
        }),
      ),
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const log = await canvas.findByRole('log', { name: 'Conversation' }, LOADS);
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Stew?');
    await userEvent.click(canvas.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(log).toHaveTextContent('one two'), LOADS);
    const sheet = await openMembers(canvasElement);
    const remove = within(sheet).getByRole('button', { name: 'Remove Kai Tanaka from the group' });
    const invite = within(sheet).getByRole('button', { name: 'Invite a mate' });
    const why = 'A reply is being written: mates can be invited or removed once it ends.';
    const moveUp = within(sheet).getByRole('button', { name: 'Move Kai Tanaka up' });
    for (const button of [remove, invite, moveUp]) {
      await expect(button).toBeDisabled();
      await expect(button).toHaveAccessibleDescription(why);
    }
    // The turn over: both are offered again, with nothing more to say.
    await waitFor(() => expect(remove).toBeEnabled(), { timeout: 8000 });
    await expect(moveUp).toBeEnabled();
    await expect(invite).toBeEnabled();
    await expect(invite).not.toHaveAccessibleDescription(why);
    await expect(within(sheet).queryByText(why)).toBeNull();
  },
};

/**
 * Reordering by keyboard: "Move Kai Tanaka up" sends the new list, the rows follow the server's
 * answer, and the focus stays on Kai's row (its "down" button, "up" having reached the top).
 */
export const ReorderMembers: Story = {
  loaders: [() => void (calls.length = 0)],
  parameters: {
    app: { path: room, signedIn: true },
    msw: { handlers: api(groupRoom, recordGroupCalls) },
  },
  play: async ({ canvasElement }) => {
    const sheet = await openMembers(canvasElement);
    const members = within(sheet).getByRole('list', { name: 'Members' });
    const names = () =>
      within(members)
        .getAllByRole('listitem')
        .map((item) => item.textContent?.match(/^(Lyra|Kai|Captain)/)?.[0]);
    await expect(names()).toEqual(['Lyra', 'Kai', 'Captain']);
    await expect(
      within(sheet).getByRole('button', { name: 'Move Lyra Moonwhisper up' }),
    ).toBeDisabled();
    await expect(
      within(sheet).getByRole('button', { name: 'Move Captain Ione Vask down' }),
    ).toBeDisabled();
    within(sheet).getByRole('button', { name: 'Move Kai Tanaka up' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(names()).toEqual(['Kai', 'Lyra', 'Captain']));
    await expect(calls).toEqual([
      {
        path: 'updateGroup',
        body: { roomId: 'room-group', order: ['mate-2', 'mate-1', 'mate-3'] },
      },
    ]);
    await waitFor(() =>
      expect(within(sheet).getByRole('button', { name: 'Move Kai Tanaka down' })).toHaveFocus(),
    );
  },
};

/** A group of two keeps its members: Remove is offered disabled, and says why. */
export const TwoMembersLeft: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/room/roomInfo', () => {
          const info = createGroupRoomInfoFixture({}, createRoomGroupFixture({}, 2));
          return { ...info, room: { ...info.room, roomId: 'room-group' } };
        }),
      ),
    },
  },
  play: async ({ canvasElement }) => {
    const sheet = await openMembers(canvasElement);
    await expect(
      within(sheet).getByRole('button', { name: 'Remove Kai Tanaka from the group' }),
    ).toBeDisabled();
    await expect(within(sheet).getByText('A group keeps at least 2 mates.')).toBeVisible();
  },
};

/** Inviting a mate: chosen from the picker (members left out), it joins at once. */
export const InviteAMate: Story = {
  loaders: [() => void (calls.length = 0)],
  parameters: {
    app: { path: room, signedIn: true },
    msw: { handlers: api(groupRoom, recordGroupCalls) },
  },
  play: async ({ canvasElement }) => {
    const sheet = await openMembers(canvasElement);
    await userEvent.click(within(sheet).getByRole('button', { name: 'Invite a mate' }));
    const popular = await within(sheet).findByRole('list', { name: 'Popular mates' }, LOADS);
    await expect(within(popular).queryByRole('button', { name: 'Kai Tanaka' })).toBeNull();
    await userEvent.click(within(popular).getByRole('button', { name: 'Rowan Ashdown' }));
    const members = within(sheet).getByRole('list', { name: 'Members' });
    await waitFor(() => expect(within(members).getAllByRole('listitem')).toHaveLength(4));
    await expect(calls).toEqual([
      { path: 'addGroupMember', body: { roomId: 'room-group', mateId: 'mate-4' } },
    ]);
    // The chat notes who joined.
    const log = within(canvasElement).getByRole('log', { name: 'Conversation' });
    await expect(within(log).getByText('Rowan Ashdown joined the group')).toBeVisible();
  },
};

/** A full group: Invite is offered disabled, and says why. */
export const FullGroup: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/room/roomInfo', () => {
          const info = createGroupRoomInfoFixture({}, createRoomGroupFixture({}, 6));
          return { ...info, room: { ...info.room, roomId: 'room-group' } };
        }),
      ),
    },
  },
  play: async ({ canvasElement }) => {
    const sheet = await openMembers(canvasElement);
    await expect(within(sheet).getByRole('button', { name: 'Invite a mate' })).toBeDisabled();
    await expect(within(sheet).getByText('A group holds at most 6 mates.')).toBeVisible();
  },
};

/** The name, scenario and order, saved together: the chat's heading follows. */
export const SaveTheSettings: Story = {
  loaders: [() => void (calls.length = 0)],
  parameters: {
    app: { path: room, signedIn: true },
    msw: { handlers: api(groupRoom, recordGroupCalls) },
  },
  play: async ({ canvasElement }) => {
    const sheet = await openMembers(canvasElement);
    const name = within(sheet).getByRole('textbox', { name: 'Group name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Storm watch');
    await userEvent.click(within(sheet).getByRole('button', { name: 'Save' }));
    const said = await within(sheet).findByText('The group is saved.');
    await expect(said).toHaveAttribute('role', 'status');
    // Behind the open sheet (hidden from the accessibility tree while it is open): the phone's
    // header and the wide one.
    await expect(
      within(canvasElement).getAllByRole('heading', {
        level: 1,
        name: 'Storm watch',
        hidden: true,
      }),
    ).toHaveLength(2);
    await expect(calls).toEqual([
      {
        path: 'updateGroup',
        body: {
          roomId: 'room-group',
          name: 'Storm watch',
          scenario: createRoomGroupFixture().scenario,
          turnOrder: 'natural',
        },
      },
    ]);
    // Saved, the focus is still on Save, and one Escape closes the sheet (the first one went
    // to a notice over it and the focus to the sheet, found from outside).
    const save = within(sheet).getByRole('button', { name: 'Save' });
    await waitFor(() => expect(save).toHaveFocus());
    await userEvent.keyboard('{Escape}');
    await waitFor(() =>
      expect(within(canvasElement.ownerDocument.body).queryByRole('dialog')).toBeNull(),
    );
  },
};

/** A change the server refuses is said in the sheet. */
export const ChangeRefused: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        groupRoom,
        mockEndpointError('/room/updateGroupMember', 4000, 'This mate is not in the group.'),
      ),
    },
  },
  play: async ({ canvasElement }) => {
    const sheet = await openMembers(canvasElement);
    await userEvent.click(within(sheet).getByRole('switch', { name: 'Mute Kai Tanaka' }));
    await expect(await within(sheet).findByRole('alert', {}, LOADS)).toHaveTextContent(
      'This mate is not in the group.',
    );
  },
};

/** On a small phone (320 × 568): the sheet takes the screen, its rows wrap. */
export const PhoneSheet: Story = {
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/room/roomInfo', () => {
          const info = createGroupRoomInfoFixture(
            {},
            createRoomGroupFixture({
              members: [
                createGroupMemberFixture({}, 0),
                createGroupMemberFixture({ muted: true }, 1),
                createGroupMemberFixture({ leftAt: '2026-11-20T19:00:00.000Z' }, 2),
              ],
            }),
          );
          return { ...info, room: { ...info.room, roomId: 'room-group' } };
        }),
      ),
    },
  },
  play: async ({ canvasElement }) => {
    const view = canvasElement.ownerDocument.defaultView!;
    await within(canvasElement).findByRole('log', { name: 'Conversation' }, LOADS);
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'More' }));
    await userEvent.click(await within(canvasElement).findByRole('button', { name: 'Members' }));
    const sheet = await within(canvasElement.ownerDocument.body).findByRole('dialog', {
      name: 'The group',
    });
    // Once it has slid in, every control is on the screen.
    for (const control of within(sheet).getAllByRole('switch'))
      await waitFor(() =>
        expect(control.getBoundingClientRect().right).toBeLessThanOrEqual(view.innerWidth),
      );
    await expect(within(sheet).getByRole('list', { name: 'Left the group' })).toHaveTextContent(
      'Captain Ione Vask',
    );
  },
};
