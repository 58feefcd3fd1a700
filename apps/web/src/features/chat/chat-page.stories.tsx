import type { Meta, StoryObj } from '@storybook/react-vite';
import { http, HttpResponse, type HttpHandler } from 'msw';
import type { ChatSendPayload } from '@mates/api-client';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  createPageFixture,
  createRoomSummaryFixture,
  createRoomFixture,
  createMessageFixture,
  createPersonaFixture,
  createRoomInfoFixture,
  mockChatStream,
  mockEndpoint,
  mockEndpointError,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import {
  api,
  failingLoad,
  missingLoad,
  screenStories,
  type StoryApp,
} from '../../testing/story-app';
import { DRAFTS_KEY, readDraft } from '../../lib/drafts';

const meta = { title: 'Screens/Chat', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const room = '/chat-detail?roomId=room-1';

/** Time for an answer to arrive on a busy machine. */
const LOADS = { timeout: 5000 };

/** The conversation as the server keeps it, with the persona in use. */
export const SignedIn: Story = {
  parameters: { app: { path: room, signedIn: true } },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    await expect(log).toHaveAttribute('aria-live', 'polite');
    await expect(within(log).getAllByRole('article')).toHaveLength(3);
    // Each message carries when it was written (shown on hover and focus).
    const [first] = within(log).getAllByRole('article');
    await expect(first!.querySelector('time')).toHaveAttribute('datetime');
    await expect(canvas.getByText('Chatting as Ada')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Regenerate reply' })).toBeVisible();
  },
};

/**
 * By keyboard: opening a chat puts the focus in the message box, so typing goes there at once;
 * the first Tab stop from the top of the page is still "Skip to content".
 */
export const OpensOnTheComposer: Story = {
  parameters: { app: { path: room, signedIn: true } },
  play: async ({ canvas }) => {
    await canvas.findByRole('log', { name: 'Conversation' });
    const message = canvas.getByRole('textbox', { name: 'Message' });
    await waitFor(() => expect(message).toHaveFocus());
    await userEvent.keyboard('Hello');
    await expect(message).toHaveValue('Hello');
    message.blur();
    await userEvent.tab();
    await expect(canvas.getByRole('link', { name: 'Skip to content' })).toHaveFocus();
  },
};

/**
 * A message left unsent on an earlier visit (a reload, a closed tab) is back in the box, the
 * focus after it; once sent and saved, the device forgets it.
 */
export const KeepsAnUnsentMessage: Story = {
  parameters: {
    app: {
      path: room,
      signedIn: true,
      stored: {
        [DRAFTS_KEY]: JSON.stringify({ 'room-1': { text: 'Half a thought about', at: 1 } }),
      },
    },
    msw: { handlers: api(mockChatStream({ reply: 'The keeper lit it at dusk.' })) },
  },
  play: async ({ canvas, loaded }) => {
    const message = await canvas.findByRole('textbox', { name: 'Message' });
    await expect(message).toHaveValue('Half a thought about');
    await waitFor(() => expect(message).toHaveFocus());
    await userEvent.keyboard(' the lighthouse');
    const { storage } = (loaded.app as StoryApp).services;
    await expect(readDraft(storage, 'room-1').text).toBe('Half a thought about the lighthouse');
    await userEvent.keyboard('{Enter}');
    const log = canvas.getByRole('log', { name: 'Conversation' });
    await within(log).findByText('The keeper lit it at dusk.');
    await expect(message).toHaveValue('');
    await waitFor(() => expect(readDraft(storage, 'room-1')).toEqual({ text: '', sending: null }));
  },
};

/** A sent message streams its reply word by word, then the benefits follow the reply's end. */
export const SendAndStreamAReply: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(mockChatStream({ reply: 'The lighthouse keeps its own time.', delayMs: 120 })),
    },
  },
  play: async ({ canvas, loaded }) => {
    const app = loaded.app as StoryApp;
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Tell me a secret');
    await userEvent.click(canvas.getByRole('button', { name: 'Send' }));
    await expect(await within(log).findByText('Tell me a secret')).toBeVisible();
    // Mid-reply: part of the text, and Stop instead of Send.
    await waitFor(() => expect(log).toHaveTextContent('The lighthouse'));
    await expect(log).not.toHaveTextContent('its own time.');
    await expect(canvas.getByRole('button', { name: 'Stop' })).toBeVisible();
    await waitFor(() => expect(log).toHaveTextContent('The lighthouse keeps its own time.'));
    await waitFor(() =>
      expect(app.services.store.getSnapshot().context.userBenefits.chats).toBe(19),
    );
    await expect(canvas.getByRole('button', { name: 'Send' })).toBeVisible();
  },
};

/** On a small phone (320 × 568): nothing runs off the side. */
export const Phone: Story = {
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  parameters: { app: { path: room, signedIn: true } },
  play: async ({ canvas, canvasElement }) => {
    const view = canvasElement.ownerDocument.defaultView!;
    await expect(view.innerWidth).toBeLessThanOrEqual(320);
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    const message = canvas.getByRole('textbox', { name: 'Message' });
    for (const element of [log, message, canvas.getByRole('button', { name: 'Send' })]) {
      const box = element.getBoundingClientRect();
      await expect(box.left).toBeGreaterThanOrEqual(0);
      await expect(box.right).toBeLessThanOrEqual(view.innerWidth);
    }
    await expect(canvasElement.ownerDocument.documentElement.scrollWidth).toBeLessThanOrEqual(
      view.innerWidth,
    );
  },
};

/**
 * On a phone (414 × 896): one compact header row (back, portrait and name, a menu for the
 * rest), the conversation takes the screen, and the composer sits on the bottom edge.
 */
export const PhoneHeader: Story = {
  globals: { viewport: { value: 'mobile2', isRotated: false } },
  parameters: { app: { path: room, signedIn: true } },
  play: async ({ canvas, canvasElement }) => {
    const view = canvasElement.ownerDocument.defaultView!;
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    const back = canvas.getByRole('link', { name: 'Back to recent chats' });
    const profile = canvas.getByRole('link', { name: /^Profile of/ });
    const more = canvas.getByRole('button', { name: 'More' });
    // One row: all three at the same height, and the conversation starts under it.
    const row = back.getBoundingClientRect();
    for (const element of [profile, more]) {
      const box = element.getBoundingClientRect();
      await expect(box.top).toBeLessThan(row.bottom);
      await expect(box.bottom).toBeGreaterThan(row.top);
    }
    await expect(log.getBoundingClientRect().top).toBeLessThan(view.innerHeight * 0.15);
    // The way back is a finger's size, as the menu's button is (the arrow alone was 13 px wide).
    for (const element of [back, more]) {
      const box = element.getBoundingClientRect();
      await expect(box.width).toBeGreaterThanOrEqual(44);
      await expect(box.height).toBeGreaterThanOrEqual(44);
    }
    // The rest is in the menu, not on the screen.
    await expect(canvas.queryByRole('button', { name: 'Delete chat' })).toBeNull();
    await userEvent.click(more);
    await expect(await canvas.findByRole('button', { name: 'Delete chat' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: /^New chat/ })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Chats' })).toBeVisible();
    await userEvent.keyboard('{Escape}');
    await expect(canvas.queryByRole('button', { name: 'Delete chat' })).toBeNull();
    await expect(more).toHaveFocus();
    // No empty band under the composer.
    const form = canvas.getByRole('textbox', { name: 'Message' }).closest('form')!;
    // Only the bar's own padding (it was ~45 px, and a short chat left the composer mid-screen).
    await expect(view.innerHeight - form.getBoundingClientRect().bottom).toBeLessThan(24);
  },
};

/** On a phone, a reply does not move the page: the header and the composer stay where they are. */
export const PhoneStaysStillAfterAReply: Story = {
  globals: PhoneHeader.globals,
  parameters: {
    ...PhoneHeader.parameters,
    msw: { handlers: api(mockChatStream({ reply: 'The tide is in.', delayMs: 20 })) },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    const back = canvas.getByRole('link', { name: 'Back to recent chats' });
    const box = canvas.getByRole('textbox', { name: 'Message' });
    const form = box.closest('form')!;
    const before = {
      header: back.getBoundingClientRect().top,
      composer: form.getBoundingClientRect().bottom,
    };
    await userEvent.type(box, 'Is the tide in?{Enter}');
    await waitFor(() => expect(log).toHaveTextContent('The tide is in.'));
    await expect(await canvas.findByRole('button', { name: 'Send' })).toBeVisible();
    await waitFor(() =>
      expect(within(log).getAllByRole('button', { name: 'Regenerate reply' })).toHaveLength(1),
    );
    await expect(back.getBoundingClientRect().top).toBeCloseTo(before.header, 0);
    await expect(form.getBoundingClientRect().bottom).toBeCloseTo(before.composer, 0);
  },
};

/** On a small phone, a message sent with Enter gets its reply. */
export const SendFromAPhone: Story = {
  globals: Phone.globals,
  parameters: Phone.parameters,
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Hi{Enter}');
    await waitFor(() => expect(log).toHaveTextContent('Tell me everything.'));
  },
};

// The chat requests a story's app sent, as the server received them.
const sent: ChatSendPayload[] = [];
const recordSends = http.post('*/api/girl/chat/send', async ({ request }) => {
  sent.push((await request.clone().json()) as ChatSendPayload);
  // Nothing returned: the next handler (the stream) answers.
});

/** Regenerate, straight after opening the room: the last reply is replaced by a new one. */
export const RegenerateTheLastReply: Story = {
  loaders: [() => void (sent.length = 0)],
  parameters: {
    app: { path: room, signedIn: true },
    msw: { handlers: api(recordSends, mockChatStream({ reply: 'Another answer, then.' })) },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    await userEvent.click(canvas.getByRole('button', { name: 'Regenerate reply' }));
    await waitFor(() => expect(log).toHaveTextContent('Another answer, then.'));
    await expect(sent).toEqual([{ roomId: 'room-1', regenerate: true }]);
  },
};

/**
 * The editor, by keyboard: Escape closes it and focus goes back to Edit; an empty message is
 * refused by the field, saying why; Save closes it and focus goes back to Edit again.
 */
export const EditByKeyboard: Story = {
  parameters: { app: { path: room, signedIn: true } },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    const mine = () => within(within(log).getByRole('article', { name: 'You say' }));
    await userEvent.click(mine().getByRole('button', { name: 'Edit message' }));
    const editor = await canvas.findByRole('textbox', { name: 'Edit the message' });
    await expect(editor).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(mine().getByRole('button', { name: 'Edit message' })).toHaveFocus());

    await userEvent.keyboard('{Enter}');
    const again = await canvas.findByRole('textbox', { name: 'Edit the message' });
    await userEvent.clear(again);
    await userEvent.click(canvas.getByRole('button', { name: 'Save' }));
    await expect(again).toHaveAccessibleDescription('Write something, or delete the message.');
    await userEvent.type(again, 'Kept, and said again.');
    await userEvent.click(canvas.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(mine().getByRole('button', { name: 'Edit message' })).toHaveFocus());
  },
};

/**
 * Found from outside: a chat that ends on the person's message (a path branched from it, a
 * reply stopped before its first word) showed "Regenerate reply" on the reply before it, which
 * then stayed as it was while a new reply came after their message. That reply has no such
 * button now; their message has "Ask for a reply", and stays in view while the reply is written.
 */
export const AskForAReplyToTheLastMessage: Story = {
  loaders: [() => void (sent.length = 0)],
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        recordSends,
        mockChatStream({ reply: 'At last, the map.', delayMs: 200 }),
        mockEndpoint('/room/roomInfo', () => {
          const info = createRoomInfoFixture();
          return {
            ...info,
            messages: [
              ...info.messages,
              createMessageFixture({ messageId: 'msg-4', role: 'user', content: 'Here it is.' }),
            ],
          };
        }),
      ),
    },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    await waitFor(() => expect(log).toHaveTextContent('Here it is.'));
    await expect(within(log).queryByRole('button', { name: 'Regenerate reply' })).toBeNull();
    const mine = within(log).getAllByRole('article', { name: 'You say' }).at(-1)!;
    await expect(mine).toHaveTextContent('Here it is.');
    await userEvent.click(within(mine).getByRole('button', { name: 'Ask for a reply' }));
    await waitFor(() => expect(log).toHaveTextContent('At last'), LOADS);
    // Their message stays while the reply is written.
    await expect(log).toHaveTextContent('Here it is.');
    await waitFor(() => expect(log).toHaveTextContent('At last, the map.'), LOADS);
    await expect(sent).toEqual([{ roomId: 'room-1', regenerate: true }]);
  },
};

/** An earlier message edited, then answered again: the conversation continues from it. */
export const EditAMessageAndContinue: Story = {
  loaders: [() => void (sent.length = 0)],
  parameters: {
    app: { path: room, signedIn: true },
    msw: { handlers: api(recordSends, mockChatStream({ reply: 'An old map? Show me.' })) },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    const mine = within(within(log).getByRole('article', { name: 'You say' }));
    await userEvent.click(mine.getByRole('button', { name: 'Edit message' }));
    const editor = await canvas.findByRole('textbox', { name: 'Edit the message' });
    await userEvent.clear(editor);
    await userEvent.type(editor, 'I brought the old map.');
    await userEvent.click(canvas.getByRole('button', { name: 'Save and reply again' }));
    await waitFor(() => expect(log).toHaveTextContent('An old map? Show me.'));
    await expect(sent).toEqual([{ roomId: 'room-1', regenerate: true, fromMessageId: 'msg-2' }]);
  },
};

/**
 * Found from outside: answering an earlier message again deleted the turns after it, the
 * person's own among them, without a word. It asks first, and says how to keep them; cancelled,
 * nothing is sent and the edit stays open.
 */
export const ReplyAgainFromAnEarlierMessage: Story = {
  loaders: [() => void (sent.length = 0)],
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        recordSends,
        mockChatStream({ reply: 'An old map? Show me.' }),
        mockEndpoint('/room/roomInfo', () => {
          const info = createRoomInfoFixture();
          return {
            ...info,
            messages: [
              ...info.messages,
              createMessageFixture({ messageId: 'msg-4', role: 'user', content: 'Here it is.' }),
              createMessageFixture({ messageId: 'msg-5', content: '*She unrolls it.* North.' }),
            ],
          };
        }),
      ),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    const [first] = within(log).getAllByRole('article', { name: 'You say' });
    await userEvent.click(within(first!).getByRole('button', { name: 'Edit message' }));
    const editor = await canvas.findByRole('textbox', { name: 'Edit the message' });
    await userEvent.clear(editor);
    await userEvent.type(editor, 'I brought the old map.');
    const again = canvas.getByRole('button', { name: 'Save and reply again' });
    await userEvent.click(again);
    const page = within(canvasElement.ownerDocument.body);
    const dialog = await page.findByRole('dialog', { name: 'Reply again from this message?' });
    await expect(dialog).toHaveTextContent(
      'The 3 messages after it will be deleted. To keep them, cancel and choose “Branch from here” first.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(page.queryByRole('dialog')).toBeNull());
    await expect(sent).toEqual([]);
    await expect(canvas.getByRole('textbox', { name: 'Edit the message' })).toHaveValue(
      'I brought the old map.',
    );
    await userEvent.click(canvas.getByRole('button', { name: 'Save and reply again' }));
    const asked = await page.findByRole('dialog', { name: 'Reply again from this message?' });
    await userEvent.click(within(asked).getByRole('button', { name: 'Delete and reply again' }));
    await waitFor(() => expect(log).toHaveTextContent('An old map? Show me.'));
    await expect(sent).toEqual([{ roomId: 'room-1', regenerate: true, fromMessageId: 'msg-2' }]);
  },
};

/** Stop ends the reply where it is; the composer is ready again, long before it would end. */
export const StopAReply: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    // Eight events, 600 ms apart: left alone, the reply would take about five seconds.
    msw: { handlers: api(mockChatStream({ reply: 'one two three four five six', delayMs: 600 })) },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Go on{Enter}');
    await waitFor(() => expect(log).toHaveTextContent('one'), { timeout: 3000 });
    await userEvent.click(canvas.getByRole('button', { name: 'Stop' }));
    await expect(await canvas.findByRole('button', { name: 'Send' })).toBeVisible();
    await expect(log).not.toHaveTextContent('six');
    // Found from outside: what had arrived vanished at Stop, the room read again before the
    // server had saved it (here the mocked room never has it). It stays on screen.
    await expect(log).toHaveTextContent('one');
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await expect(log).toHaveTextContent('one');
  },
};

/**
 * Stop before the first word: the person's choice, not a failure. No empty bubble, neither
 * "cut off" nor "failed" (the room read again while the server still held the empty reply
 * included), and the chat list beside shows the last words, the person's message.
 */
export const StopBeforeAnyText: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: (() => {
        const sent: { content: string | null } = { content: null };
        const base = createRoomInfoFixture().messages;
        const yours = () =>
          createMessageFixture({ messageId: 'msg-user', role: 'user', content: sent.content! });
        return api(
          // The server has not yet seen the stop: the empty reply is still in the room.
          mockEndpoint('/room/roomInfo', () =>
            createRoomInfoFixture({
              messages: sent.content
                ? [
                    ...base,
                    yours(),
                    createMessageFixture({
                      messageId: 'msg-reply',
                      content: '',
                      status: 'partial',
                    }),
                  ]
                : base,
            }),
          ),
          mockEndpoint('/room/roomList', () =>
            createPageFixture(
              [0, 1, 2].map((index) =>
                createRoomSummaryFixture(
                  index === 0 && sent.content ? { lastMessage: yours() } : {},
                  index,
                ),
              ),
            ),
          ),
          http.post('*/api/girl/chat/send', async ({ request }) => {
            sent.content = ((await request.clone().json()) as { content: string }).content;
          }),
          // Its first word would come after ten seconds.
          mockChatStream({ reply: 'Too late', delayMs: 10_000 }),
        );
      })(),
    },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    const side = await canvas.findByRole('navigation', { name: 'Your chats' });
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Go on{Enter}');
    await userEvent.click(await canvas.findByRole('button', { name: 'Stop' }));
    await expect(await canvas.findByRole('button', { name: 'Send' })).toBeVisible();
    // The chat list is read again once the stopped turn ends: under a loaded CI machine that
    // took over five seconds (seen once among 293 files run side by side).
    await waitFor(() => expect(side).toHaveTextContent('Go on'), { timeout: 15_000 });
    await expect(within(log).getAllByRole('article').at(-1)).toHaveTextContent('Go on');
    await expect(log).not.toHaveTextContent('This reply was cut off.');
    await expect(log).not.toHaveTextContent('This reply failed.');
  },
};

/**
 * Found when CI failed once on the story above: Stop pressed before the server had kept the
 * person's message. The chat's own read after Stop came back without it; the look for the
 * message, later, found it kept, and left the reading to that first read: the message was gone
 * from the conversation (the chat list beside had it) until a reload. Here the server keeps it
 * after the first read, and the look answers after that.
 */
export const StopBeforeTheMessageIsKept: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: (() => {
        const sent: { content: string | null } = { content: null };
        const base = createRoomInfoFixture().messages;
        return api(
          mockEndpoint('/room/roomInfo', async ({ query }) => {
            // The look for the sent message (ten newest messages) answers after it is kept.
            if (query.pageSize === '10') await new Promise((resolve) => setTimeout(resolve, 1_200));
            const content = sent.content;
            return createRoomInfoFixture({
              messages: content
                ? [...base, createMessageFixture({ messageId: 'msg-user', role: 'user', content })]
                : base,
            });
          }),
          http.post('*/api/girl/chat/send', async ({ request }) => {
            const { content } = (await request.clone().json()) as { content: string };
            setTimeout(() => void (sent.content = content), 600);
          }),
          mockChatStream({ reply: 'Too late', delayMs: 10_000 }),
        );
      })(),
    },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Go on{Enter}');
    await userEvent.click(await canvas.findByRole('button', { name: 'Stop' }));
    await waitFor(
      () => expect(within(log).getAllByRole('article').at(-1)).toHaveTextContent('Go on'),
      { timeout: 5_000 },
    );
    // Kept by the server: not also back in the box.
    await expect(canvas.getByRole('textbox', { name: 'Message' })).toHaveValue('');
  },
};

/** Ideas: asks for suggested replies to pick from. */
export const AskForIdeas: Story = {
  parameters: { app: { path: room, signedIn: true } },
  play: async ({ canvas }) => {
    await canvas.findByRole('log', { name: 'Conversation' });
    await userEvent.click(canvas.getByRole('button', { name: 'Ideas' }));
    const ideas = await canvas.findByRole('group', { name: 'Suggested replies' });
    await expect(within(ideas).getAllByRole('button')).toHaveLength(3);
  },
};

/**
 * Ideas the server could not give: the person hears why, rather than nothing at all, and what
 * they typed stays.
 */
export const IdeasThatFail: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        mockEndpointError('/girl/chat/getInspiration', 5000, 'The model is not answering.'),
      ),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    const message = await canvas.findByRole('textbox', { name: 'Message' });
    await userEvent.type(message, 'Half a thought');
    await userEvent.click(canvas.getByRole('button', { name: 'Ideas' }));
    const body = within(canvasElement.ownerDocument.body);
    await expect(await body.findByText('The model is not answering.', {}, LOADS)).toBeDefined();
    await expect(message).toHaveValue('Half a thought');
    await expect(canvas.queryByRole('group', { name: 'Suggested replies' })).toBeNull();
  },
};

// What the mocked server remembers during one story: how often the room was read.
const server = { reads: 0 };

/** A reply the engine could not finish: the stream's error is only logged (docs/product.md,
 * errors); the saved reply, read again, says it failed. */
export const SendAndTheReplyFails: Story = {
  loaders: [() => void (server.reads = 0)],
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        mockChatStream({ errorMessage: 'The model is resting' }),
        mockEndpoint('/room/roomInfo', () => {
          const info = createRoomInfoFixture();
          server.reads += 1;
          if (server.reads === 1) return info;
          return {
            ...info,
            messages: [
              ...info.messages,
              createMessageFixture({ messageId: 'msg-4', role: 'user', content: 'Hello' }),
              createMessageFixture({ messageId: 'msg-5', content: 'I', status: 'error' }),
            ],
          };
        }),
      ),
    },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Hello{Enter}');
    await expect(await within(log).findByText('This reply failed.')).toBeVisible();
    await expect(log).not.toHaveTextContent('The model is resting');
  },
};

export const Loading: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: { handlers: api(mockEndpointLoading('/room/roomInfo')) },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('status', { name: 'Loading' })).toBeVisible();
  },
};

/** A new room holds only the mate's greeting. */
export const NewRoom: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/room/roomInfo', () => {
          const info = createRoomInfoFixture({ persona: null });
          return { ...info, messages: info.messages.slice(0, 1) };
        }),
      ),
    },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    await expect(within(log).getAllByRole('article')).toHaveLength(1);
    await expect(canvas.getByText('Chatting as yourself')).toBeVisible();
  },
};

/** No room at all says how to start one. */
export const NoRoom: Story = {
  parameters: { app: { path: '/chat-detail', signedIn: true } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No chat open')).toBeVisible();
    // Without a header, the page itself offers the way on.
    await expect(canvas.getByRole('link', { name: 'Your recent chats' })).toHaveAttribute(
      'href',
      '#/recent-chats',
    );
    await expect(canvas.getByRole('link', { name: 'Discover mates' })).toHaveAttribute(
      'href',
      '#/',
    );
  },
};

export const Error: Story = failingLoad(
  { path: room, signedIn: true },
  '/room/roomInfo',
  'No such room',
  'This chat could not be loaded',
);

/** A chat that is not there (deleted, or another's): the way back to the chats, not "Try again". */
export const RoomNotFound: Story = missingLoad(
  { path: '/chat-detail?roomId=room-404', signedIn: true },
  '/room/roomInfo',
  'Room not found.',
  ['Your recent chats', 'Discover mates'],
);

/** A room whose mate turned private: its messages stay readable, no new message can be sent. */
export const ReadOnly: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/room/roomInfo', () =>
          createRoomInfoFixture({
            readOnly:
              'This mate is no longer available. You can read this chat, but not continue it.',
          }),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    await expect(within(log).getAllByRole('article')).toHaveLength(3);
    await expect(canvas.getByRole('status')).toHaveTextContent(
      'This mate is no longer available. You can read this chat, but not continue it.',
    );
    await expect(canvas.queryByRole('textbox', { name: 'Message' })).toBeNull();
    await expect(canvas.queryByRole('button', { name: 'Regenerate reply' })).toBeNull();
    await expect(canvas.queryByRole('link', { name: /page/ })).toBeNull();
  },
};

// A long conversation: 60 messages, the newest last, and a reply still to come.
const LONG = createRoomInfoFixture({
  messages: Array.from({ length: 60 }, (_, index) =>
    createMessageFixture({
      messageId: `msg-${index + 1}`,
      role: index % 2 ? 'user' : 'mate',
      content:
        index === 59
          ? 'The last thing said, at the bottom.'
          : `Message ${index + 1}: the tide came in over the old causeway, as it does.`,
    }),
  ),
});

/** The part of `element` inside the scrolling main container's visible box. */
function inView(element: Element): boolean {
  const box = element.getBoundingClientRect();
  const view = element.ownerDocument.defaultView!;
  return box.top >= 0 && box.bottom <= view.innerHeight + 1;
}

/** A resumed long chat opens at its latest message, with the composer on screen. */
export const LongChatOpensAtTheLatest: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: { handlers: api(mockEndpoint('/room/roomInfo', () => LONG)) },
  },
  play: async ({ canvas }) => {
    const last = await canvas.findByText('The last thing said, at the bottom.');
    await waitFor(() => expect(inView(last)).toBe(true));
    await expect(inView(canvas.getByRole('textbox', { name: 'Message' }))).toBe(true);
    await expect(inView(canvas.getByRole('button', { name: 'Send' }))).toBe(true);
  },
};

/** On a phone too: the latest message and the composer are on screen. */
export const LongChatOnAPhone: Story = {
  globals: Phone.globals,
  parameters: LongChatOpensAtTheLatest.parameters,
  play: LongChatOpensAtTheLatest.play,
};

/**
 * Scrolled up to read, a new reply does not pull the view down: a "New messages" button says
 * so, and takes the reader to the bottom.
 */
export const NewMessagesWhileReadingBack: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: (() => {
        // As the server does: once the reply is saved, the room holds the message and it.
        let sent = false;
        return api(
          http.post('*/api/girl/chat/send', () => {
            sent = true;
          }),
          mockEndpoint('/room/roomInfo', () =>
            sent
              ? {
                  ...LONG,
                  messages: [
                    ...LONG.messages,
                    createMessageFixture({
                      messageId: 'msg-user',
                      role: 'user',
                      content: 'Tell me more',
                    }),
                    createMessageFixture({
                      messageId: 'msg-reply',
                      content: 'A new reply slowly arrives.',
                    }),
                  ],
                }
              : LONG,
          ),
          mockChatStream({ reply: 'A new reply slowly arrives.', delayMs: 150 }),
        );
      })(),
    },
  },
  play: async ({ canvas }) => {
    const last = await canvas.findByText('The last thing said, at the bottom.');
    await waitFor(() => expect(inView(last)).toBe(true));
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Tell me more{Enter}');
    // The reader scrolls back to the start while the reply streams.
    const first = canvas.getByText(/^Message 1:/);
    first.scrollIntoView({ block: 'start' });
    const pill = await canvas.findByRole('button', { name: 'New messages' });
    await expect(inView(first)).toBe(true);
    await userEvent.click(pill);
    const log = canvas.getByRole('log', { name: 'Conversation' });
    await waitFor(() => expect(inView(within(log).getAllByRole('article').at(-1)!)).toBe(true));
    await waitFor(() => expect(canvas.queryByRole('button', { name: 'New messages' })).toBeNull());
  },
};

/** A message the server refuses (no chats left, the model still loading) stays in the composer. */
export const RefusedMessageStaysInTheComposer: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        mockEndpointError(
          '/girl/chat/send',
          5007,
          'You have no chats left. Buy more on the packages page, or come back tomorrow.',
        ),
      ),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    const message = await canvas.findByRole('textbox', { name: 'Message' });
    await userEvent.type(message, 'A long thought I took care to write{Enter}');
    const body = within(canvasElement.ownerDocument.body);
    await expect(await body.findByText(/You have no chats left\./)).toBeDefined();
    await waitFor(() => expect(message).toHaveValue('A long thought I took care to write'));
  },
};

/** The refusal of a server without a language model: the notice, and why in one word. */
const modelMissing = (message: string) =>
  http.post('*/api/girl/chat/send', () =>
    HttpResponse.json({ c: 5007, m: message, d: { reason: 'model-missing' } }),
  );

/**
 * No language model on the server: besides the notice, the chat says what it means and how
 * whoever runs the server sets one up (LLM_MODEL), and the message stays in the composer.
 */
export const NoModelOnTheServer: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(modelMissing('The model is not available right now. Please try again later.')),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    const message = await canvas.findByRole('textbox', { name: 'Message' });
    const statuses = statusesIn(canvasElement);
    await userEvent.type(message, 'Hello?{Enter}');
    const told = await canvas.findByText(/No language model is set up on this server yet/);
    await expect(told).toHaveTextContent('LLM_MODEL');
    // Said in a live region that was there, empty, before: one added with its words already in
    // it is not read out by every screen reader.
    await expect(statuses).toContain(told.closest('[role="status"]'));
    await waitFor(() => expect(message).toHaveValue('Hello?'));
  },
};

/** The same in Spanish: the chat explains in the person's language; the setting keeps its name. */
export const NoModelOnTheServerInSpanish: Story = {
  parameters: {
    app: { path: room, signedIn: true, language: 'es' },
    msw: {
      handlers: api(
        modelMissing('El modelo no está disponible ahora. Inténtalo de nuevo más tarde.'),
      ),
    },
  },
  play: async ({ canvas }) => {
    const message = await canvas.findByRole('textbox', { name: 'Mensaje' });
    await userEvent.type(message, 'Hola{Enter}');
    const told = await canvas.findByText(/Este servidor aún no tiene un modelo de lenguaje/);
    await expect(told).toHaveTextContent('LLM_MODEL');
  },
};

/** The live regions of role `status` on the page now. */
const statusesIn = (element: HTMLElement) => [...element.querySelectorAll('[role="status"]')];

/** The refusal of a model still loading: it says when to ask again. */
const STILL_LOADING = 'The model is still starting up. Please send again in a moment.';
const stillLoading = () =>
  http.post(
    '*/api/girl/chat/send',
    () =>
      HttpResponse.json(
        { c: 5007, m: STILL_LOADING, d: null },
        { headers: { 'Retry-After': '1' } },
      ),
    { once: true },
  );

/**
 * While the model loads, the message waits and says so, with a way to cancel; once the model
 * is ready it goes by itself, and the reply streams in.
 */
export const SentWhenTheModelIsReady: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        stillLoading(),
        mockChatStream({ reply: 'There you are. The kettle is on.', delayMs: 20 }),
      ),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    const statuses = statusesIn(canvasElement);
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Hello?{Enter}');
    const notice = await canvas.findByText(
      `${STILL_LOADING} Your message will be sent as soon as it is ready.`,
    );
    await expect(statuses).toContain(notice.closest('[role="status"]'));
    await expect(canvas.getByRole('button', { name: 'Cancel sending' })).toBeVisible();
    await expect(within(log).getByText('Hello?')).toBeVisible();
    // A second later the same message goes again, and the reply comes.
    await waitFor(() => expect(log).toHaveTextContent('There you are. The kettle is on.'), LOADS);
    await expect(canvas.queryByRole('button', { name: 'Cancel sending' })).toBeNull();
  },
};

/** Cancelled while it waits, the message goes back into the composer and is not sent. */
export const CancelWhileTheModelLoads: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: { handlers: api(stillLoading(), stillLoading(), stillLoading()) },
  },
  play: async ({ canvas }) => {
    const message = await canvas.findByRole('textbox', { name: 'Message' });
    await userEvent.type(message, 'A thought worth keeping{Enter}');
    await userEvent.click(await canvas.findByRole('button', { name: 'Cancel sending' }));
    await waitFor(() => expect(message).toHaveValue('A thought worth keeping'));
    await expect(canvas.queryByRole('button', { name: 'Cancel sending' })).toBeNull();
    await expect(canvas.getByRole('button', { name: 'Send' })).toBeVisible();
  },
};

/** Presses "New chat with Lyra Moonwhisper" in the chat's header. */
async function pressNewChat(canvas: ReturnType<typeof within>) {
  await userEvent.click(
    await canvas.findByRole('button', { name: 'New chat with Lyra Moonwhisper' }),
  );
}

/** "New chat" starts another conversation with the same mate and opens it. */
export const NewChatWithTheSameMate: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/room/createRoom', () => createRoomFixture({ roomId: 'room-9' })),
      ),
    },
  },
  play: async ({ canvas, loaded }) => {
    const app = loaded.app as StoryApp;
    await pressNewChat(canvas);
    await waitFor(() => expect(app.router.state.location.search).toBe('?roomId=room-9'));
  },
};

/** "New chat" that fails (the connection lost here) says so, and stays in this chat. */
export const NewChatOffline: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: { handlers: api(http.get('*/room/createRoom', () => HttpResponse.error())) },
  },
  play: async ({ canvas, loaded }) => {
    const app = loaded.app as StoryApp;
    await pressNewChat(canvas);
    await waitFor(() =>
      expect(app.services.notices.getSnapshot().context.notices).toEqual([
        expect.objectContaining({
          tone: 'negative',
          message: expect.stringMatching(/connection/i),
        }),
      ]),
    );
    await expect(app.router.state.location.search).toBe('?roomId=room-1');
  },
};

// What the mocked server was asked during one story: the persona each new chat was opened as.
const openedAs: (string | undefined)[] = [];

/**
 * "New chat" from a chat played as a persona other than the default opens the new one as that
 * persona too (it opened as the default, greeting someone else), as SillyTavern's new chat does.
 */
export const NewChatAsThePersonaPlayed: Story = {
  loaders: [() => void openedAs.splice(0)],
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/room/roomInfo', () =>
          createRoomInfoFixture({
            persona: createPersonaFixture({
              uuid: 'persona-2',
              name: 'Captain Vale',
              isDefault: false,
            }),
          }),
        ),
        mockEndpoint('/room/createRoom', ({ query }) => {
          openedAs.push(query.personaId);
          return createRoomFixture({ roomId: 'room-9', personaId: query.personaId ?? null });
        }),
      ),
    },
  },
  play: async ({ canvas, loaded }) => {
    const app = loaded.app as StoryApp;
    await pressNewChat(canvas);
    await waitFor(() => expect(app.router.state.location.search).toBe('?roomId=room-9'));
    await expect(openedAs).toEqual(['persona-2']);
  },
};

/** "Delete chat" asks first, then deletes it and goes back to the recent chats. */
export const DeleteThisChat: Story = {
  parameters: { app: { path: room, signedIn: true } },
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await canvas.findByRole('button', { name: 'Delete chat' }));
    const confirm = await body.findByRole('dialog', { name: 'Delete this chat?' });
    await expect(confirm).toHaveTextContent(
      'The whole conversation with Lyra Moonwhisper is deleted, for good.',
    );
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/recent-chats'));
  },
};

// What the mocked server remembers during one story: which greeting is shown.
const greetings = {
  texts: [
    "*Lyra looks up and smiles.* Oh, it's you, Ada.",
    '*The library door creaks.* Another late reader?',
    '*Lyra closes her book.* I was hoping for company.',
  ],
  shown: 0,
};
const greetingMessage = () =>
  createMessageFixture({
    messageId: 'msg-1',
    content: greetings.texts[greetings.shown]!,
    swipes: { index: greetings.shown, count: 3 },
  });

/**
 * A room whose greeting has three versions, the first shown, with `chooseSwipe` as given (and
 * any `more` handlers).
 */
const greetingRoom = (
  chooseSwipe: HttpHandler,
  ...more: HttpHandler[]
): Pick<Story, 'loaders' | 'parameters'> => ({
  loaders: [() => void (greetings.shown = 0)],
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/room/roomInfo', () =>
          createRoomInfoFixture({ messages: [greetingMessage()] }),
        ),
        chooseSwipe,
        ...more,
      ),
    },
  },
});

/** The server choosing the greeting asked for. */
const chooseGreeting = mockEndpoint('/room/chooseSwipe', ({ body }) => {
  greetings.shown = (body as { index: number }).index;
  return greetingMessage();
});

/** A greeting with alternate greetings offers ‹ 1/3 ›; the chosen one is what the chat goes on from. */
export const SwipeBetweenGreetings: Story = {
  ...greetingRoom(chooseGreeting),
  play: async ({ canvas }) => {
    const versions = await canvas.findByRole('group', { name: 'Versions of this reply' });
    await expect(versions).toHaveTextContent('1/3');
    const previous = within(versions).getByRole('button', { name: 'Previous version' });
    const next = within(versions).getByRole('button', { name: 'Next version' });
    await expect(previous).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(next);
    await expect(await canvas.findByText('Another late reader?', { exact: false })).toBeVisible();
    await waitFor(() => expect(versions).toHaveTextContent('2/3'));
    // By keyboard: the pressed button keeps the focus, through the save and at the last version.
    next.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(versions).toHaveTextContent('3/3'));
    await expect(next).toHaveAttribute('aria-disabled', 'true');
    await expect(next).toHaveFocus();
    // Pressed there, it does nothing.
    await userEvent.keyboard('{Enter}');
    await expect(versions).toHaveTextContent('3/3');
    await expect(greetings.shown).toBe(2);
  },
};

/**
 * The chats beside the conversation show the version chosen as the chat's last words, at once:
 * they kept the version shown before until a reload.
 */
export const ChatListFollowsTheVersionChosen: Story = {
  ...greetingRoom(
    chooseGreeting,
    mockEndpoint('/room/roomList', () =>
      createPageFixture([createRoomSummaryFixture({ lastMessage: greetingMessage() })]),
    ),
  ),
  play: async ({ canvas }) => {
    const side = await canvas.findByRole('navigation', { name: 'Your chats' });
    await expect(await within(side).findByText(/it's you, Ada/)).toBeVisible();
    const versions = await canvas.findByRole('group', { name: 'Versions of this reply' });
    await userEvent.click(within(versions).getByRole('button', { name: 'Next version' }));
    await waitFor(() => expect(versions).toHaveTextContent('2/3'));
    await expect(await within(side).findByText(/Another late reader/, {}, LOADS)).toBeVisible();
    await expect(within(side).queryByText(/it's you, Ada/)).toBeNull();
  },
};

/** Choosing another version that fails (the connection lost here) says so, and keeps the shown one. */
export const ChooseAVersionOffline: Story = {
  ...greetingRoom(http.post('*/room/chooseSwipe', () => HttpResponse.error())),
  play: async ({ canvas, loaded }) => {
    const versions = await canvas.findByRole('group', { name: 'Versions of this reply' });
    await userEvent.click(within(versions).getByRole('button', { name: 'Next version' }));
    const { app } = loaded as { app: StoryApp };
    await waitFor(() =>
      expect(app.services.notices.getSnapshot().context.notices).toEqual([
        expect.objectContaining({
          tone: 'negative',
          message: expect.stringMatching(/connection/i),
        }),
      ]),
    );
    await expect(versions).toHaveTextContent('1/3');
  },
};

// What the mocked server was asked during one story: the personas chosen.
const switched: (string | null)[] = [];

/** The persona played in this chat is switched from its top bar. */
export const SwitchThePersona: Story = {
  loaders: [() => void switched.splice(0)],
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/room/setPersona', ({ body }) => {
          const { personaId } = body as { personaId: string | null };
          switched.push(personaId);
          return {
            roomId: 'room-1',
            mateId: 'mate-1',
            personaId,
            createdAt: '2026-11-24T10:00:00.000Z',
            updatedAt: '2026-11-24T10:00:00.000Z',
          };
        }),
      ),
    },
  },
  play: async ({ canvas, canvasElement }) => {
    const playAs = await canvas.findByRole('combobox', { name: 'Play as' });
    await userEvent.click(playAs);
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await body.findByRole('option', { name: 'Yourself' }));
    await waitFor(() => expect(switched).toEqual([null]));
  },
};

/**
 * Switching the persona that fails (the connection lost here) says so, and the switch shows the
 * persona still played (it changed nothing but the chosen value, and said nothing).
 */
export const SwitchThePersonaOffline: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: { handlers: api(http.post('*/room/setPersona', () => HttpResponse.error())) },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    const playAs = await canvas.findByRole('combobox', { name: 'Play as' });
    await expect(playAs).toHaveTextContent('Ada');
    await userEvent.click(playAs);
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await body.findByRole('option', { name: 'Yourself' }));
    const { app } = loaded as { app: StoryApp };
    await waitFor(() =>
      expect(app.services.notices.getSnapshot().context.notices).toEqual([
        expect.objectContaining({
          tone: 'negative',
          message: expect.stringMatching(/connection/i),
        }),
      ]),
    );
    await expect(playAs).toHaveTextContent('Ada');
  },
};

// What the mocked server does during one story: whether reading the personas fails.
const personas = { failing: true };

/**
 * The personas could not be loaded: the chat says so beside "Chatting as", and why, and trying
 * again brings the switch.
 */
export const PersonasFailToLoad: Story = {
  loaders: [() => void (personas.failing = true)],
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        http.get('*/api/user/personas', () =>
          HttpResponse.json(
            personas.failing
              ? { c: 5000, m: 'The personas are out of reach.', d: null }
              : { c: 200, m: '', d: [createPersonaFixture()] },
          ),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    const alert = await canvas.findByRole('alert', {}, LOADS);
    await expect(alert).toHaveTextContent('Your personas could not be loaded.');
    await expect(alert).toHaveTextContent('The personas are out of reach.');
    await expect(canvas.queryByRole('combobox', { name: 'Play as' })).toBeNull();
    personas.failing = false;
    await userEvent.click(canvas.getByRole('button', { name: 'Try again' }));
    await expect(await canvas.findByRole('combobox', { name: 'Play as' }, LOADS)).toBeVisible();
    await expect(canvas.queryByRole('alert')).toBeNull();
  },
};

/** On a phone in French, the message box takes the whole width; the buttons go under it. */
export const PhoneInFrench: Story = {
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  parameters: { app: { path: room, signedIn: true, language: 'fr' } },
  play: async ({ canvas }) => {
    const box = await canvas.findByRole('textbox', { name: 'Message' });
    const send = canvas.getByRole('button', { name: 'Envoyer' });
    const form = box.closest('form')!;
    const width = box.getBoundingClientRect().width;
    await expect(width).toBeGreaterThan(form.getBoundingClientRect().width * 0.8);
    await expect(send.getBoundingClientRect().top).toBeGreaterThanOrEqual(
      box.getBoundingClientRect().bottom,
    );
  },
};

/** Playing as oneself, the switch says so (it showed an empty value). */
export const PlayingAsYourself: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(mockEndpoint('/room/roomInfo', () => createRoomInfoFixture({ persona: null }))),
    },
  },
  play: async ({ canvas }) => {
    const playAs = await canvas.findByRole('combobox', { name: 'Play as' });
    await expect(playAs).toHaveTextContent('Yourself');
  },
};

/** A room of 120 messages kept as the server keeps them: pages of 50 before a message. */
function storedRoom() {
  const messages = Array.from({ length: 120 }, (_, index) =>
    createMessageFixture({
      messageId: `msg-${index + 1}`,
      role: index % 2 ? 'user' : 'mate',
      content: `Message ${index + 1}: the tide came in over the old causeway, as it does.`,
    }),
  );
  const roomInfo = mockEndpoint('/room/roomInfo', ({ query }) => {
    const size = Number(query.pageSize ?? 50);
    const end = query.before
      ? messages.findIndex((message) => message.messageId === query.before)
      : messages.length;
    const start = Math.max(0, end - size);
    return createRoomInfoFixture({
      messages: messages.slice(start, end),
      hasMoreBefore: start > 0,
    });
  });
  // A sent message and its reply are kept, as the server keeps them, for the refresh after.
  const keepSends = http.post('*/api/girl/chat/send', async ({ request }) => {
    const { content } = (await request.clone().json()) as { content?: string };
    messages.push(
      createMessageFixture({ messageId: 'msg-user', role: 'user', content: content ?? '' }),
      createMessageFixture({
        messageId: 'msg-reply',
        role: 'mate',
        content: 'The newest reply, kept.',
      }),
    );
    return undefined;
  });
  return [roomInfo, keepSends];
}

/**
 * Earlier messages load as the reader scrolls up to them; a reply afterwards keeps both the
 * earliest and the newest messages in the conversation (the refresh read only the oldest page).
 */
export const EarlierMessagesStayAfterAReply: Story = {
  parameters: {
    app: { path: room, signedIn: true },
    msw: {
      handlers: api(
        ...storedRoom(),
        mockChatStream({ reply: 'The newest reply, kept.', delayMs: 20 }),
      ),
    },
  },
  play: async ({ canvas }) => {
    const log = await canvas.findByRole('log', { name: 'Conversation' });
    await waitFor(() => expect(within(log).getAllByRole('article')).toHaveLength(50));
    // Scrolling up loads the 50 before; the button (for keyboards) the first 20.
    const earlier = canvas.getByRole('button', { name: 'Show earlier messages' });
    await waitFor(() => {
      earlier.scrollIntoView();
      expect(within(log).getAllByRole('article')).toHaveLength(100);
    }, LOADS);
    await userEvent.click(canvas.getByRole('button', { name: 'Show earlier messages' }));
    await waitFor(() => expect(within(log).getAllByRole('article')).toHaveLength(120), LOADS);
    await expect(canvas.getByText(/^Message 1:/)).toBeInTheDocument();
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Still there?{Enter}');
    await waitFor(() => expect(canvas.getByRole('button', { name: 'Send' })).toBeVisible());
    // After the refresh: everything loaded so far, and the newest at the end.
    await waitFor(() => expect(within(log).getAllByRole('article')).toHaveLength(122), LOADS);
    await expect(canvas.getByText(/^Message 1:/)).toBeInTheDocument();
    await expect(canvas.getByText(/^Message 120:/)).toBeInTheDocument();
    await expect(within(log).getAllByRole('article').at(-1)).toHaveTextContent(
      'The newest reply, kept.',
    );
  },
};

/** The person's chats as the server lists them, found by the mate's name. */
const chatList = mockEndpoint('/room/roomList', ({ query }) => {
  const all = [0, 1, 2].map((index) => createRoomSummaryFixture({}, index));
  const keyword = String(query.keyword ?? '').toLowerCase();
  return createPageFixture(all.filter((room) => room.mate.name.toLowerCase().includes(keyword)));
});

/** On a wide screen, the person's chats are beside the conversation, searchable, this one marked. */
export const ChatsBesideTheConversation: Story = {
  parameters: { app: { path: room, signedIn: true }, msw: { handlers: api(chatList) } },
  play: async ({ canvas }) => {
    const side = await canvas.findByRole('navigation', { name: 'Your chats' });
    const list = within(side).getByRole('list', { name: 'Your chats' });
    await waitFor(() => expect(within(list).getAllByRole('link')).toHaveLength(3));
    const [first, second] = within(list).getAllByRole('link');
    await expect(first).toHaveAttribute('aria-current', 'page');
    await expect(second).toHaveAttribute('href', '#/chat-detail?roomId=room-2');
    // No drawer button where the list is already in view.
    await expect(canvas.queryByRole('button', { name: 'Chats' })).toBeNull();
    const name = second!.textContent!.slice(0, 4);
    await userEvent.type(within(side).getByRole('searchbox', { name: 'Search your chats' }), name);
    await waitFor(() => expect(within(list).getAllByRole('link')).toHaveLength(1), LOADS);
    await userEvent.type(within(side).getByRole('searchbox'), 'zzz');
    await expect(await within(side).findByText(/^No chat with a mate named like/)).toBeVisible();
  },
};

/** On a phone, "Chats" (in the header's menu) opens them in a drawer; choosing one opens it and closes the drawer. */
export const ChatsInADrawerOnAPhone: Story = {
  globals: Phone.globals,
  parameters: ChatsBesideTheConversation.parameters,
  play: async ({ canvas, canvasElement, loaded }) => {
    const app = loaded.app as StoryApp;
    await canvas.findByRole('log', { name: 'Conversation' });
    await expect(canvas.queryByRole('navigation', { name: 'Your chats' })).toBeNull();
    // On a phone, "Chats" is in the header's menu.
    await userEvent.click(canvas.getByRole('button', { name: 'More' }));
    await userEvent.click(canvas.getByRole('button', { name: 'Chats' }));
    const body = within(canvasElement.ownerDocument.body);
    const drawer = await body.findByRole('dialog', { name: 'Your chats' });
    await waitFor(() => expect(within(drawer).getAllByRole('link')).toHaveLength(3));
    await userEvent.click(within(drawer).getAllByRole('link')[1]!);
    await waitFor(() => expect(app.router.state.location.search).toBe('?roomId=room-2'));
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
  },
};
