import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { createApiClient } from '@mates/api-client';
import type { Behaviour } from '../apps/server/test/openai-double';
import { openChat, personInChat, signedInPage, journeyWithDouble } from './harness';

// The conversation as a person meets it, with a model that writes what each test tells it:
// a chat left mid-reply, a stopped reply, the versions of a reply, what a screen reader hears,
// where the focus goes. Each test failed on the code it was written against.
const journey = journeyWithDouble({ WELCOME_CHATS: '100' });

const composerOf = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const logOf = (page: Page) => page.getByRole('log', { name: 'Conversation' });

/**
 * Keeps, in the page's `window.added`, the text of every node added inside the polite live
 * region from now on: what a screen reader reads out as new.
 */
const watchLiveLog = (page: Page) =>
  page.evaluate(() => {
    const added: string[] = [];
    (window as unknown as { added: string[] }).added = added;
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes) added.push(node.textContent ?? '');
    }).observe(document.querySelector('[role="log"][aria-live="polite"]')!, {
      subtree: true,
      childList: true,
    });
  });
/** A reply written slowly, word by word: `tag0 tag1 …`. */
const slowly = (tag: string, words = 30, delayMs = 100): Behaviour => ({
  kind: 'stream',
  pieces: Array.from({ length: words }, (_, index) => `${tag}${index} `),
  delayMs,
});

/** What the conversation shows, in a few seconds at most (a chat read again is well within). */
const shows = (page: Page, text: string) =>
  expect
    .poll(async () => (await logOf(page).getByRole('article').allInnerTexts()).join('\n'), {
      timeout: 5_000,
    })
    .toContain(text);

describe('the conversation, as a person meets it', () => {
  // The server keeps the message and what was written; the chat come back to showed neither
  // (only the greeting) until a reload or half a minute later: the words looked lost.
  test('a chat left while the mate writes shows, come back to by a link or by Back and Forward, the message sent and what was written', async () => {
    const { page } = await openChat(journey, 'leave-mid-reply');

    journey.model.next(slowly('tale'));
    await composerOf(page).fill('Tell me about the lighthouse.');
    await composerOf(page).press('Enter');
    await logOf(page).getByText('tale3').waitFor();
    await page
      .getByRole('link', { name: /Back to recent chats/ })
      .first()
      .click();
    await page
      .getByRole('link', { name: /Resume chat with Kai Tanaka/ })
      .first()
      .click();
    await shows(page, 'Tell me about the lighthouse.');
    await shows(page, 'tale3');

    journey.model.next(slowly('more'));
    await composerOf(page).fill('And the keeper?');
    await composerOf(page).press('Enter');
    await logOf(page).getByText('more3').waitFor();
    await page.goBack();
    await page
      .getByRole('link', { name: /Resume chat with Kai Tanaka/ })
      .first()
      .waitFor();
    await page.goForward();
    await shows(page, 'And the keeper?');
    await shows(page, 'more3');
    await page.context().close();
  });

  test('a stopped regeneration, then "Previous version": the bubble shows the version chosen at once', async () => {
    const { client, room, page } = await openChat(journey, 'stop-then-previous');
    journey.model.next({ kind: 'stream', pieces: ['The first', ' answer.'] });
    await composerOf(page).fill('Hi');
    await composerOf(page).press('Enter');
    const regenerate = logOf(page).getByRole('button', { name: 'Regenerate reply' });
    await regenerate.waitFor();
    journey.model.next(slowly('again'));
    await regenerate.click();
    await logOf(page).getByText('again3').waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    const versions = page.getByRole('group', { name: 'Versions of this reply' });
    await versions.getByText('2/2').waitFor();
    await versions.getByRole('button', { name: 'Previous version' }).click();
    await versions.getByText('1/2').waitFor();
    // The server now goes on from the first version ...
    const last = (await client.room.roomInfo({ roomId: room.roomId })).messages.at(-1)!;
    expect([last.content, last.swipes]).toEqual(['The first answer.', { index: 0, count: 2 }]);
    // ... and the bubble that says "1/2" shows it (well before the stopped text's wait of
    // about three seconds would have ended), not the stopped version.
    const bubble = logOf(page).getByRole('article').last();
    await bubble.getByText('The first answer.').waitFor({ timeout: 1_000 });
    expect(await bubble.innerText()).not.toContain('again0');
    await page.context().close();
  });

  test('a screen reader hears the message and the reply once: the live log does not add them again when the reply ends', async () => {
    const { page } = await openChat(journey, 'live-region');
    await watchLiveLog(page);
    journey.model.next({
      kind: 'stream',
      pieces: ['The tide', ' is turning', ' tonight.'],
      delayMs: 300,
    });
    await composerOf(page).fill('What is the sea doing?');
    await composerOf(page).press('Enter');
    // While it is written, the reply is busy (read out once whole).
    const reply = logOf(page).getByRole('article').last();
    await reply.getByText('The tide').waitFor();
    expect(await reply.getAttribute('aria-busy')).toBe('true');
    await logOf(page).getByRole('button', { name: 'Regenerate reply' }).waitFor();
    await page.waitForTimeout(1_000);
    expect(await reply.getAttribute('aria-busy')).toBeNull();
    const added = await page.evaluate(() => (window as unknown as { added: string[] }).added);
    const times = (text: string) => added.filter((content) => content.includes(text)).length;
    expect({
      message: times('What is the sea doing?'),
      wholeReply: times('The tide is turning tonight.'),
    }).toEqual({ message: 1, wholeReply: 0 });
    await page.context().close();
  });

  test('by keyboard, after Regenerate or a confirmed Delete, the focus stays in the conversation', async () => {
    const { user, client, room } = await personInChat(journey.server, 'keyboard-focus');
    const { roomId } = room;
    journey.model.next({ kind: 'stream', pieces: ['Reply one.'] });
    await client.girl.chatSend({ roomId, content: 'Message one.' }, { onData: () => {} });
    journey.model.next({ kind: 'stream', pieces: ['Reply two.'] });
    await client.girl.chatSend({ roomId, content: 'Message two.' }, { onData: () => {} });
    const page = await signedInPage(
      journey.browser,
      journey.server,
      user,
      `/chat-detail?roomId=${roomId}`,
    );
    await logOf(page).getByText('Reply two.').waitFor();
    /** The focused element: its tag, its name, and the message it is in. */
    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement!;
        if (element === document.body) return 'the page itself (BODY)';
        const message = element.closest('[role="article"]')?.textContent ?? '';
        return `${element.tagName} ${element.getAttribute('aria-label') ?? ''} in ${message}`;
      });

    // Regenerate, pressed with the keyboard: the new reply's Regenerate button has the focus.
    await logOf(page).getByRole('button', { name: 'Regenerate reply' }).focus();
    journey.model.next({ kind: 'stream', pieces: ['Reply', ' two, again.'], delayMs: 50 });
    await page.keyboard.press('Enter');
    await logOf(page).getByText('Reply two, again.').waitFor();
    await logOf(page).getByRole('button', { name: 'Regenerate reply' }).waitFor();
    await page.waitForTimeout(500);
    expect(await focused()).toMatch(/^BUTTON Regenerate reply in .*Reply two, again\./);

    // Delete, pressed and confirmed with the keyboard: the next message's Delete button has it.
    const first = logOf(page).getByRole('article').filter({ hasText: 'Message one.' });
    await first.getByRole('button', { name: 'Delete message' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Delete' }).focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await logOf(page).getByText('Message one.').waitFor({ state: 'detached' });
    await page.waitForTimeout(500);
    expect(await focused()).toMatch(/^BUTTON Delete message in .*Reply one\./);
    await page.context().close();
  });

  test('by keyboard, after "Save and reply again", the new reply\'s Regenerate button has the focus', async () => {
    const { page } = await openChat(journey, 'keyboard-edit-again');
    journey.model.next({ kind: 'stream', pieces: ['The first', ' answer.'] });
    await composerOf(page).fill('Where were we?');
    await composerOf(page).press('Enter');
    await logOf(page).getByRole('button', { name: 'Regenerate reply' }).waitFor();
    const mine = logOf(page).getByRole('article').filter({ hasText: 'Where were we?' });
    await mine.getByRole('button', { name: 'Edit message' }).focus();
    await page.keyboard.press('Enter');
    const editor = page.getByRole('textbox', { name: 'Edit the message' });
    await editor.fill('Where are we now?');
    await page.getByRole('button', { name: 'Save and reply again' }).focus();
    journey.model.next({ kind: 'stream', pieces: ['The second', ' answer.'], delayMs: 50 });
    await page.keyboard.press('Enter');
    await logOf(page).getByText('The second answer.').waitFor();
    await logOf(page).getByRole('button', { name: 'Regenerate reply' }).waitFor();
    await page.waitForTimeout(500);
    const focused = await page.evaluate(() => {
      const element = document.activeElement!;
      const message = element.closest('[role="article"]')?.textContent ?? '';
      return `${element.tagName} ${element.getAttribute('aria-label') ?? ''} in ${message}`;
    });
    expect(focused).toMatch(/^BUTTON Regenerate reply in .*The second answer\./);
    await page.context().close();
  });

  // A note's place in the list moved as the message after it was saved: React drew it anew,
  // and the live log read "… joined the group" again at every send (found by an outside review).
  test('in a group, "… joined the group" is heard once, not again at the next send', async () => {
    const { server, browser, model } = journey;
    const user = await server.signedInUser(`group-note-${Date.now()}@example.com`);
    const client = createApiClient({
      baseUrl: `${server.url}/api`,
      getToken: () => user.token,
      getLanguage: () => 'en',
    });
    const ids: string[] = [];
    for (const name of ['Lyra', 'Kai', 'Ione'])
      ids.push((await client.mate.search({ keyword: name })).list[0]!.mateId);
    const room = await client.room.createGroup({ mateIds: ids.slice(0, 2), name: 'Tavern' });
    // Joined a moment after the group began: a note says so.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await client.room.addGroupMember({ roomId: room.roomId, mateId: ids[2]! });
    model.route(() => ({ kind: 'stream', pieces: ['A word', ' from me.'], delayMs: 100 }));
    try {
      const page = await signedInPage(browser, server, user, `/chat-detail?roomId=${room.roomId}`);
      await logOf(page).getByText('joined the group').waitFor();
      await watchLiveLog(page);
      await composerOf(page).fill('Evening, all.');
      await composerOf(page).press('Enter');
      const goOn = page.getByRole('button', {
        name: 'Continue: one more reply, without a message of yours',
      });
      await expect.poll(() => goOn.isEnabled(), { timeout: 20_000 }).toBe(true);
      // The room read again after the turn.
      await page.waitForLoadState('networkidle');
      const added = await page.evaluate(() => (window as unknown as { added: string[] }).added);
      expect({
        note: added.filter((text) => text.includes('joined the group')).length,
        message: added.filter((text) => text.includes('Evening, all.')).length,
        wholeReplies: added.filter((text) => text.includes('A word from me.')).length,
      }).toEqual({ note: 0, message: 1, wholeReplies: 0 });
      await page.context().close();
    } finally {
      model.route(null);
    }
  });
});

describe('the paths of a chat', () => {
  // A regenerated reply is a new row: the fork named the old one, and the "‹ 2 / 2 ›" switcher
  // at it vanished from both paths (found by an outside review).
  test('keep their switcher at a reply regenerated where they fork', async () => {
    const { client, room, page } = await openChat(journey, 'fork-regenerated');
    const { roomId } = room;
    journey.model.next({ kind: 'stream', pieces: ['The first', ' answer.'] });
    await client.girl.chatSend({ roomId, content: 'Ask me.' }, { onData: () => {} });
    const reply = (await client.room.roomInfo({ roomId })).messages.at(-1)!;
    const branch = await client.room.branch({ roomId, messageId: reply.messageId });
    await page.goto(`${journey.server.url}/#/chat-detail?roomId=${branch.roomId}`);
    const switcher = logOf(page).getByText('2 / 2');
    await switcher.waitFor();
    journey.model.next({ kind: 'stream', pieces: ['Another', ' answer.'] });
    await logOf(page).getByRole('button', { name: 'Regenerate reply' }).click();
    await logOf(page).getByText('Another answer.').waitFor();
    await switcher.waitFor({ timeout: 5_000 });
    await page.context().close();
  });
});
