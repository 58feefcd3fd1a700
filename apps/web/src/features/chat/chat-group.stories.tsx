import type { Meta, StoryObj } from '@storybook/react-vite';
import { http } from 'msw';
import type { ChatSendPayload, RoomGroup, RoomInfo } from '@mates/api-client';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  createGroupMemberFixture,
  createGroupRoomInfoFixture,
  createMessageFixture,
  createRoomGroupFixture,
  mockChatStream,
  mockEndpoint,
  mockEndpointError,
} from '@mates/api-client/msw';
import { api, screenStories } from '../../testing/story-app';

const meta = { title: 'Screens/Chat/Group', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const room = '/chat-detail?roomId=room-group';
const LOADS = { timeout: 5000 };

/** The group's room as the server keeps it, for every read of it. */
const groupRoom = (info: RoomInfo = createGroupRoomInfoFixture()) =>
  mockEndpoint('/room/roomInfo', () => ({
    ...info,
    room: { ...info.room, roomId: 'room-group' },
  }));
/** A group of the three sample mates, with changes. */
const groupOf = (overrides: Partial<RoomGroup> = {}) => createRoomGroupFixture(overrides);
/** The group's room, its group the sample one with `changes`. */
const groupRoomWith = (changes: Partial<RoomGroup>) =>
  groupRoom(createGroupRoomInfoFixture({}, groupOf(changes)));

// What the chat sent, for the stories that check it (cleared by each one's loader).
const sent: ChatSendPayload[] = [];
const recordSends = http.post('*/api/girl/chat/send', async ({ request }) => {
  sent.push((await request.clone().json()) as ChatSendPayload);
});

/** A group chat: each reply under its writer's name and portrait, the group's name on top. */
export const GroupChat: Story = {
  parameters: { app: { path: room, signedIn: true }, msw: { handlers: api(groupRoom()) } },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' }, LOADS);
    await expect(log).toHaveAttribute('aria-live', 'polite');
    const articles = within(log).getAllByRole('article');
    await expect(articles.map((article) => article.getAttribute('aria-label'))).toEqual([
      'Lyra Moonwhisper says',
      'You say',
      'Kai Tanaka says',
      'Captain Ione Vask says',
    ]);
    await expect(within(articles[2]!).getByText('Kai Tanaka')).toBeVisible();
    await expect(
      canvas.getByRole('heading', { level: 1, name: 'Lyra, Kai, Captain' }),
    ).toBeVisible();
    await expect(
      canvas.getByRole('img', {
        name: 'Lyra, Kai, Captain: Lyra Moonwhisper, Kai Tanaka, and Captain Ione Vask',
      }),
    ).toBeVisible();
    // What a reply costs is said before anything is sent.
    await expect(canvas.getByText(/Each mate’s reply is charged as one chat/)).toBeVisible();
    const goOn = canvas.getByRole('group', { name: 'Let the mates go on' });
    await expect(within(goOn).getAllByRole('button')).toHaveLength(4);
    await expect(canvas.getByRole('button', { name: 'Let Kai Tanaka speak' })).toHaveAttribute(
      'aria-disabled',
      'false',
    );
  },
};

/**
 * On a phone, a long group name keeps to one line beside the header's buttons, cut short with
 * "…" (the whole name is still the heading's text): it wrapped onto four lines, its first
 * clipped off the top, and ran under the Call button.
 */
export const LongNameOnAPhone: Story = {
  globals: { viewport: { value: 'mobile2', isRotated: false } },
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        groupRoomWith({ name: 'Juno, The Gardener, Grimsby and the Lighthouse Keepers' }),
      ),
    },
  },
  play: async ({ canvas }) => {
    await canvas.findByRole('log', { name: 'Conversation' }, LOADS);
    const heading = canvas.getByRole('heading', {
      level: 1,
      name: 'Juno, The Gardener, Grimsby and the Lighthouse Keepers',
    });
    const box = heading.getBoundingClientRect();
    const lineHeight = parseFloat(getComputedStyle(heading).lineHeight);
    await expect(box.height).toBeLessThan(lineHeight * 1.5);
    await expect(box.top).toBeGreaterThanOrEqual(0);
    const after = [
      canvas.queryByRole('button', { name: /^Call/ }),
      canvas.getByRole('button', { name: 'More' }),
    ];
    for (const button of after)
      if (button) await expect(box.right).toBeLessThanOrEqual(button.getBoundingClientRect().left);
  },
};

/** Branches of a group chat are said to be the group's paths, not its first member's chat. */
export const GroupBranches: Story = {
  parameters: { app: { path: room, signedIn: true }, msw: { handlers: api(groupRoom()) } },
  play: async ({ canvas, canvasElement }) => {
    await canvas.findByRole('log', { name: 'Conversation' }, LOADS);
    const open = canvas
      .getAllByRole('button', { name: 'Branches' })
      .find((b) => b.checkVisibility());
    await userEvent.click(open!);
    const panel = await within(canvasElement.ownerDocument.body).findByRole('dialog', {
      name: 'Branches',
    });
    await expect(panel).toHaveAccessibleDescription(
      /^Every path of the group chat Lyra, Kai, Captain\./,
    );
  },
};

/** A new group: nothing said yet, the mates wait for the first message. */
export const EmptyGroup: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: { handlers: api(groupRoom(createGroupRoomInfoFixture({ messages: [] }))) },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' }, LOADS);
    await expect(within(log).queryAllByRole('article')).toHaveLength(0);
    await expect(
      within(log).getByText('Write the first message: the mates answer in turn.'),
    ).toBeVisible();
  },
};

/**
 * A message, then two mates answer in turn in one stream: each reply streams under its
 * writer's name ("writing…" while it does), the first stays when the second begins.
 */
export const ATurnOfTwoSpeakers: Story = {
  loaders: [() => void (sent.length = 0)],
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        groupRoom(),
        recordSends,
        mockChatStream({
          delayMs: 150,
          speakers: [
            { speakerId: 'mate-2', reply: 'Ready when the storm is, Ada.' },
            { speakerId: 'mate-3', reply: 'Then we eat at dawn.' },
          ],
        }),
      ),
    },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' }, LOADS);
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Kai, the stew?');
    await userEvent.click(canvas.getByRole('button', { name: 'Send' }));
    await expect(await within(log).findByText('Kai, the stew?')).toBeVisible();
    // Kai writes first, named over the reply while it arrives; Stop is offered meanwhile.
    await waitFor(() => expect(log).toHaveTextContent('Ready when'));
    await expect(within(log).getByText('· writing…')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Stop' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: /^Continue/ })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    // Then the Captain; Kai's reply stays, whole.
    await waitFor(() => expect(log).toHaveTextContent('Then we'), LOADS);
    await expect(log).toHaveTextContent('Ready when the storm is, Ada.');
    const captain = within(log).getAllByRole('article', { name: 'Captain Ione Vask says' });
    await expect(captain.at(-1)).toHaveTextContent('Then we');
    await expect(sent).toEqual([{ roomId: 'room-group', content: 'Kai, the stew?' }]);
  },
};

// What the voice player did, in order, for the story that checks it (cleared by its loader).
const heard: string[] = [];
const recordVoiceLinks = http.post('*/api/speech/link', async ({ request }) => {
  heard.push(`link ${((await request.clone().json()) as { messageId: string }).messageId}`);
});

/**
 * "Speak replies aloud" in a group: each speaker's reply is heard in turn, the second only once
 * the first has been heard to its end, though it ended while the first was still being spoken.
 */
export const SpeakingEachSpeakerInTurn: Story = {
  loaders: [() => void (heard.length = 0)],
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        groupRoom(),
        recordVoiceLinks,
        mockChatStream({
          delayMs: 20,
          speakers: [
            { speakerId: 'mate-2', reply: 'Ready when the storm is, Ada.' },
            { speakerId: 'mate-3', reply: 'Then we eat at dawn.' },
          ],
        }),
      ),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    const speak = await canvas.findByRole('switch', { name: 'Speak replies aloud' }, LOADS);
    const audio = canvasElement.ownerDocument.querySelector('audio[data-voice-player]')!;
    const ended = () => heard.push('ended');
    audio.addEventListener('ended', ended);
    try {
      await userEvent.click(speak);
      await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Kai, the stew?');
      await userEvent.click(canvas.getByRole('button', { name: 'Send' }));
      // Each clip lasts 1.2 s; both replies are written long before the first has been heard.
      await waitFor(() => expect(heard).toHaveLength(4), { timeout: 8000 });
      await expect(heard).toEqual(['link msg-reply-1', 'ended', 'link msg-reply-2', 'ended']);
    } finally {
      audio.removeEventListener('ended', ended);
    }
  },
};

/**
 * Stop, while the second speaker writes: the turn ends there, the composer is ready again, and
 * what the speaker had written stays under its name while the server saves it.
 */
export const StopMidTurn: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        groupRoom(),
        mockChatStream({
          delayMs: 250,
          speakers: [
            { speakerId: 'mate-2', reply: 'Soon.' },
            { speakerId: 'mate-3', reply: 'alpha beta gamma delta epsilon zeta eta theta iota' },
          ],
        }),
      ),
    },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' }, LOADS);
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Stew?');
    await userEvent.click(canvas.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(log).toHaveTextContent('alpha beta'), LOADS);
    await userEvent.click(canvas.getByRole('button', { name: 'Stop' }));
    await expect(await canvas.findByRole('button', { name: 'Send' })).toBeVisible();
    await expect(log).not.toHaveTextContent('iota');
    const captain = within(log).getAllByRole('article', { name: 'Captain Ione Vask says' });
    await expect(captain.at(-1)).toHaveTextContent('alpha beta');
    await expect(canvas.getByRole('button', { name: /^Continue/ })).toHaveAttribute(
      'aria-disabled',
      'false',
    );
  },
};

/** Continue asks for one more reply by whoever is next; it streams under its writer. */
export const Continue: Story = {
  loaders: [() => void (sent.length = 0)],
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        groupRoom(),
        recordSends,
        mockChatStream({ speakers: [{ speakerId: 'mate-1', reply: 'Another round, then!' }] }),
      ),
    },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' }, LOADS);
    await userEvent.click(
      canvas.getByRole('button', {
        name: 'Continue: one more reply, without a message of yours',
      }),
    );
    await waitFor(() => expect(log).toHaveTextContent('Another round, then!'));
    await expect(sent).toEqual([{ roomId: 'room-group', next: true }]);
  },
};

/**
 * Manual order: nobody answers on their own, the page says so, and "Let X speak" (reached by
 * keyboard) has that mate answer.
 */
export const ManualOrder: Story = {
  loaders: [() => void (sent.length = 0)],
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        groupRoomWith({ turnOrder: 'manual' }),
        recordSends,
        mockChatStream({ speakers: [{ speakerId: 'mate-3', reply: 'Aye, I will speak.' }] }),
      ),
    },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' }, LOADS);
    await expect(
      canvas.getByText('Nobody answers on their own here: let a mate speak.'),
    ).toBeVisible();
    const captain = canvas.getByRole('button', { name: 'Let Captain Ione Vask speak' });
    captain.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(log).toHaveTextContent('Aye, I will speak.'));
    await expect(sent).toEqual([{ roomId: 'room-group', next: true, speakerId: 'mate-3' }]);
  },
};

/**
 * Opened again (a reload, another tab) after ten "Continue"s in a row: the mates wait for the
 * person, as the server counted, not as this page would have from none.
 */
export const EnoughContinuesAlready: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(groupRoomWith({ continuesInRow: 10 })),
    },
  },
  play: async ({ canvas }) => {
    await canvas.findByRole('log', { name: 'Conversation' }, LOADS);
    await expect(
      await canvas.findByText('The mates wait for you to write before going on.'),
    ).toBeVisible();
    await expect(canvas.getByRole('button', { name: /^Continue/ })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
  },
};

/** A message nobody answers on their own (every member muted, say): the page says to let one speak. */
export const NobodyAnswers: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(groupRoomWith({ turnOrder: 'list' }), mockChatStream({ speakers: [] })),
    },
  },
  play: async ({ canvas }) => {
    await canvas.findByRole('log', { name: 'Conversation' }, LOADS);
    await expect(canvas.queryByText(/Nobody answers on their own/)).toBeNull();
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Hello?');
    await userEvent.click(canvas.getByRole('button', { name: 'Send' }));
    const said = await canvas.findByText(
      'Nobody answers on their own here: let a mate speak.',
      {},
      LOADS,
    );
    await expect(said).toHaveAttribute('role', 'status');
    await expect(canvas.getByRole('button', { name: 'Let Kai Tanaka speak' })).toHaveAttribute(
      'aria-disabled',
      'false',
    );
  },
};

/** A muted member: marked on its "Let … speak" button, its switch on in the members sheet. */
export const MutedMember: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        groupRoomWith({
          members: [
            createGroupMemberFixture({}, 0),
            createGroupMemberFixture({}, 1),
            createGroupMemberFixture({ muted: true, talkativeness: 0.2 }, 2),
          ],
        }),
      ),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    await canvas.findByRole('log', { name: 'Conversation' }, LOADS);
    await expect(
      canvas.getByRole('button', { name: 'Let Captain Ione Vask speak (muted)' }),
    ).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Members' }));
    const sheet = within(canvasElement.ownerDocument.body).getByRole('dialog', {
      name: 'The group',
    });
    await expect(
      within(sheet).getByRole('switch', { name: 'Mute Captain Ione Vask' }),
    ).toBeChecked();
    await expect(within(sheet).getByRole('switch', { name: 'Mute Kai Tanaka' })).not.toBeChecked();
    await expect(
      within(sheet).getByRole('combobox', { name: 'How readily Captain Ione Vask speaks' }),
    ).toHaveTextContent('Rarely');
  },
};

/**
 * A member the person's own adult-content setting hides: no "Let … speak" for it (the server
 * would refuse), and the members sheet says why it is quiet, with nothing to tune.
 */
export const HiddenMember: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        groupRoomWith({
          members: [
            createGroupMemberFixture({}, 0),
            createGroupMemberFixture({}, 1),
            createGroupMemberFixture({ hidden: true }, 2),
          ],
        }),
      ),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    await canvas.findByRole('log', { name: 'Conversation' }, LOADS);
    const goOn = canvas.getByRole('group', { name: 'Let the mates go on' });
    await expect(within(goOn).getByRole('button', { name: 'Let Kai Tanaka speak' })).toBeVisible();
    await expect(within(goOn).queryByRole('button', { name: /Captain Ione Vask/ })).toBeNull();
    await userEvent.click(canvas.getByRole('button', { name: 'Members' }));
    const sheet = within(canvasElement.ownerDocument.body).getByRole('dialog', {
      name: 'The group',
    });
    const members = within(sheet).getByRole('list', { name: 'Members' });
    const ione = within(members)
      .getAllByRole('listitem')
      .find((item) => item.textContent?.includes('Captain Ione Vask'))!;
    await expect(ione).toHaveTextContent(
      'Hidden by your adult-content setting: quiet until you turn it on.',
    );
    await expect(
      within(sheet).queryByRole('switch', { name: 'Mute Captain Ione Vask' }),
    ).toBeNull();
    await expect(within(sheet).getByRole('switch', { name: 'Mute Kai Tanaka' })).toBeVisible();
  },
};

const TIMES = ['2026-11-20T18:00:00.000Z', '2026-11-20T18:10:00.000Z', '2026-11-20T18:20:00.000Z'];

/**
 * A member that left and one that joined midway: notes between the messages by time, and the
 * reply of the one that left keeps its name and portrait.
 */
export const AMemberLeft: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        groupRoom(
          createGroupRoomInfoFixture(
            {
              messages: [
                createMessageFixture({
                  messageId: 'msg-1',
                  speakerId: 'mate-3',
                  content: 'I must sail at first light.',
                  createdAt: TIMES[0],
                }),
                createMessageFixture({
                  messageId: 'msg-2',
                  role: 'user',
                  content: 'Fair winds, Captain.',
                  createdAt: TIMES[1],
                }),
                createMessageFixture({
                  messageId: 'msg-3',
                  speakerId: 'mate-4',
                  content: 'Is this seat taken?',
                  createdAt: TIMES[2],
                }),
              ],
            },
            groupOf({
              members: [
                createGroupMemberFixture({}, 0),
                createGroupMemberFixture({}, 1),
                createGroupMemberFixture({ joinedAt: '2026-11-20T18:15:00.000Z' }, 3),
                createGroupMemberFixture({ leftAt: '2026-11-20T18:05:00.000Z' }, 2),
              ],
            }),
          ),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' }, LOADS);
    const captain = within(log).getByRole('article', { name: 'Captain Ione Vask says' });
    await expect(within(captain).getByText('· left the group')).toBeVisible();
    const left = within(log).getByText('Captain Ione Vask left the group');
    const joined = within(log).getByText('Rowan Ashdown joined the group');
    // In time order: the Captain's reply, the leave, the person's message, the join, Rowan's.
    const order = [captain, left, within(log).getByText('Fair winds, Captain.'), joined];
    for (const [index, element] of order.slice(1).entries())
      await expect(
        order[index]!.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING,
      ).toBeTruthy();
    // Those that left cannot be let speak.
    await expect(canvas.queryByRole('button', { name: /^Let Captain/ })).toBeNull();
    await expect(canvas.getByRole('button', { name: 'Let Rowan Ashdown speak' })).toBeVisible();
  },
};

/** A reply that failed: said under its writer's name, and it can be written again. */
export const AReplyFailed: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        groupRoom(
          createGroupRoomInfoFixture({
            messages: [
              ...createGroupRoomInfoFixture().messages.slice(0, 3),
              createMessageFixture({
                messageId: 'msg-4',
                speakerId: 'mate-3',
                content: '',
                status: 'error',
              }),
            ],
          }),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' }, LOADS);
    const failed = within(log).getByRole('article', { name: 'Captain Ione Vask says' });
    await expect(within(failed).getByText('This reply failed.')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Regenerate reply' })).toBeVisible();
  },
};

/** The group could not be read: the chat says so and offers a way on. */
export const LoadFailed: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: { handlers: api(mockEndpointError('/room/roomInfo', 5001, 'The server failed.')) },
  },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByRole('heading', { name: 'This chat could not be loaded' }, LOADS),
    ).toBeVisible();
  },
};

/** On a small phone (320 × 568): the group's controls wrap, nothing runs off the side. */
export const Phone: Story = {
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  parameters: { app: { path: room, signedIn: true }, msw: { handlers: api(groupRoom()) } },
  play: async ({ canvas, canvasElement }) => {
    const view = canvasElement.ownerDocument.defaultView!;
    await canvas.findByRole('log', { name: 'Conversation' }, LOADS);
    const goOn = canvas.getByRole('group', { name: 'Let the mates go on' });
    for (const button of within(goOn).getAllByRole('button')) {
      const box = button.getBoundingClientRect();
      await expect(box.left).toBeGreaterThanOrEqual(0);
      await expect(box.right).toBeLessThanOrEqual(view.innerWidth);
    }
    await expect(canvas.getByRole('img', { name: /^Lyra, Kai, Captain:/ })).toBeVisible();
    await expect(canvasElement.ownerDocument.documentElement.scrollWidth).toBeLessThanOrEqual(
      view.innerWidth,
    );
  },
};

/** "Invite a mate" in a one-to-one chat: a new group, this chat's mate already in it. */
export const InviteFromAChat: Story = {
  parameters: { app: { path: '/chat-detail?roomId=room-1', signedIn: true } },
  play: async ({ canvas, canvasElement }) => {
    await canvas.findByRole('log', { name: 'Conversation' }, LOADS);
    await userEvent.click(canvas.getByRole('button', { name: 'Invite a mate' }));
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('dialog', {
      name: 'New group chat',
    });
    await expect(
      within(dialog).getByRole('list', { name: 'In the group: 1 of 6' }),
    ).toHaveTextContent('Lyra Moonwhisper');
    // No group controls in a one-to-one chat.
    await expect(canvas.queryByRole('group', { name: 'Let the mates go on' })).toBeNull();
  },
};
