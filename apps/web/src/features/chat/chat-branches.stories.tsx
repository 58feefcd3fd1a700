import type { Meta, StoryObj } from '@storybook/react-vite';
import type { HttpHandler } from 'msw';
import type { Branch, BranchPayload, ChatExportFormat, Message } from '@mates/api-client';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  createBranchFixture,
  createMessageFixture,
  createPageFixture,
  createRoomBranchesFixture,
  createRoomFixture,
  createRoomInfoFixture,
  createRoomSummaryFixture,
  mockEndpoint,
  mockEndpointError,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import {
  api,
  expectNotice,
  screenStories,
  slowCalls,
  type StoryApp,
} from '../../testing/story-app';

const meta = { title: 'Screens/Chat/Branches', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const app = { path: '/chat-detail?roomId=room-1', signedIn: true };

const EXTENSIONS = { json: 'json', markdown: 'md', jsonl: 'jsonl' } as const;

/** The first path's messages, and each branch's copies of them (`-b`, `-c`) and what follows. */
function messagesOf(roomId: string, suffix: string, extra: Partial<Message>[]): Message[] {
  const first = createRoomInfoFixture().messages;
  const upTo = suffix === '-b' || suffix === '-c' ? 2 : first.length;
  return [
    ...first.slice(0, upTo).map((message) => ({
      ...message,
      roomId,
      messageId: `${message.messageId}${suffix}`,
    })),
    ...extra.map((message, index) =>
      createMessageFixture({ roomId, messageId: `msg-${upTo + index + 1}${suffix}`, ...message }),
    ),
  ];
}

const START_MESSAGES: Record<string, Message[]> = {
  'room-1': createRoomInfoFixture().messages,
  'room-2': messagesOf('room-2', '-b', [
    { content: 'A storm is coming in.' },
    { role: 'user', content: 'Then let us take the boat out tonight, storm or not.' },
  ]),
  'room-3': messagesOf('room-3', '-c', []),
};

/**
 * A chat's paths as a server keeps them, for one story: "Branch from here" makes a path of
 * copies (`room-4`, its copies ending in `-d`), a deleted path is gone (its branches stay, their
 * parent `null`), and `calls` records what was asked, in order.
 */
function branchServer(start: Branch[]) {
  let branches = [...start];
  let messages = { ...START_MESSAGES };
  const calls: { path: string; body: unknown }[] = [];
  /** Back to `start`, nothing asked yet: the story's loader, so that each run starts afresh. */
  const reset = () => {
    branches = [...start];
    messages = { ...START_MESSAGES };
    calls.length = 0;
  };
  const handlers: HttpHandler[] = [
    mockEndpoint('/room/roomInfo', ({ query }) => {
      const roomId = query.roomId ?? 'room-1';
      return createRoomInfoFixture({
        room: createRoomFixture({ roomId }),
        messages: messages[roomId] ?? [],
      });
    }),
    mockEndpoint('/room/branches', ({ query }) => ({
      roomId: query.roomId ?? 'room-1',
      branches: [...branches],
    })),
    mockEndpoint('/room/branch', ({ body }) => {
      const { roomId, messageId } = body as BranchPayload;
      calls.push({ path: 'branch', body });
      const source = messages[roomId] ?? [];
      const copies = source
        .slice(0, source.findIndex((message) => message.messageId === messageId) + 1)
        .map((message) => ({ ...message, roomId: 'room-4', messageId: `${message.messageId}-d` }));
      messages = { ...messages, 'room-4': copies };
      branches = [
        ...branches,
        createBranchFixture({
          roomId: 'room-4',
          fork: { parentRoomId: roomId, parentMessageId: messageId, messageId: `${messageId}-d` },
          messageCount: copies.length,
          preview: copies.at(-1)?.content ?? '',
          createdAt: new Date().toISOString(),
          updatedAt: new Date().toISOString(),
        }),
      ];
      return createRoomFixture({ roomId: 'room-4' });
    }),
    mockEndpoint('/room/deleteRoom', ({ query }) => {
      calls.push({ path: 'deleteRoom', body: query });
      branches = branches
        .filter((branch) => branch.roomId !== query.roomId)
        .map((branch) =>
          branch.fork && branch.fork.parentRoomId === query.roomId
            ? { ...branch, fork: { ...branch.fork, parentRoomId: null } }
            : branch,
        );
      return null;
    }),
    mockEndpoint('/room/exportChat', ({ query }) => {
      calls.push({ path: 'exportChat', body: query });
      const format = query.format as ChatExportFormat;
      return {
        fileName: `Lyra Moonwhisper - 2026-11-20.${EXTENSIONS[format]}`,
        mimeType: format === 'markdown' ? 'text/markdown' : `application/${format}`,
        content: format === 'markdown' ? '# Lyra Moonwhisper\n' : '{}\n',
      };
    }),
  ];
  return { handlers, calls, reset };
}

/** The conversation, once its messages are there. */
async function conversation(canvasElement: HTMLElement) {
  return within(await within(canvasElement).findByRole('log', { name: 'Conversation' }));
}

/** Opens the Branches view from the chat's header (its menu on a phone); gives the view. */
async function openBranches(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await canvas.findByRole('log', { name: 'Conversation' });
  const more = canvas.queryByRole('button', { name: 'More' });
  if (more && more.checkVisibility()) await userEvent.click(more);
  const open = canvas.getAllByRole('button', { name: 'Branches' }).find((b) => b.checkVisibility());
  await userEvent.click(open!);
  const panel = await within(canvasElement.ownerDocument.body).findByRole('dialog', {
    name: 'Branches',
  });
  await waitFor(() => expect(panel).toBeVisible());
  return panel;
}

/** The path the app shows now. */
const roomOf = (app: StoryApp) =>
  new URLSearchParams(app.router.state.location.search).get('roomId');

const alone = branchServer([createBranchFixture()]);

/** A chat of one path: no switcher; each message offers "Branch from here". */
export const NoBranches: Story = {
  parameters: { app, msw: { handlers: api(...alone.handlers) } },
  loaders: [alone.reset],
  play: async ({ canvasElement }) => {
    const log = await conversation(canvasElement);
    await waitFor(() =>
      expect(log.getAllByRole('button', { name: 'Branch from here' })).toHaveLength(3),
    );
    await expect(log.queryByRole('group', { name: /^Branch \d of \d$/ })).toBeNull();
    await expect(log.queryByRole('button', { name: 'Next branch' })).toBeNull();
  },
};

const forked = branchServer(createRoomBranchesFixture().branches);

/**
 * Three paths meet at the second message: its switcher says the first of three; the other
 * messages have none.
 */
export const AForkOfThreePaths: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(
        ...forked.handlers,
        mockEndpoint('/room/roomList', () =>
          createPageFixture([createRoomSummaryFixture({ branchCount: 3 })]),
        ),
      ),
    },
  },
  loaders: [forked.reset],
  play: async ({ canvasElement }) => {
    const log = await conversation(canvasElement);
    const switcher = await log.findByRole('group', { name: 'Branch 1 of 3' });
    await expect(switcher).toHaveTextContent('1 / 3');
    // The person's chats beside it say how many paths this one has.
    const chats = await within(canvasElement).findByRole('list', { name: 'Your chats' });
    await waitFor(() => expect(chats).toHaveTextContent('3 branches'));
    await expect(log.getAllByRole('group', { name: /^Branch/ })).toHaveLength(1);
    // Beside the message the paths share.
    const message = log.getByText('I brought the map you asked about.');
    await expect(
      message.compareDocumentPosition(switcher) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    await expect(within(switcher).getByRole('button', { name: 'Previous branch' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await expect(within(switcher).getByRole('button', { name: 'Next branch' })).toHaveAttribute(
      'aria-disabled',
      'false',
    );
  },
};

const moving = branchServer(createRoomBranchesFixture().branches);

/**
 * Next and Previous open the other paths' chats (the room in the address changes); the
 * switcher there keeps the focus and says where the person is.
 */
export const MoveBetweenBranches: Story = {
  parameters: { app, msw: { handlers: api(...moving.handlers) } },
  loaders: [moving.reset],
  play: async ({ canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const canvas = within(canvasElement);
    const next = async () => {
      const log = await conversation(canvasElement);
      await userEvent.click(await log.findByRole('button', { name: 'Next branch' }));
    };
    await next();
    await waitFor(() => expect(roomOf(app)).toBe('room-2'));
    let switcher = await canvas.findByRole('group', { name: 'Branch 2 of 3' });
    await waitFor(() =>
      expect(within(switcher).getByRole('button', { name: 'Next branch' })).toHaveFocus(),
    );
    // The path of the second branch, where it goes on by itself.
    await expect(
      await canvas.findByText('Then let us take the boat out tonight, storm or not.'),
    ).toBeVisible();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(roomOf(app)).toBe('room-3'));
    switcher = await canvas.findByRole('group', { name: 'Branch 3 of 3' });
    const last = within(switcher).getByRole('button', { name: 'Next branch' });
    await waitFor(() => expect(last).toHaveFocus());
    await expect(last).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(within(switcher).getByRole('button', { name: 'Previous branch' }));
    await waitFor(() => expect(roomOf(app)).toBe('room-2'));
    await userEvent.click(
      within(await canvas.findByRole('group', { name: 'Branch 2 of 3' })).getByRole('button', {
        name: 'Previous branch',
      }),
    );
    await waitFor(() => expect(roomOf(app)).toBe('room-1'));
    switcher = await canvas.findByRole('group', { name: 'Branch 1 of 3' });
    await waitFor(() =>
      expect(within(switcher).getByRole('button', { name: 'Previous branch' })).toHaveFocus(),
    );
  },
};

const branching = branchServer([createBranchFixture()]);

/**
 * "Branch from here" on the last message makes a new path and opens it, says so, and the new
 * path's switcher stands at that message: the second of two.
 */
export const BranchFromAMessage: Story = {
  parameters: { app, msw: { handlers: api(...branching.handlers) } },
  loaders: [branching.reset],
  play: async ({ canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const log = await conversation(canvasElement);
    const buttons = await log.findAllByRole('button', { name: 'Branch from here' });
    buttons[2]!.focus();
    await userEvent.keyboard('{Enter}');
    await expectNotice(canvasElement, 'New branch: you are on it. The other path is kept.');
    await expect(branching.calls).toEqual([
      { path: 'branch', body: { roomId: 'room-1', messageId: 'msg-3' } },
    ]);
    await waitFor(() => expect(roomOf(app)).toBe('room-4'));
    const switcher = await within(canvasElement).findByRole('group', { name: 'Branch 2 of 2' });
    await expect(within(switcher).getByRole('button', { name: 'Next branch' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
  },
};

const refused = branchServer([createBranchFixture()]);

/** A branch the server could not make: said in a notice, and the chat stays where it was. */
export const BranchFailed: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpointError('/room/branch', 5000, 'The chat could not be copied.'),
        ...refused.handlers,
      ),
    },
  },
  loaders: [refused.reset],
  play: async ({ canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const log = await conversation(canvasElement);
    const [first] = await log.findAllByRole('button', { name: 'Branch from here' });
    await userEvent.click(first!);
    await expectNotice(canvasElement, 'The chat could not be copied.');
    await expect(roomOf(app)).toBe('room-1');
    await expect(first).toHaveFocus();
  },
};

const viewing = branchServer(createRoomBranchesFixture().branches);

/**
 * The Branches view: every path as a tree, the branches under the path they came from, each
 * with its preview, its messages and when it changed; the open one marked and not deletable.
 */
export const BranchesView: Story = {
  parameters: { app, msw: { handlers: api(...viewing.handlers) } },
  loaders: [viewing.reset],
  play: async ({ canvasElement }) => {
    const panel = await openBranches(canvasElement);
    await expect(panel).toHaveAccessibleDescription(
      'Every path of this chat with Lyra Moonwhisper. Each goes on by itself; deleting one leaves the others as they are.',
    );
    const all = await within(panel).findByRole('list', { name: '3 branches' });
    const current = within(all).getByRole('link', { current: 'page' });
    // It opens on the path open now, never on a "Delete branch".
    await waitFor(() => expect(current).toHaveFocus());
    await expect(current).toHaveTextContent('Branch 1, open now');
    await expect(current).toHaveTextContent('3 messages · changed');
    await expect(current).toHaveAttribute('href', '#/chat-detail?roomId=room-1');
    const nested = within(all).getByRole('list', { name: 'Branched from Branch 1' });
    const links = within(nested).getAllByRole('link');
    await expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '#/chat-detail?roomId=room-2',
      '#/chat-detail?roomId=room-3',
    ]);
    await expect(links[0]).toHaveTextContent(
      'Then let us take the boat out tonight, storm or not.',
    );
    await expect(links[1]).toHaveTextContent('2 messages');
    await expect(within(panel).queryByRole('button', { name: 'Delete Branch 1' })).toBeNull();
    await expect(within(panel).getByRole('button', { name: 'Delete Branch 2' })).toBeVisible();
    await expect(within(panel).getByRole('button', { name: 'Delete Branch 3' })).toBeVisible();
  },
};

const opening = branchServer(createRoomBranchesFixture().branches);

/** A path of the view opens its chat, and the view closes. */
export const OpenABranch: Story = {
  parameters: { app, msw: { handlers: api(...opening.handlers) } },
  loaders: [opening.reset],
  play: async ({ canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const panel = await openBranches(canvasElement);
    const nested = await within(panel).findByRole('list', { name: 'Branched from Branch 1' });
    await userEvent.click(within(nested).getAllByRole('link')[1]!);
    await waitFor(() => expect(roomOf(app)).toBe('room-3'));
    const body = within(canvasElement.ownerDocument.body);
    await waitFor(() => expect(body.queryByRole('dialog', { name: 'Branches' })).toBeNull());
    await within(canvasElement).findByRole('group', { name: 'Branch 3 of 3' });
  },
};

const deleting = branchServer(createRoomBranchesFixture().branches);

/**
 * Delete branch asks first; once confirmed, that path alone is gone and the list says so, and
 * the focus goes to the path listed before it (its own button has gone), not to the page.
 */
export const DeleteABranch: Story = {
  parameters: { app, msw: { handlers: api(...deleting.handlers) } },
  loaders: [deleting.reset],
  play: async ({ canvasElement }) => {
    const panel = await openBranches(canvasElement);
    await userEvent.click(await within(panel).findByRole('button', { name: 'Delete Branch 3' }));
    const body = within(canvasElement.ownerDocument.body);
    const confirm = await body.findByRole('dialog', { name: 'Delete Branch 3?' });
    await expect(confirm).toHaveTextContent(
      'Its messages are deleted for good. The other branches stay as they are.',
    );
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(body.queryByRole('dialog', { name: 'Delete Branch 3?' })).toBeNull(),
    );
    const all = await within(panel).findByRole('list', { name: '2 branches' });
    await expect(within(all).getAllByRole('link')).toHaveLength(2);
    await waitFor(() =>
      expect(within(all).getByRole('link', { name: /^Branch 2\b/ })).toHaveFocus(),
    );
    await expect(deleting.calls).toEqual([{ path: 'deleteRoom', body: { roomId: 'room-3' } }]);
    // The switcher at the fork now counts two paths.
    await within(canvasElement).findByRole('group', { name: 'Branch 1 of 2' }, { timeout: 4000 });
  },
};

const deletingOnce = branchServer(createRoomBranchesFixture().branches);
const deletes = slowCalls('get', '/room/deleteRoom');

/**
 * Delete pressed twice in the question while the server answers: the path is deleted once, and
 * no failure is said (a second delete would find it gone).
 */
export const DeleteABranchOnce: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(deletes.handler, ...deletingOnce.handlers),
    },
  },
  loaders: [deletingOnce.reset, deletes.reset],
  play: async ({ canvasElement }) => {
    const panel = await openBranches(canvasElement);
    await userEvent.click(await within(panel).findByRole('button', { name: 'Delete Branch 3' }));
    const body = within(canvasElement.ownerDocument.body);
    const confirm = await body.findByRole('dialog', { name: 'Delete Branch 3?' });
    const remove = within(confirm).getByRole('button', { name: 'Delete' });
    await userEvent.click(remove);
    await userEvent.click(remove);
    await within(panel).findByRole('list', { name: '2 branches' }, { timeout: 4000 });
    await expect(deletes.counted.asked).toBe(1);
    await expect(deletingOnce.calls).toEqual([{ path: 'deleteRoom', body: { roomId: 'room-3' } }]);
  },
};

const undeletable = branchServer(createRoomBranchesFixture().branches);

/** A delete the server refused: said in a notice; the path is still there, asked about. */
export const DeleteBranchFailed: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpointError('/room/deleteRoom', 5000, 'The branch could not be deleted.'),
        ...undeletable.handlers,
      ),
    },
  },
  loaders: [undeletable.reset],
  play: async ({ canvasElement }) => {
    const panel = await openBranches(canvasElement);
    await userEvent.click(await within(panel).findByRole('button', { name: 'Delete Branch 2' }));
    const body = within(canvasElement.ownerDocument.body);
    const confirm = await body.findByRole('dialog', { name: 'Delete Branch 2?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await expectNotice(canvasElement, 'The branch could not be deleted.');
    await expect(confirm).toBeVisible();
    // Behind the open question, hidden from the accessibility tree.
    await expect(
      within(panel).getByRole('list', { name: '3 branches', hidden: true }),
    ).toBeInTheDocument();
  },
};

const exporting = branchServer(createRoomBranchesFixture().branches);

/** Export in each format: each file the server wrote is saved under its own name. */
export const ExportEachFormat: Story = {
  parameters: { app, msw: { handlers: api(...exporting.handlers) } },
  loaders: [exporting.reset],
  play: async ({ canvasElement }) => {
    const document = canvasElement.ownerDocument;
    const saved: { name: string; href: string }[] = [];
    // Catch the download link's click: what would be saved, without saving it.
    const catchDownload = (event: MouseEvent) => {
      const link = event.target;
      if (!(link instanceof HTMLAnchorElement) || !link.download) return;
      event.preventDefault();
      saved.push({ name: link.download, href: link.href });
    };
    document.addEventListener('click', catchDownload, true);
    try {
      const panel = await openBranches(canvasElement);
      const section = within(
        await within(panel).findByRole('region', { name: 'Export this branch' }),
      );
      for (const name of ['JSON', 'Markdown', 'SillyTavern chat (.jsonl)']) {
        await userEvent.click(section.getByRole('button', { name }));
        await waitFor(() =>
          expect(section.getByRole('button', { name })).not.toHaveAttribute('aria-busy', 'true'),
        );
      }
      const said = await section.findByText('Saved Lyra Moonwhisper - 2026-11-20.jsonl.');
      await expect(said).toHaveAttribute('role', 'status');
      await waitFor(() => expect(saved).toHaveLength(3));
      await expect(saved.map((file) => file.name)).toEqual([
        'Lyra Moonwhisper - 2026-11-20.json',
        'Lyra Moonwhisper - 2026-11-20.md',
        'Lyra Moonwhisper - 2026-11-20.jsonl',
      ]);
      for (const file of saved) await expect(file.href).toMatch(/^blob:/);
      await expect(exporting.calls).toEqual(
        (['json', 'markdown', 'jsonl'] as const).map((format) => ({
          path: 'exportChat',
          body: { roomId: 'room-1', format },
        })),
      );
      // Said in the panel, not as a notice over it: a notice took the first Escape, and the
      // panel stayed open.
      await expect(
        section.getByRole('button', { name: 'SillyTavern chat (.jsonl)' }),
      ).toHaveFocus();
      await userEvent.keyboard('{Escape}');
      await waitFor(() => expect(within(document.body).queryByRole('dialog')).toBeNull());
    } finally {
      document.removeEventListener('click', catchDownload, true);
    }
  },
};

const exportingOnce = branchServer(createRoomBranchesFixture().branches);
const exports = slowCalls('get', '/room/exportChat');

/** JSON pressed twice while the server writes the file: it is saved once, not twice. */
export const ExportOnce: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(exports.handler, ...exportingOnce.handlers),
    },
  },
  loaders: [exportingOnce.reset, exports.reset],
  play: async ({ canvasElement }) => {
    const document = canvasElement.ownerDocument;
    const saved: string[] = [];
    const catchDownload = (event: MouseEvent) => {
      const link = event.target;
      if (!(link instanceof HTMLAnchorElement) || !link.download) return;
      event.preventDefault();
      saved.push(link.download);
    };
    document.addEventListener('click', catchDownload, true);
    try {
      const panel = await openBranches(canvasElement);
      const section = within(
        await within(panel).findByRole('region', { name: 'Export this branch' }),
      );
      const json = section.getByRole('button', { name: 'JSON' });
      await userEvent.click(json);
      await userEvent.click(json);
      await expectNotice(canvasElement, 'Saved Lyra Moonwhisper - 2026-11-20.json.');
      await expect(exports.counted.asked).toBe(1);
      await expect(saved).toEqual(['Lyra Moonwhisper - 2026-11-20.json']);
    } finally {
      document.removeEventListener('click', catchDownload, true);
    }
  },
};

/** While the paths load, the chat shows without a switcher and the view says it is loading. */
export const BranchesLoading: Story = {
  parameters: { app, msw: { handlers: api(mockEndpointLoading('/room/branches')) } },
  play: async ({ canvasElement }) => {
    const log = await conversation(canvasElement);
    await expect(log.queryByRole('group', { name: /^Branch/ })).toBeNull();
    const panel = await openBranches(canvasElement);
    await expect(within(panel).getByRole('status', { name: 'Loading' })).toBeInTheDocument();
  },
};

/** Paths that could not be loaded: the chat goes on without a switcher; the view says why. */
export const BranchesFailed: Story = {
  parameters: {
    app,
    msw: { handlers: api(mockEndpointError('/room/branches', 5000, 'The server is resting.')) },
  },
  play: async ({ canvasElement }) => {
    const log = await conversation(canvasElement);
    await expect(log.getAllByRole('button', { name: 'Branch from here' })).toHaveLength(3);
    await expect(log.queryByRole('group', { name: /^Branch/ })).toBeNull();
    const panel = await openBranches(canvasElement);
    const alert = await within(panel).findByRole('alert');
    await expect(alert).toHaveTextContent('The branches could not be loaded');
    await expect(alert).toHaveTextContent('The server is resting.');
    await expect(within(alert).getByRole('button', { name: 'Try again' })).toBeVisible();
  },
};

/** A chat's many paths: twelve from one message, and a branch of a branch of a branch… */
const manyPaths: Branch[] = [
  createBranchFixture(),
  ...Array.from({ length: 12 }, (_, index) =>
    createBranchFixture({
      roomId: `room-${index + 2}`,
      fork: {
        parentRoomId: 'room-1',
        parentMessageId: 'msg-2',
        messageId: `msg-2-${index + 2}`,
      },
      messageCount: 4 + index,
      preview: `Path ${index + 2}: the storm, the boat and what came of it.`,
      createdAt: new Date(Date.UTC(2026, 10, 21, index)).toISOString(),
    }),
  ),
  ...Array.from({ length: 6 }, (_, index) =>
    createBranchFixture({
      roomId: `room-${index + 14}`,
      fork: {
        parentRoomId: `room-${index + 13}`,
        parentMessageId: `msg-3-${index + 13}`,
        messageId: `msg-3-${index + 14}`,
      },
      messageCount: 20 + index,
      preview: `Deeper path ${index + 14}, taken from the one before it.`,
      createdAt: new Date(Date.UTC(2026, 10, 22, index)).toISOString(),
    }),
  ),
];
const many = branchServer(manyPaths);

/**
 * Many entries: the switcher counts thirteen paths at the shared message, and the Branches view
 * lists all nineteen as a tree, the deepest six levels down, each within the view.
 */
export const ManyBranches: Story = {
  parameters: { app, msw: { handlers: api(...many.handlers) } },
  loaders: [many.reset],
  play: async ({ canvasElement }) => {
    const log = await conversation(canvasElement);
    const switcher = await log.findByRole('group', { name: 'Branch 1 of 13' });
    await expect(switcher).toHaveTextContent('1 / 13');
    const panel = await openBranches(canvasElement);
    const all = await within(panel).findByRole('list', { name: '19 branches' });
    const first = within(all).getByRole('list', { name: 'Branched from Branch 1' });
    await expect(
      within(first)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(Array.from({ length: 18 }, (_, index) => `#/chat-detail?roomId=room-${index + 2}`));
    const deepest = within(all).getByRole('list', { name: 'Branched from Branch 18' });
    await expect(within(deepest).getByRole('link')).toHaveAttribute(
      'href',
      '#/chat-detail?roomId=room-19',
    );
    await expect(within(deepest).getByRole('link')).toHaveTextContent('25 messages');
    // Every path can be deleted but the one open; each control stays inside the view.
    await expect(
      within(panel).getAllByRole('button', { name: /^Delete Branch \d+$/ }),
    ).toHaveLength(18);
    const edge = panel.getBoundingClientRect().right;
    for (const button of within(all).getAllByRole('button')) {
      button.scrollIntoView();
      await expect(button.getBoundingClientRect().right).toBeLessThanOrEqual(edge);
    }
    const last = within(panel).getByRole('button', { name: 'Delete Branch 19' });
    last.focus();
    await expect(last).toHaveFocus();
  },
};

const phone = branchServer(createRoomBranchesFixture().branches);

/**
 * On a phone (320 × 568) the switcher fits beside the message, Branches is in the header's
 * menu, and the view takes the whole screen.
 */
export const Phone: Story = {
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  parameters: { app, msw: { handlers: api(...phone.handlers) } },
  loaders: [phone.reset],
  play: async ({ canvasElement }) => {
    const view = canvasElement.ownerDocument.defaultView!;
    await expect(view.innerWidth).toBeLessThanOrEqual(320);
    const log = await conversation(canvasElement);
    const switcher = await log.findByRole('group', { name: 'Branch 1 of 3' });
    for (const button of within(switcher).getAllByRole('button'))
      await expect(button.getBoundingClientRect().right).toBeLessThanOrEqual(view.innerWidth);
    const panel = await openBranches(canvasElement);
    await waitFor(() => expect(panel.getBoundingClientRect().left).toBeCloseTo(0, 0));
    await expect(panel.getBoundingClientRect().width).toBeCloseTo(view.innerWidth, 0);
    await within(panel).findByRole('list', { name: '3 branches' });
    for (const button of within(panel).getAllByRole('button')) {
      if (!button.checkVisibility()) continue;
      await expect(button.getBoundingClientRect().right).toBeLessThanOrEqual(view.innerWidth);
    }
  },
};
