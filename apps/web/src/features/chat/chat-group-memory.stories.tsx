import type { Meta, StoryObj } from '@storybook/react-vite';
import type { Memory, RoomMemories, SaveMemoryPayload } from '@mates/api-client';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  createGroupMemoriesFixture,
  createGroupRoomInfoFixture,
  createMemoryFixture,
  mockEndpoint,
} from '@mates/api-client/msw';
import { api, screenStories } from '../../testing/story-app';

const meta = { title: 'Screens/Chat/Group memory', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const app = { path: '/chat-detail?roomId=room-group', signedIn: true };
const LYRA = 'Lyra Moonwhisper';
const KAI = 'Kai Tanaka';

/** Time for an answer to arrive on a busy machine. */
const LOADS = { timeout: 8000 };

const groupRoom = mockEndpoint('/room/roomInfo', () => {
  const info = createGroupRoomInfoFixture();
  return { ...info, room: { ...info.room, roomId: 'room-group' } };
});

/**
 * A group's memories as a server keeps them, for one story: a memory added stays, and `calls`
 * records what the panel saved. `reset` is the story's loader.
 */
function groupMemoryServer(start: RoomMemories) {
  let state = { ...start, memories: [...start.memories] };
  const calls: SaveMemoryPayload[] = [];
  const reset = () => {
    state = { ...start, memories: [...start.memories] };
    calls.length = 0;
  };
  const handlers = [
    groupRoom,
    mockEndpoint('/room/memories', () => ({ ...state, memories: [...state.memories] })),
    mockEndpoint('/room/saveMemory', ({ body }) => {
      const payload = body as SaveMemoryPayload;
      calls.push(payload);
      const saved: Memory = createMemoryFixture({
        memoryId: `memory-new-${calls.length}`,
        roomId: 'room-group',
        ...(payload.content === undefined ? {} : { content: payload.content.trim() }),
        about: payload.about ?? 'story',
        author: 'person',
        mateId: payload.mateId ?? null,
        sourceMessageIds: [],
        createdAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
      });
      state.memories = [saved, ...state.memories];
      return saved;
    }),
  ];
  return { handlers, calls, reset };
}

/** Opens the Memory panel from the group chat's header; gives the panel. */
async function openMemory(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await canvas.findByRole('log', { name: 'Conversation' }, LOADS);
  const more = canvas.queryByRole('button', { name: 'More' });
  // On a phone the chat's tools are in the header's menu.
  if (more && more.checkVisibility()) await userEvent.click(more);
  const open = canvas.getAllByRole('button', { name: 'Memory' }).find((b) => b.checkVisibility());
  await userEvent.click(open!);
  const body = within(canvasElement.ownerDocument.body);
  const panel = await body.findByRole('dialog', { name: 'Memory' });
  await within(panel).findByRole('combobox', { name: 'Whose memories' }, LOADS);
  await waitFor(() => expect(panel).toBeVisible());
  return panel;
}

/** Each memory shown, as its words and whose it is (its first tag). */
const shownIn = (panel: HTMLElement) =>
  within(panel)
    .getAllByRole('listitem')
    .map((item) => [item.querySelector('p')?.textContent, item.querySelector('span')?.textContent]);

/** Chooses whose memories to see by keyboard, as a person without a mouse would. */
async function choose(panel: HTMLElement, option: string) {
  const whose = within(panel).getByRole('combobox', { name: 'Whose memories' });
  whose.focus();
  await userEvent.keyboard('{Enter}');
  const body = within(panel.ownerDocument.body);
  const wanted = await body.findByRole('option', { name: option });
  // Up or down the list to the option (the one chosen is highlighted first), then Enter.
  const options = body.getAllByRole('option');
  const from = options.findIndex((o) => o.hasAttribute('data-highlighted'));
  const key = options.indexOf(wanted) < from ? '{ArrowUp}' : '{ArrowDown}';
  for (let step = 0; step < options.length && !wanted.hasAttribute('data-highlighted'); step += 1)
    await userEvent.keyboard(key);
  await userEvent.keyboard('{Enter}');
  await waitFor(() => expect(whose).toHaveTextContent(option));
}

const all = groupMemoryServer(createGroupMemoriesFixture());

/**
 * A group's memories: the story so far and what everyone heard are shared; each member keeps
 * its own, and each memory says whose it is.
 */
export const GroupMemories: Story = {
  parameters: { app, msw: { handlers: api(...all.handlers) } },
  loaders: [all.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    await expect(within(panel).getByRole('combobox', { name: 'Whose memories' })).toHaveTextContent(
      'All memories',
    );
    const shown = shownIn(panel);
    await expect(shown).toHaveLength(8);
    await expect(shown).toContainEqual(['Ada arrived soaked from the storm.', 'Shared']);
    await expect(shown).toContainEqual([
      'Ada promised to show her the old lighthouse maps.',
      `${LYRA}’s own`,
    ]);
    await expect(shown).toContainEqual(['Ada likes her stew with extra pepper.', `${KAI}’s own`]);
    // "Remember me across chats" is each mate's own, explained rather than offered.
    await expect(within(panel).queryByRole('switch')).toBeNull();
  },
};

const oneMate = groupMemoryServer(createGroupMemoriesFixture());

/** What one member remembers, chosen by keyboard: the shared memories and its own, no other's. */
export const WhatOneMateRemembers: Story = {
  parameters: { app, msw: { handlers: api(...oneMate.handlers) } },
  loaders: [oneMate.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    await choose(panel, `What ${KAI} remembers`);
    const owners = shownIn(panel).map(([, owner]) => owner);
    await expect(owners).toEqual(['Shared', 'Shared', `${KAI}’s own`, `${KAI}’s own`]);
    await choose(panel, 'Shared by the group');
    await expect(shownIn(panel).map(([, owner]) => owner)).toEqual(['Shared', 'Shared']);
  },
};

const speaking = groupMemoryServer(createGroupMemoriesFixture());

/**
 * In a group the panel speaks of the group's mates, not of the group's name as one speaker: the
 * last reply's prompt is the last speaker's, and forgetting a member's own memory names that
 * member.
 */
export const GroupMemoryNamesItsMates: Story = {
  parameters: { app, msw: { handlers: api(...speaking.handlers) } },
  loaders: [speaking.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    await expect(panel).toHaveAccessibleDescription(
      'What the mates of this group remember of this chat.',
    );
    await expect(
      within(panel).getByRole('button', { name: 'What the last reply was written from' }),
    ).toBeVisible();
    const kais = within(panel)
      .getAllByRole('listitem')
      .find((item) => item.textContent?.includes('Ada likes her stew with extra pepper.'))!;
    await userEvent.click(within(kais).getByRole('button', { name: 'Delete' }));
    const body = within(canvasElement.ownerDocument.body);
    const confirm = await body.findByRole('dialog', { name: 'Forget this memory?' });
    await expect(confirm).toHaveTextContent(`${KAI} will no longer remember it.`);
  },
};

const nothingShared = groupMemoryServer(
  createGroupMemoriesFixture({
    memories: createGroupMemoriesFixture().memories.filter((memory) => memory.mateId !== null),
  }),
);

/** A choice with nothing in it says so, the panel's other memories still there to choose. */
export const NothingSharedYet: Story = {
  parameters: { app, msw: { handlers: api(...nothingShared.handlers) } },
  loaders: [nothingShared.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    await choose(panel, 'Shared by the group');
    await expect(within(panel).getByText('No memories to show here yet.')).toBeVisible();
    await expect(within(panel).queryAllByRole('listitem')).toEqual([]);
  },
};

const adding = groupMemoryServer(createGroupMemoriesFixture());

/**
 * Adding a memory in a group: it is the member being looked at's, unless the person gives it
 * to the whole group or to another member.
 */
export const AddAMemoryForOneMate: Story = {
  parameters: { app, msw: { handlers: api(...adding.handlers) } },
  loaders: [adding.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    await choose(panel, `What ${KAI} remembers`);
    await userEvent.click(within(panel).getByRole('button', { name: 'Add a memory' }));
    const field = within(panel).getByRole('textbox', { name: 'New memory' });
    await expect(field).toHaveFocus();
    await expect(within(panel).getByRole('combobox', { name: 'Whose memory' })).toHaveTextContent(
      KAI,
    );
    await userEvent.type(field, 'I hate pepper, whatever he says.');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(shownIn(panel)).toContainEqual(['I hate pepper, whatever he says.', `${KAI}’s own`]),
    );
    // Then one for the whole group.
    await userEvent.click(within(panel).getByRole('button', { name: 'Add a memory' }));
    await userEvent.type(
      within(panel).getByRole('textbox', { name: 'New memory' }),
      'The storm lasted three days.',
    );
    await userEvent.click(within(panel).getByRole('combobox', { name: 'Whose memory' }));
    await userEvent.click(
      await within(canvasElement.ownerDocument.body).findByRole('option', {
        name: 'The whole group',
      }),
    );
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(shownIn(panel)).toContainEqual(['The storm lasted three days.', 'Shared']),
    );
    await expect(adding.calls).toEqual([
      {
        roomId: 'room-group',
        content: 'I hate pepper, whatever he says.',
        about: 'person',
        mateId: 'mate-2',
      },
      {
        roomId: 'room-group',
        content: 'The storm lasted three days.',
        about: 'person',
        mateId: null,
      },
    ]);
  },
};
