import type { Meta, StoryObj } from '@storybook/react-vite';
import type { HttpHandler } from 'msw';
import type {
  Memory,
  MemoryWriter,
  RoomMemories,
  SaveMemoryPayload,
  SetMemoryAcrossChatsPayload,
} from '@mates/api-client';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  createImageMessageFixture,
  createMemoryFixture,
  createMessageFixture,
  createPromptViewFixture,
  createRoomInfoFixture,
  createRoomMemoriesFixture,
  mockEndpoint,
  mockEndpointError,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import { api, expectNotice, screenStories, slowCalls } from '../../testing/story-app';

const meta = { title: 'Screens/Chat/Memory', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const app = { path: '/chat-detail?roomId=room-1', signedIn: true };
const MATE = 'Lyra Moonwhisper';

/** Time for an answer (or a poll every few seconds) to arrive on a busy machine. */
const LOADS = { timeout: 8000 };

/**
 * A room's memories as a server keeps them, for one story: what the panel changes stays
 * changed (a save keeps what it does not change, as the server does), and `calls` records what
 * the panel asked, in order. `writerAfter` is the writer's state from the second read on.
 */
function memoryServer(start: RoomMemories, writerAfter?: MemoryWriter) {
  let state = { ...start, memories: [...start.memories] };
  const calls: { path: string; body: unknown }[] = [];
  let reads = 0;
  /** Back to `start`, nothing asked yet: the story's loader, so that each run starts afresh. */
  const reset = () => {
    state = { ...start, memories: [...start.memories] };
    calls.length = 0;
    reads = 0;
  };
  const handlers: HttpHandler[] = [
    mockEndpoint('/room/memories', () => {
      reads += 1;
      if (reads > 1 && writerAfter) state.writer = writerAfter;
      return { ...state, memories: [...state.memories] };
    }),
    mockEndpoint('/room/saveMemory', ({ body }) => {
      const payload = body as SaveMemoryPayload;
      calls.push({ path: 'saveMemory', body: payload });
      const old = state.memories.find((memory) => memory.memoryId === payload.memoryId);
      const saved: Memory = {
        ...(old ??
          createMemoryFixture({
            memoryId: `memory-new-${calls.length}`,
            author: 'person',
            about: 'story',
            sourceMessageIds: [],
            createdAt: new Date().toISOString(),
          })),
        ...(payload.content === undefined ? {} : { content: payload.content.trim() }),
        ...(payload.pinned === undefined ? {} : { pinned: payload.pinned }),
        ...(payload.about === undefined ? {} : { about: payload.about }),
        needsReview: false,
        updatedAt: new Date().toISOString(),
      };
      state.memories = old
        ? state.memories.map((memory) => (memory === old ? saved : memory))
        : [saved, ...state.memories];
      return saved;
    }),
    mockEndpoint('/room/deleteMemory', ({ body }) => {
      const { memoryId } = body as { memoryId: string };
      calls.push({ path: 'deleteMemory', body });
      state.memories = state.memories.filter((memory) => memory.memoryId !== memoryId);
      return null;
    }),
    mockEndpoint('/room/setMemoryAcrossChats', ({ body }) => {
      calls.push({ path: 'setMemoryAcrossChats', body });
      state.acrossChats = (body as SetMemoryAcrossChatsPayload).enabled;
      return { ...state };
    }),
    mockEndpoint('/room/writeMemories', ({ body }) => {
      calls.push({ path: 'writeMemories', body });
      state.writer = { state: 'writing', error: null };
      return { ...state };
    }),
  ];
  return { handlers, calls, reset };
}

/** Opens the Memory panel from the chat's header; gives the panel. */
async function openMemory(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await canvas.findByRole('log', { name: 'Conversation' });
  const more = canvas.queryByRole('button', { name: 'More' });
  // On a phone the chat's tools are in the header's menu.
  if (more && more.checkVisibility()) await userEvent.click(more);
  const open = canvas.getAllByRole('button', { name: 'Memory' }).find((b) => b.checkVisibility());
  await userEvent.click(open!);
  const body = within(canvasElement.ownerDocument.body);
  const panel = await body.findByRole('dialog', { name: 'Memory' });
  await within(panel).findByRole('switch', { name: 'Remember me across chats' });
  await waitFor(() => expect(panel).toBeVisible());
  return panel;
}

/** The memories of one titled list of the panel, as their words. */
const listed = (panel: HTMLElement, title: string) =>
  within(within(panel).getByRole('list', { name: title }))
    .getAllByRole('listitem')
    .map((item) => item.querySelector('p')?.textContent);

const server = memoryServer(createRoomMemoriesFixture());

const shown = memoryServer(createRoomMemoriesFixture());

/**
 * The panel from the header: the story so far, pinned facts, then the others; each says what
 * it is about and who wrote it, with a way to the message it came from.
 */
export const Memories: Story = {
  parameters: { app, msw: { handlers: api(...shown.handlers) } },
  loaders: [shown.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    await expect(panel).toHaveAccessibleDescription(`What ${MATE} remembers of this chat.`);
    const headings = within(panel).getAllByRole('heading', { level: 3 });
    await expect(headings.map((h) => h.textContent)).toEqual([
      'Story so far',
      'Pinned',
      'Memories',
    ]);
    await expect(listed(panel, 'Story so far')[0]).toMatch(/^Ada met Lyra at the lighthouse/);
    await expect(listed(panel, 'Pinned')).toEqual([
      'Ada is allergic to cats; she never says so first.',
    ]);
    await expect(listed(panel, 'Memories')).toHaveLength(3);
    const facts = within(panel).getByRole('list', { name: 'Memories' });
    const [first] = within(facts).getAllByRole('listitem');
    await expect(first).toHaveTextContent('About you');
    await expect(first).toHaveTextContent(`Written by ${MATE}`);
    await expect(within(first!).getByRole('button', { name: 'From the chat' })).toBeVisible();
    const pinned = within(panel).getByRole('list', { name: 'Pinned' });
    await expect(pinned).toHaveTextContent('Written by you');
    // The person's own memory has no message to lead to.
    await expect(within(pinned).queryByRole('button', { name: 'From the chat' })).toBeNull();
    await expect(within(panel).queryByText('Check this')).toBeNull();
  },
};

/** A chat with nothing remembered yet says how memories come, and that the person can add some. */
export const Empty: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(...memoryServer(createRoomMemoriesFixture({ memories: [] })).handlers),
    },
  },
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    await expect(
      within(panel).getByRole('heading', { name: 'Nothing remembered yet' }),
    ).toBeVisible();
    await expect(panel).toHaveTextContent(
      `${MATE} writes memories as the conversation grows past what it can hold at once. You can add your own, too.`,
    );
    await expect(within(panel).getByRole('button', { name: 'Add a memory' })).toBeVisible();
  },
};

const writing = memoryServer(
  createRoomMemoriesFixture({ writer: { state: 'writing', error: null } }),
  { state: 'idle', error: null },
);

/** While the mate writes memories the panel says so, and reads them again until it is done. */
export const Writing: Story = {
  parameters: { app, msw: { handlers: api(...writing.handlers) } },
  loaders: [writing.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    await expect(within(panel).getByRole('status', { name: 'Writing memories…' })).toBeVisible();
    // Read again a few seconds later: the writer is done.
    await waitFor(
      () => expect(within(panel).queryByRole('status', { name: 'Writing memories…' })).toBeNull(),
      LOADS,
    );
  },
};

const failed = memoryServer(
  createRoomMemoriesFixture({
    writer: { state: 'failed', error: 'The language model did not answer in time.' },
  }),
);

/** The writer failed: its reason, and "Try again" asks the server to write them again. */
export const FailedThenTryAgain: Story = {
  parameters: { app, msw: { handlers: api(...failed.handlers) } },
  loaders: [failed.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    const alert = within(panel).getByRole('alert');
    await expect(alert).toHaveTextContent('Memories could not be written.');
    await expect(alert).toHaveTextContent('The language model did not answer in time.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await expect(
      await within(panel).findByRole('status', { name: 'Writing memories…' }),
    ).toBeVisible();
    await expect(failed.calls).toEqual([{ path: 'writeMemories', body: { roomId: 'room-1' } }]);
    await expect(within(panel).queryByRole('alert')).toBeNull();
    // Try again has gone: the focus is on what the writer does now, not on the sheet.
    const status = within(panel).getByRole('status', { name: 'Writing memories…' });
    await waitFor(() => expect(panel).not.toHaveFocus());
    await expect(canvasElement.ownerDocument.activeElement).toContainElement(status);
  },
};

/** Forty memories: all listed, the panel's body scrolls under its title. */
export const ManyMemories: Story = {
  parameters: {
    app,
    msw: { handlers: api(...memoryServer(createRoomMemoriesFixture({}, 40)).handlers) },
  },
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    await expect(listed(panel, 'Memories')).toHaveLength(40);
    const title = within(panel).getByRole('heading', { name: 'Memory' });
    const last = within(within(panel).getByRole('list', { name: 'Memories' }))
      .getAllByRole('listitem')
      .at(-1)!;
    last.scrollIntoView();
    await waitFor(() =>
      expect(last.getBoundingClientRect().bottom).toBeLessThanOrEqual(
        canvasElement.ownerDocument.defaultView!.innerHeight + 1,
      ),
    );
    // The title stays in view.
    await expect(title.getBoundingClientRect().top).toBeGreaterThanOrEqual(0);
  },
};

const review = memoryServer(
  createRoomMemoriesFixture({
    memories: [
      createMemoryFixture({
        memoryId: 'memory-review',
        content: 'Her sister is called Ana.',
        needsReview: true,
      }),
    ],
  }),
);

/** A memory whose message changed asks to be checked; "Keep" saves it unchanged and the mark goes. */
export const NeedsReviewThenKeep: Story = {
  parameters: { app, msw: { handlers: api(...review.handlers) } },
  loaders: [review.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    await expect(within(panel).getByText('Check this')).toBeVisible();
    await expect(panel).toHaveTextContent(
      'A message it was made from has changed since. Is it still true?',
    );
    await userEvent.click(within(panel).getByRole('button', { name: 'Keep' }));
    await waitFor(() => expect(within(panel).queryByText('Check this')).toBeNull());
    await expect(within(panel).getByRole('button', { name: 'Edit' })).toHaveFocus();
    await expect(review.calls).toEqual([
      {
        path: 'saveMemory',
        body: { roomId: 'room-1', memoryId: 'memory-review' },
      },
    ]);
  },
};

const editing = memoryServer(createRoomMemoriesFixture());

/**
 * Edit in place: the words and a count of them; Escape leaves the memory as it was (and the
 * panel open), Save keeps the change, and the focus goes back to Edit.
 */
export const EditAMemory: Story = {
  parameters: { app, msw: { handlers: api(...editing.handlers) } },
  loaders: [editing.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    const pinned = () => within(panel).getByRole('list', { name: 'Pinned' });
    await userEvent.click(within(pinned()).getByRole('button', { name: 'Edit' }));
    const field = within(panel).getByRole('textbox', { name: 'Edit the memory' });
    await expect(field).toHaveFocus();
    await expect(field).toHaveValue('Ada is allergic to cats; she never says so first.');
    await expect(field).toHaveAccessibleDescription('49 / 1,000 characters');
    await userEvent.type(field, ' Nor dogs.');
    await userEvent.keyboard('{Escape}');
    await expect(within(panel).queryByRole('textbox', { name: 'Edit the memory' })).toBeNull();
    await expect(pinned()).toHaveTextContent('Ada is allergic to cats; she never says so first.');
    await expect(within(pinned()).getByRole('button', { name: 'Edit' })).toHaveFocus();
    await userEvent.click(within(pinned()).getByRole('button', { name: 'Edit' }));
    const again = within(panel).getByRole('textbox', { name: 'Edit the memory' });
    await userEvent.clear(again);
    await userEvent.click(again);
    await userEvent.paste('x'.repeat(1001));
    await expect(again).toHaveAccessibleDescription(
      '1,001 / 1,000 characters Keep it to 1,000 characters or fewer.',
    );
    await userEvent.clear(again);
    await userEvent.type(again, 'Ada is allergic to cats and dogs.');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(listed(panel, 'Pinned')).toEqual(['Ada is allergic to cats and dogs.']),
    );
    await expect(within(pinned()).getByRole('button', { name: 'Edit' })).toHaveFocus();
    await expect(editing.calls).toHaveLength(1);
  },
};

const pinning = memoryServer(createRoomMemoriesFixture());

/** Pin moves a memory into the pinned ones; Unpin moves it back. */
export const PinAMemory: Story = {
  parameters: { app, msw: { handlers: api(...pinning.handlers) } },
  loaders: [pinning.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    const facts = within(panel).getByRole('list', { name: 'Memories' });
    const [first] = within(facts).getAllByRole('listitem');
    await userEvent.click(within(first!).getByRole('button', { name: 'Pin' }));
    await waitFor(() =>
      expect(listed(panel, 'Pinned')).toEqual([
        'Ada is allergic to cats; she never says so first.',
        'Her sister is called Ana.',
      ]),
    );
    await expect(listed(panel, 'Memories')).toHaveLength(2);
    // The focus goes with it, onto its Unpin.
    const pinned = within(panel).getByRole('list', { name: 'Pinned' });
    const unpin = within(pinned).getAllByRole('button', { name: 'Unpin' })[1]!;
    await waitFor(() => expect(unpin).toHaveFocus());
    await userEvent.click(within(pinned).getAllByRole('button', { name: 'Unpin' })[0]!);
    await waitFor(() => expect(listed(panel, 'Memories')).toHaveLength(3));
    await expect(listed(panel, 'Pinned')).toEqual(['Her sister is called Ana.']);
    // Unpinned, newest first among the others (all three were written at the same time).
    await expect(listed(panel, 'Memories')[0]).toBe(
      'Ada is allergic to cats; she never says so first.',
    );
    const facts2 = within(panel).getByRole('list', { name: 'Memories' });
    await waitFor(() =>
      expect(within(facts2).getAllByRole('button', { name: 'Pin' })[0]).toHaveFocus(),
    );
  },
};

/**
 * One memory, whose words another tab changes once this one has read them; a save changes
 * only what it is given, as the server does.
 */
function changedElsewhere() {
  let memory = createMemoryFixture({ memoryId: 'memory-tea', content: 'Ada likes tea.' });
  let reads = 0;
  const handlers: HttpHandler[] = [
    mockEndpoint('/room/memories', () => {
      const answer = createRoomMemoriesFixture({ memories: [memory] });
      reads += 1;
      // Read here; then, in another tab, the person writes new words.
      if (reads === 1) memory = { ...memory, content: 'Ada likes green tea.', author: 'person' };
      return answer;
    }),
    mockEndpoint('/room/saveMemory', ({ body }) => {
      const { content, pinned } = body as Partial<SaveMemoryPayload>;
      memory = {
        ...memory,
        ...(content === undefined ? {} : { content: content.trim() }),
        ...(pinned === undefined ? {} : { pinned }),
        needsReview: false,
      };
      return memory;
    }),
  ];
  return {
    handlers,
    saved: () => memory.content,
    reset: () => {
      memory = createMemoryFixture({ memoryId: 'memory-tea', content: 'Ada likes tea.' });
      reads = 0;
    },
  };
}

const elsewhere = changedElsewhere();

/**
 * Pin, in a tab opened before the memory's words were changed in another: it pins the memory,
 * and the words written in the other tab stay.
 */
export const PinKeepsWordsChangedElsewhere: Story = {
  parameters: { app, msw: { handlers: api(...elsewhere.handlers) } },
  loaders: [elsewhere.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    await within(panel).findByText('Ada likes tea.');
    await userEvent.click(within(panel).getByRole('button', { name: 'Pin' }));
    await waitFor(() => expect(listed(panel, 'Pinned')).toEqual(['Ada likes green tea.']));
    await expect(elsewhere.saved()).toBe('Ada likes green tea.');
  },
};

/** Presses Delete on the first memory listed: the question it opens, and the page's body. */
async function askToForgetFirst(canvasElement: HTMLElement, panel: HTMLElement) {
  const facts = within(panel).getByRole('list', { name: 'Memories' });
  await userEvent.click(within(facts).getAllByRole('button', { name: 'Delete' })[0]!);
  const body = within(canvasElement.ownerDocument.body);
  return { body, confirm: await body.findByRole('dialog', { name: 'Forget this memory?' }) };
}

/** Once a memory is gone, the focus is on the first one left ("From the chat"). */
async function expectFocusOnFirstMemory(panel: HTMLElement) {
  const [next] = within(within(panel).getByRole('list', { name: 'Memories' })).getAllByRole(
    'listitem',
  );
  await waitFor(() =>
    expect(within(next!).getByRole('button', { name: 'From the chat' })).toHaveFocus(),
  );
}

const deleting = memoryServer(createRoomMemoriesFixture());

/**
 * Delete asks first; once confirmed, the memory is gone, and the focus goes to the next
 * memory's first button.
 */
export const DeleteAMemory: Story = {
  parameters: { app, msw: { handlers: api(...deleting.handlers) } },
  loaders: [deleting.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    const { body, confirm } = await askToForgetFirst(canvasElement, panel);
    await expect(confirm).toHaveTextContent(`${MATE} will no longer remember it.`);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Forget' }));
    await waitFor(() => expect(listed(panel, 'Memories')).toHaveLength(2));
    await expect(listed(panel, 'Memories')).not.toContain('Her sister is called Ana.');
    await waitFor(() =>
      expect(body.queryByRole('dialog', { name: 'Forget this memory?' })).toBeNull(),
    );
    await expectFocusOnFirstMemory(panel);
  },
};

const forgottenElsewhere = memoryServer(createRoomMemoriesFixture());

/**
 * Forget, on a memory this tab still lists but another tab forgot already ("Memory not found."):
 * it is forgotten, as asked; it leaves the list and the focus goes to the next memory.
 */
export const ForgetAMemoryForgottenElsewhere: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpointError('/room/deleteMemory', 4004, 'Memory not found.'),
        ...forgottenElsewhere.handlers,
      ),
    },
  },
  loaders: [forgottenElsewhere.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    const { body, confirm } = await askToForgetFirst(canvasElement, panel);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Forget' }));
    await waitFor(() =>
      expect(body.queryByRole('dialog', { name: 'Forget this memory?' })).toBeNull(),
    );
    await waitFor(() => expect(listed(panel, 'Memories')).toHaveLength(2));
    await expect(listed(panel, 'Memories')).not.toContain('Her sister is called Ana.');
    await expectFocusOnFirstMemory(panel);
  },
};

const unforgettable = memoryServer(createRoomMemoriesFixture());

/** A forget the server could not do: said in a notice; the question stays, to try again. */
export const ForgetFailed: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpointError('/room/deleteMemory', 5000, 'The server is resting.'),
        ...unforgettable.handlers,
      ),
    },
  },
  loaders: [unforgettable.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    const { confirm } = await askToForgetFirst(canvasElement, panel);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Forget' }));
    await expectNotice(canvasElement, 'The server is resting.');
    await expect(confirm).toBeVisible();
    await expect(within(confirm).getByRole('button', { name: 'Forget' })).toHaveFocus();
  },
};

const lastOne = memoryServer(
  createRoomMemoriesFixture({
    memories: [createMemoryFixture({ memoryId: 'memory-last', content: 'Her sister is Ana.' })],
  }),
);

/** The last memory forgotten: the panel says nothing is remembered, and "Add a memory" has the focus. */
export const ForgetTheLastMemory: Story = {
  parameters: { app, msw: { handlers: api(...lastOne.handlers) } },
  loaders: [lastOne.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    await userEvent.click(within(panel).getByRole('button', { name: 'Delete' }));
    const body = within(canvasElement.ownerDocument.body);
    const confirm = await body.findByRole('dialog', { name: 'Forget this memory?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Forget' }));
    await expect(
      await within(panel).findByRole('heading', { name: 'Nothing remembered yet' }),
    ).toBeVisible();
    await waitFor(() =>
      expect(body.queryByRole('dialog', { name: 'Forget this memory?' })).toBeNull(),
    );
    await waitFor(() =>
      expect(within(panel).getByRole('button', { name: 'Add a memory' })).toHaveFocus(),
    );
  },
};

const adding = memoryServer(createRoomMemoriesFixture());

/** "Add a memory" writes a fact of the person's own, listed first among the others. */
export const AddAMemory: Story = {
  parameters: { app, msw: { handlers: api(...adding.handlers) } },
  loaders: [adding.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    await userEvent.click(within(panel).getByRole('button', { name: 'Add a memory' }));
    const field = within(panel).getByRole('textbox', { name: 'New memory' });
    await expect(field).toHaveFocus();
    // Nothing written: said by the field, nothing sent.
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await expect(field).toHaveAccessibleDescription(
      '0 / 1,000 characters Write the memory first, or delete it.',
    );
    await userEvent.type(field, 'I take my tea without sugar.');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(listed(panel, 'Memories')[0]).toBe('I take my tea without sugar.'));
    const facts = within(panel).getByRole('list', { name: 'Memories' });
    await expect(within(facts).getAllByRole('listitem')[0]).toHaveTextContent('Written by you');
    await expect(adding.calls).toEqual([
      {
        path: 'saveMemory',
        body: { roomId: 'room-1', content: 'I take my tea without sugar.', about: 'person' },
      },
    ]);
  },
};

const addingOnce = memoryServer(createRoomMemoriesFixture());
const saves = slowCalls('post', '/room/saveMemory');

/** Save pressed twice while the server answers: the memory is added once, not twice. */
export const AddAMemoryOnce: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(saves.handler, ...addingOnce.handlers),
    },
  },
  loaders: [addingOnce.reset, saves.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    await userEvent.click(within(panel).getByRole('button', { name: 'Add a memory' }));
    await userEvent.type(
      within(panel).getByRole('textbox', { name: 'New memory' }),
      'I take my tea without sugar.',
    );
    const save = within(panel).getByRole('button', { name: 'Save' });
    await userEvent.click(save);
    await userEvent.click(save);
    await waitFor(
      () => expect(listed(panel, 'Memories')[0]).toBe('I take my tea without sugar.'),
      LOADS,
    );
    await expect(
      listed(panel, 'Memories').filter((words) => words === 'I take my tea without sugar.'),
    ).toHaveLength(1);
    await expect(saves.counted.asked).toBe(1);
  },
};

const addingInFrench = memoryServer(createRoomMemoriesFixture());

/**
 * A new memory in French, whatever the browser's own language: the count under the field
 * writes its numbers as French does ("1 000"), not as English ("1,000").
 */
export const AddAMemoryInFrench: Story = {
  parameters: {
    app: { ...app, language: 'fr' },
    msw: { handlers: api(...addingInFrench.handlers) },
  },
  loaders: [addingInFrench.reset],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('log', { name: 'Conversation' });
    await userEvent.click(canvas.getByRole('button', { name: 'Mémoire' }));
    const body = within(canvasElement.ownerDocument.body);
    const panel = await body.findByRole('dialog', { name: 'Mémoire' });
    await userEvent.click(
      await within(panel).findByRole('button', { name: 'Ajouter un souvenir' }),
    );
    const field = within(panel).getByRole('textbox', { name: 'Nouveau souvenir' });
    const thousand = new Intl.NumberFormat('fr').format(1000);
    await expect(thousand).not.toBe('1,000');
    await expect(field).toHaveAccessibleDescription(`0 / ${thousand} caractères`);
  },
};

const across = memoryServer(createRoomMemoriesFixture());

/** "Remember me across chats" is the mate's setting, saved at once. */
export const RememberMeAcrossChats: Story = {
  parameters: { app, msw: { handlers: api(...across.handlers) } },
  loaders: [across.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    const toggle = within(panel).getByRole('switch', { name: 'Remember me across chats' });
    await expect(toggle).not.toBeChecked();
    await expect(toggle).toHaveAccessibleDescription(
      `What ${MATE} learns about you here goes with you into your other chats with ${MATE}, and theirs come here.`,
    );
    await userEvent.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    await expect(across.calls).toEqual([
      { path: 'setMemoryAcrossChats', body: { roomId: 'room-1', enabled: true } },
    ]);
  },
};

const acrossRefused = memoryServer(createRoomMemoriesFixture());

/** "Remember me across chats" the server could not save: said in a notice; the switch stays off. */
export const RememberMeAcrossChatsFailed: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpointError('/room/setMemoryAcrossChats', 5000, 'The server is resting.'),
        ...acrossRefused.handlers,
      ),
    },
  },
  loaders: [acrossRefused.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    const toggle = within(panel).getByRole('switch', { name: 'Remember me across chats' });
    await userEvent.click(toggle);
    await expectNotice(canvasElement, 'The server is resting.');
    await expect(toggle).not.toBeChecked();
    await expect(toggle).toHaveFocus();
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
const sourced = (sourceMessageIds: string[]) =>
  createRoomMemoriesFixture({
    memories: [createMemoryFixture({ memoryId: 'memory-old', sourceMessageIds })],
  });

/**
 * "From the chat" closes the panel and goes to the memory's first message: older messages load
 * until it is there, then it is scrolled to, focused and marked.
 */
export const JumpToTheMessage: Story = {
  parameters: {
    app,
    msw: { handlers: api(storedRoom, ...memoryServer(sourced(['msg-5', 'msg-6'])).handlers) },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    await waitFor(() => expect(within(log).getAllByRole('article')).toHaveLength(50));
    const panel = await openMemory(canvasElement);
    await userEvent.click(within(panel).getByRole('button', { name: 'From the chat' }));
    const body = within(canvasElement.ownerDocument.body);
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    // Message 5 is on the third page back.
    const target = await waitFor(() => {
      const found = canvasElement.ownerDocument.getElementById('message-msg-5');
      expect(found).not.toBeNull();
      return found!;
    }, LOADS);
    await waitFor(() => expect(target).toHaveFocus(), LOADS);
    await expect(target).toHaveTextContent('Message 5: the tide came in');
    const box = target.getBoundingClientRect();
    const view = canvasElement.ownerDocument.defaultView!;
    await expect(box.top).toBeGreaterThanOrEqual(0);
    await expect(box.bottom).toBeLessThanOrEqual(view.innerHeight);
    // Marked with a ring, which goes after a few seconds even though it keeps the focus.
    const bubble = within(target).getByText(/^Message 5/).parentElement!;
    await expect(getComputedStyle(bubble).boxShadow).not.toBe('none');
    await waitFor(() => expect(getComputedStyle(bubble).boxShadow).toBe('none'), {
      timeout: 6000,
    });
    await expect(target).toHaveFocus();
  },
};

/** A memory made from a picture message: "From the chat" reaches the picture, focused and marked. */
export const JumpToAPicture: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpoint('/room/roomInfo', () => {
          const info = createRoomInfoFixture();
          return { ...info, messages: [...info.messages, createImageMessageFixture()] };
        }),
        ...memoryServer(sourced(['msg-image-1'])).handlers,
      ),
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const picture = await canvas.findByRole('article', { name: /sends a picture$/ });
    const panel = await openMemory(canvasElement);
    await userEvent.click(within(panel).getByRole('button', { name: 'From the chat' }));
    await waitFor(() => expect(picture).toHaveFocus(), LOADS);
    await expect(picture).toHaveAttribute('id', 'message-msg-image-1');
    // Marked on the picture's column, as a bubble is, not said to be gone.
    await expect(getComputedStyle(picture.firstElementChild!).boxShadow).not.toBe('none');
    await expect(
      within(canvasElement.ownerDocument.body).queryByText(
        'The message this memory was made from is no longer in the chat.',
      ),
    ).toBeNull();
  },
};

/** A memory's message open in its editor: "From the chat" reaches the editor, focused and marked. */
export const JumpToAMessageBeingEdited: Story = {
  parameters: { app, msw: { handlers: api(...memoryServer(sourced(['msg-2'])).handlers) } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const log = within(await canvas.findByRole('log', { name: 'Conversation' }));
    const mine = within(await log.findByRole('article', { name: 'You say' }));
    await userEvent.click(mine.getByRole('button', { name: 'Edit message' }));
    const field = await log.findByRole('textbox', { name: 'Edit the message' });
    const panel = await openMemory(canvasElement);
    await userEvent.click(within(panel).getByRole('button', { name: 'From the chat' }));
    const editor = field.closest('form')!;
    await waitFor(() => expect(editor).toHaveFocus(), LOADS);
    await expect(editor).toHaveAttribute('id', 'message-msg-2');
    await expect(getComputedStyle(editor).boxShadow).not.toBe('none');
    await expect(
      within(canvasElement.ownerDocument.body).queryByText(
        'The message this memory was made from is no longer in the chat.',
      ),
    ).toBeNull();
  },
};

/** A memory whose message was deleted since: "From the chat" says the message is gone. */
export const JumpToADeletedMessage: Story = {
  parameters: {
    app,
    msw: { handlers: api(...memoryServer(sourced(['msg-deleted'])).handlers) },
  },
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    await userEvent.click(within(panel).getByRole('button', { name: 'From the chat' }));
    const body = within(canvasElement.ownerDocument.body);
    const gone = 'The message this memory was made from is no longer in the chat.';
    // A notification (Radix also keeps a hidden copy of it for screen readers).
    await waitFor(
      () => expect(body.getAllByText(gone).some((notice) => notice.checkVisibility())).toBe(true),
      LOADS,
    );
  },
};

/** On a phone (320 × 568), Memory is in the header's menu and the panel takes the whole screen. */
export const Phone: Story = {
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  parameters: { app, msw: { handlers: api(...server.handlers) } },
  play: async ({ canvasElement }) => {
    const view = canvasElement.ownerDocument.defaultView!;
    await expect(view.innerWidth).toBeLessThanOrEqual(320);
    const panel = await openMemory(canvasElement);
    await waitFor(() => expect(panel.getBoundingClientRect().left).toBeCloseTo(0, 0));
    await expect(panel.getBoundingClientRect().width).toBeCloseTo(view.innerWidth, 0);
    for (const button of within(panel).getAllByRole('button')) {
      if (!button.checkVisibility()) continue;
      await expect(button.getBoundingClientRect().right).toBeLessThanOrEqual(view.innerWidth);
    }
  },
};

/** While the memories load, the panel says so. */
export const Loading: Story = {
  parameters: { app, msw: { handlers: api(mockEndpointLoading('/room/memories')) } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('log', { name: 'Conversation' });
    await userEvent.click(canvas.getByRole('button', { name: 'Memory' }));
    const panel = await within(canvasElement.ownerDocument.body).findByRole('dialog', {
      name: 'Memory',
    });
    await expect(within(panel).getByRole('status', { name: 'Loading' })).toBeInTheDocument();
  },
};

/** Memories that could not be loaded: the reason, and a way to ask again. */
export const LoadFailed: Story = {
  parameters: {
    app,
    msw: { handlers: api(mockEndpointError('/room/memories', 5000, 'The database is busy.')) },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('log', { name: 'Conversation' });
    await userEvent.click(canvas.getByRole('button', { name: 'Memory' }));
    const panel = await within(canvasElement.ownerDocument.body).findByRole('dialog', {
      name: 'Memory',
    });
    const alert = await within(panel).findByRole('alert', {}, LOADS);
    await expect(alert).toHaveTextContent('The memories could not be loaded');
    await expect(within(alert).getByRole('button', { name: 'Try again' })).toBeVisible();
  },
};

const readOnly = memoryServer(createRoomMemoriesFixture());

/** A chat that can no longer go on: its memories are shown, not changed. */
export const ReadOnlyChat: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpoint('/room/roomInfo', () =>
          createRoomInfoFixture({
            readOnly:
              'This mate is no longer available. You can read this chat, but not continue it.',
          }),
        ),
        ...readOnly.handlers,
      ),
    },
  },
  loaders: [readOnly.reset],
  play: async ({ canvasElement }) => {
    const panel = await openMemory(canvasElement);
    await expect(listed(panel, 'Memories')).toHaveLength(3);
    for (const name of ['Add a memory', 'Edit', 'Pin', 'Unpin', 'Delete'])
      await expect(within(panel).queryByRole('button', { name })).toBeNull();
    await expect(
      within(panel).getByRole('switch', { name: 'Remember me across chats' }),
    ).toBeDisabled();
    await expect(within(panel).getAllByRole('button', { name: 'From the chat' })).not.toHaveLength(
      0,
    );
  },
};

/** Opens "What the mate sees" from the Memory panel; gives the dialog. */
async function openPromptView(canvasElement: HTMLElement) {
  const panel = await openMemory(canvasElement);
  await userEvent.click(within(panel).getByRole('button', { name: `What ${MATE} sees` }));
  const dialog = await within(canvasElement.ownerDocument.body).findByRole('dialog', {
    name: `What ${MATE} sees`,
  });
  // Once faded in (300 ms).
  await waitFor(() => expect(dialog).toBeVisible());
  return dialog;
}

/** Opens "What the mate sees"; gives the dialog, its list of parts and the parts' names. */
async function openPromptParts(canvasElement: HTMLElement) {
  const dialog = await openPromptView(canvasElement);
  const parts = await within(dialog).findByRole('list', {
    name: 'The prompt of the last reply, part by part.',
  });
  const names = within(parts)
    .getAllByRole('heading')
    .map((heading) => heading.textContent);
  return { dialog, parts, names };
}

/**
 * "What the mate sees": the last reply's prompt part by part, with tokens and a share of the
 * context each, the whole text on demand, and how many older messages were left out (the story
 * so far telling what they said).
 */
export const WhatTheMateSees: Story = {
  parameters: { app },
  play: async ({ canvasElement }) => {
    const { dialog, parts, names } = await openPromptParts(canvasElement);
    await expect(names).toEqual([
      'Character',
      'Pinned memories',
      'Story so far',
      'Recalled memories',
      'Recent messages',
    ]);
    await expect(dialog).toHaveTextContent('181 of 4,096 tokens, 512 kept free for the reply');
    await expect(dialog).toHaveTextContent(
      '42 older messages did not fit and are left out. The story so far tells what they said.',
    );
    await expect(dialog).not.toHaveTextContent('Built again');
    const [character, , , recalled, history] = within(parts).getAllByRole('listitem');
    await expect(character).toHaveTextContent('61 tokens · 1% of the context');
    await expect(recalled).toHaveTextContent('18 tokens · 2 memories · <1% of the context');
    await expect(history).toHaveTextContent('3 messages');
    await expect(
      within(character!).getByRole('meter', { name: 'Character: share of the context' }),
    ).toHaveAttribute('aria-valuetext', '61 / 4,096');
    // The text, on demand.
    const show = within(history!).getByRole('button', { name: 'Show the text' });
    await expect(within(history!).getByText(/^Ada: Do you still have/)).not.toBeVisible();
    await userEvent.click(show);
    await expect(show).toHaveAttribute('aria-expanded', 'true');
    await expect(within(history!).getByText(/^Ada: Do you still have/)).toBeVisible();
    await expect(show).toHaveAccessibleName('Hide the text');
  },
};

/** Built again from the chat as it is now (the server no longer held it): said so. */
export const WhatTheMateSeesRebuilt: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpoint('/room/promptView', () => createPromptViewFixture({ rebuilt: true })),
      ),
    },
  },
  play: async ({ canvasElement }) => {
    const dialog = await openPromptView(canvasElement);
    await expect(
      await within(dialog).findByText(
        'Built again from the chat as it is now: memories may have changed since the reply.',
      ),
    ).toBeVisible();
  },
};

/**
 * A mate from a card with post-history instructions: the model reads them after the recent
 * messages, and the view says so, last, with their tokens and no count of items.
 */
export const WhatTheMateSeesAfterTheMessages: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpoint('/room/promptView', () => {
          const view = createPromptViewFixture();
          const parts = [
            ...view.parts,
            {
              kind: 'instructions' as const,
              text: "Stay in character as Lyra Moonwhisper; never write Ada's words.",
              tokens: 16,
              items: 1,
            },
          ];
          return { ...view, parts, totalTokens: view.totalTokens + 16 };
        }),
      ),
    },
  },
  play: async ({ canvasElement }) => {
    const { parts, names } = await openPromptParts(canvasElement);
    await expect(names.slice(-2)).toEqual(['Recent messages', 'After the messages']);
    const instructions = within(parts).getAllByRole('listitem').at(-1)!;
    await expect(instructions).toHaveTextContent('16 tokens · <1% of the context');
    await userEvent.click(within(instructions).getByRole('button', { name: 'Show the text' }));
    await expect(within(instructions).getByText(/^Stay in character as Lyra/)).toBeVisible();
  },
};

/**
 * A mate from a card with a lorebook: the entries the last messages called for come right after
 * the character, counted as entries.
 */
export const WhatTheMateSeesFromTheLorebook: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpoint('/room/promptView', () => {
          const view = createPromptViewFixture();
          const [character, ...rest] = view.parts;
          const lore = {
            kind: 'lore' as const,
            text: 'The town is called Saltmere.\n\nThe lighthouse has never gone dark.',
            tokens: 18,
            items: 2,
          };
          return {
            ...view,
            parts: [character!, lore, ...rest],
            totalTokens: view.totalTokens + 18,
          };
        }),
      ),
    },
  },
  play: async ({ canvasElement }) => {
    const { parts, names } = await openPromptParts(canvasElement);
    await expect(names.slice(0, 2)).toEqual(['Character', 'Lorebook']);
    const lore = within(parts).getAllByRole('listitem')[1]!;
    await expect(lore).toHaveTextContent('18 tokens · 2 entries');
    await userEvent.click(within(lore).getByRole('button', { name: 'Show the text' }));
    await expect(within(lore).getByText(/^The town is called Saltmere\./)).toBeVisible();
  },
};

/** A chat with no reply yet has no prompt to show. */
export const WhatTheMateSeesNoReplyYet: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpoint('/room/promptView', () =>
          createPromptViewFixture({ messageId: null, parts: [], totalTokens: 0, leftOut: 0 }),
        ),
      ),
    },
  },
  play: async ({ canvasElement }) => {
    const dialog = await openPromptView(canvasElement);
    await expect(
      await within(dialog).findByRole('heading', { name: 'No reply yet' }),
    ).toBeVisible();
    await expect(dialog).toHaveTextContent(
      `Once ${MATE} has replied, this shows everything it was given to write the reply.`,
    );
  },
};

/** A prompt that could not be loaded: the reason, and a way to ask again. */
export const WhatTheMateSeesLoadFailed: Story = {
  parameters: {
    app,
    msw: { handlers: api(mockEndpointError('/room/promptView', 5000, 'The database is busy.')) },
  },
  play: async ({ canvasElement }) => {
    const dialog = await openPromptView(canvasElement);
    const alert = await within(dialog).findByRole('alert', {}, LOADS);
    await expect(alert).toHaveTextContent('The prompt could not be loaded');
  },
};

/** While the prompt loads, the view says so. */
export const WhatTheMateSeesLoading: Story = {
  parameters: { app, msw: { handlers: api(mockEndpointLoading('/room/promptView')) } },
  play: async ({ canvasElement }) => {
    const dialog = await openPromptView(canvasElement);
    await expect(within(dialog).getByRole('status', { name: 'Loading' })).toBeInTheDocument();
  },
};

/** A full prompt of a long chat: every part, 40 recalled memories and 120 recent messages. */
const fullPrompt = createPromptViewFixture({
  parts: [
    ...createPromptViewFixture().parts.slice(0, 3),
    {
      kind: 'acrossChats',
      text: Array.from({ length: 12 }, (_, i) => `- Ada mentioned place ${i + 1}.`).join('\n'),
      tokens: 96,
      items: 12,
    },
    {
      kind: 'recalled',
      text: Array.from({ length: 40 }, (_, i) => `- A fact of the story, number ${i + 1}.`).join(
        '\n',
      ),
      tokens: 480,
      items: 40,
    },
    {
      kind: 'history',
      text: Array.from(
        { length: 120 },
        (_, i) => `${i % 2 ? MATE : 'Ada'}: Line ${i + 1} of a long night at the lighthouse.`,
      ).join('\n'),
      tokens: 14_210,
      items: 120,
    },
  ],
  totalTokens: 61 + 14 + 41 + 96 + 480 + 14_210,
  contextTokens: 16_384,
  replyTokens: 1_024,
  leftOut: 2_318,
});

/**
 * Older messages left out while nothing stands for them (no summary written yet): the view says
 * they were left out, not that memory remembers them.
 */
export const WhatTheMateSeesWithNothingRemembered: Story = {
  parameters: {
    app,
    msw: {
      handlers: api(
        mockEndpoint('/room/promptView', () => {
          const view = createPromptViewFixture({ leftOut: 1 });
          return { ...view, parts: view.parts.filter((part) => part.kind !== 'summary') };
        }),
      ),
    },
  },
  play: async ({ canvasElement }) => {
    const { dialog } = await openPromptParts(canvasElement);
    await expect(dialog).toHaveTextContent('1 older message did not fit and is left out.');
    await expect(dialog).not.toHaveTextContent(/remember|story so far tells/i);
  },
};

/** Many entries: each part with its count, and the longest text shown and hidden again. */
export const WhatTheMateSeesAFullPrompt: Story = {
  parameters: {
    app,
    msw: { handlers: api(mockEndpoint('/room/promptView', () => fullPrompt)) },
  },
  play: async ({ canvasElement }) => {
    const { dialog, parts, names } = await openPromptParts(canvasElement);
    await expect(names).toEqual([
      'Character',
      'Pinned memories',
      'Story so far',
      'From your other chats',
      'Recalled memories',
      'Recent messages',
    ]);
    await expect(dialog).toHaveTextContent(
      '14,902 of 16,384 tokens, 1,024 kept free for the reply',
    );
    await expect(dialog).toHaveTextContent(
      '2,318 older messages did not fit and are left out. The story so far tells what they said.',
    );
    const items = within(parts).getAllByRole('listitem');
    await expect(items[3]).toHaveTextContent('96 tokens · 12 memories · <1% of the context');
    await expect(items[4]).toHaveTextContent('480 tokens · 40 memories · 3% of the context');
    await expect(items[5]).toHaveTextContent('14,210 tokens · 120 messages · 87% of the context');
    const show = within(items[5]!).getByRole('button', { name: 'Show the text' });
    await userEvent.click(show);
    const last = within(items[5]!).getByText(/Line 120 of a long night/);
    await expect(last).toBeVisible();
    await userEvent.click(within(items[5]!).getByRole('button', { name: 'Hide the text' }));
    await expect(last).not.toBeVisible();
  },
};

/** On a phone (320 × 568) the view fits the screen: no part's control runs off its edge. */
export const WhatTheMateSeesPhone: Story = {
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  parameters: {
    app,
    msw: { handlers: api(mockEndpoint('/room/promptView', () => fullPrompt)) },
  },
  play: async ({ canvasElement }) => {
    const view = canvasElement.ownerDocument.defaultView!;
    await expect(view.innerWidth).toBeLessThanOrEqual(320);
    const { dialog } = await openPromptParts(canvasElement);
    const box = dialog.getBoundingClientRect();
    await expect(box.left).toBeGreaterThanOrEqual(0);
    await expect(box.right).toBeLessThanOrEqual(view.innerWidth);
    for (const button of within(dialog).getAllByRole('button')) {
      if (!button.checkVisibility()) continue;
      const edge = button.getBoundingClientRect();
      await expect(edge.left).toBeGreaterThanOrEqual(0);
      await expect(edge.right).toBeLessThanOrEqual(view.innerWidth);
    }
    // The last part is reached by scrolling inside the view.
    const last = within(dialog).getAllByRole('button', { name: 'Show the text' }).at(-1)!;
    last.scrollIntoView();
    await waitFor(() =>
      expect(last.getBoundingClientRect().bottom).toBeLessThanOrEqual(view.innerHeight),
    );
    await userEvent.click(last);
    await expect(last).toHaveAttribute('aria-expanded', 'true');
  },
};
