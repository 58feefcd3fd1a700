import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { openChat, personInChat, signedInPage, journeyWithDouble } from './harness';

// Nothing a person writes is lost: a message being written survives a reload, a visit elsewhere
// and a closed tab, until it is sent and saved; and a page whose code a new version replaced
// reloads itself at the first piece it cannot load, the message still in its box.
const journey = journeyWithDouble();

const composerOf = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const conversationOf = (page: Page) => page.getByRole('log', { name: 'Conversation' });
const SEND = '**/api/girl/chat/send';

describe('a message being written', () => {
  test('is there again after a reload, a visit elsewhere and a closed tab, and goes once it is sent', async () => {
    const { user, room } = await personInChat(journey.server, 'draft');
    const chat = `/chat-detail?roomId=${room.roomId}`;
    const page = await signedInPage(journey.browser, journey.server, user, chat);
    await composerOf(page).fill('Half a thought about the lighthouse,');
    await page.reload();
    await expect
      .poll(() => composerOf(page).inputValue())
      .toBe('Half a thought about the lighthouse,');

    await composerOf(page).pressSequentially(' and the keeper');
    await page.goto(`${journey.server.url}/#/`);
    await page.getByRole('article').first().waitFor();
    await page.goto(`${journey.server.url}/#${chat}`);
    await expect
      .poll(() => composerOf(page).inputValue())
      .toBe('Half a thought about the lighthouse, and the keeper');

    // The same browser, a new tab after this one was closed.
    const context = page.context();
    await page.close();
    const again = await context.newPage();
    await again.goto(`${journey.server.url}/#${chat}`);
    await expect
      .poll(() => composerOf(again).inputValue())
      .toBe('Half a thought about the lighthouse, and the keeper');

    journey.model.next({ kind: 'stream', pieces: ['The keeper', ' lit it at dusk.'] });
    await composerOf(again).press('Enter');
    await conversationOf(again)
      .getByText('The keeper lit it at dusk.')
      .waitFor({ timeout: 30_000 });
    await again.reload();
    await conversationOf(again).getByText('The keeper lit it at dusk.').waitFor();
    expect(await composerOf(again).inputValue()).toBe('');
    await context.close();
  });

  test('leaves the device with the person who signs out', async () => {
    const { page } = await openChat(journey, 'draft-out');
    await composerOf(page).fill('Not for the next person at this computer');
    await page.goto(`${journey.server.url}/#/profile`);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => window.localStorage.getItem('mates.drafts'))).toBe('');
    await page.context().close();
  });

  test('comes back before what was typed since, when it was queued for a loading model and never sent', async () => {
    const { page } = await openChat(journey, 'draft-queued');
    // The model is still loading: the send is refused with Retry-After, and the page waits.
    await page.route(SEND, (route) =>
      route.fulfill({
        status: 503,
        headers: { 'content-type': 'application/json', 'retry-after': '2' },
        body: JSON.stringify({ c: 5007, m: 'The model is still loading.', d: null }),
      }),
    );
    await composerOf(page).fill('First, queued');
    await composerOf(page).press('Enter');
    await page.getByRole('button', { name: 'Cancel sending' }).waitFor();
    await composerOf(page).pressSequentially('Second');
    await page.reload();
    await expect.poll(() => composerOf(page).inputValue()).toBe('First, queued\n\nSecond');
    await page.context().close();
  });

  test('does not come back once the server kept it, even when Stop came before the page heard', async () => {
    const { page } = await openChat(journey, 'draft-stopped');
    // A slow link: the server has the message (and keeps it) long before the page hears.
    let answered: () => void = () => {};
    const serverAnswered = new Promise<void>((resolve) => (answered = resolve));
    await page.route(SEND, async (route) => {
      const response = await route.fetch();
      answered();
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await route.fulfill({ response }).catch(() => {});
    });
    journey.model.next({ kind: 'stream', pieces: ['Heard', ' you.'] });
    await composerOf(page).fill('Did I say this twice?');
    await composerOf(page).press('Enter');
    await conversationOf(page).getByText('Did I say this twice?').waitFor();
    // Stop once the server has answered (on a busy machine the request may reach it late:
    // a page that stopped and reloaded first would leave it nobody to answer).
    await serverAnswered;
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.unroute(SEND);
    await page.reload();
    await conversationOf(page).getByText('Did I say this twice?').waitFor();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('mates.drafts'))).toBe('');
    expect(await composerOf(page).inputValue()).toBe('');
    await page.context().close();
  });

  test.each([
    ['the page stays', false],
    ['the page is reloaded at once', true],
  ])(
    'does not stay in the box when the message reached the server only after Stop (%s)',
    async (_, reload) => {
      const { page } = await openChat(journey, 'draft-late');
      // A slow uplink: the message is still on its way when Stop is pressed, and arrives after
      // the page first asked the room whether it was kept.
      await page.route(SEND, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 700));
        const response = await route.fetch();
        await route.fulfill({ response }).catch(() => {});
      });
      journey.model.next({ kind: 'stream', pieces: ['Late,', ' but here.'] });
      await composerOf(page).fill('Are you still there?');
      await composerOf(page).press('Enter');
      await conversationOf(page).getByText('Are you still there?').waitFor();
      await page.getByRole('button', { name: 'Stop' }).click();
      await page.unroute(SEND);
      if (reload) await page.reload();
      // Shown back in the box at first (nothing looks lost), then out of it: the room has it.
      await expect
        .poll(() => page.evaluate(() => localStorage.getItem('mates.drafts')), {
          timeout: 10_000,
        })
        .toBe('');
      expect(await composerOf(page).inputValue()).toBe('');
      await conversationOf(page).getByText('Are you still there?').waitFor();
      await page.reload();
      await conversationOf(page).getByText('Are you still there?').waitFor();
      expect(await composerOf(page).inputValue()).toBe('');
      await page.context().close();
    },
  );

  test('is the same in two tabs on one room: clearing one box in one tab clears it in both', async () => {
    const { user, room } = await personInChat(journey.server, 'draft-tabs');
    const chat = `/chat-detail?roomId=${room.roomId}`;
    const one = await signedInPage(journey.browser, journey.server, user, chat);
    const two = await one.context().newPage();
    await two.goto(`${journey.server.url}/#${chat}`);
    await composerOf(two).waitFor();
    await composerOf(one).fill('A long letter from the first tab');
    await expect.poll(() => composerOf(two).inputValue()).toBe('A long letter from the first tab');
    // A key typed by mistake in the second tab, and taken back: the letter stays.
    await composerOf(two).press('End');
    await composerOf(two).pressSequentially('x');
    await composerOf(two).press('Backspace');
    await one.close();
    await two.reload();
    await expect.poll(() => composerOf(two).inputValue()).toBe('A long letter from the first tab');
    await two.context().close();
  });

  test('stays in its box offline, the page on screen, and sends once back online', async () => {
    const { page } = await openChat(journey, 'draft-offline');
    let loads = 0;
    page.on('load', () => (loads += 1));
    await page.context().setOffline(true);
    await composerOf(page).fill('Sent in a tunnel');
    await composerOf(page).press('Enter');
    await expect.poll(() => composerOf(page).inputValue()).toBe('Sent in a tunnel');
    expect(loads).toBe(0);
    expect(page.url().startsWith(journey.server.url)).toBe(true);

    await page.context().setOffline(false);
    journey.model.next({ kind: 'stream', pieces: ['Out of', ' the tunnel.'] });
    await composerOf(page).press('Enter');
    await conversationOf(page).getByText('Out of the tunnel.').waitFor({ timeout: 30_000 });
    expect(loads).toBe(0);
    await page.context().close();
  });

  test('stays in its box when an upgrade replaced the page’s code: the page reloads onto the new version, then it sends', async () => {
    const { page } = await openChat(journey, 'draft-upgrade');
    // As after an upgrade: the reply parser this page would load at its first send is gone,
    // and the server's page names the new version's scripts.
    const gone = '**/assets/data-line-parser-*.js';
    await page.route(gone, (route) => route.fulfill({ status: 404, body: 'Not Found' }));
    await page.route(`${journey.server.url}/`, async (route) => {
      if (route.request().resourceType() !== 'fetch') return route.fallback();
      const response = await route.fetch();
      const html = (await response.text()).replace(
        /src="\/assets\/first-screen-[^"]+\.js"/,
        'src="/assets/first-screen-NEWVERSION.js"',
      );
      await route.fulfill({ response, body: html });
    });
    let loads = 0;
    page.on('load', () => (loads += 1));
    await composerOf(page).fill('Are you still there?');
    await composerOf(page).press('Enter');
    await expect.poll(() => loads, { timeout: 15_000 }).toBe(1);
    await expect.poll(() => composerOf(page).inputValue()).toBe('Are you still there?');

    // The new version's page is up: its parser loads, and the message goes.
    await page.unroute(gone);
    journey.model.next({ kind: 'stream', pieces: ['Always', ', by the lamp.'] });
    await composerOf(page).press('Enter');
    await conversationOf(page).getByText('Always, by the lamp.').waitFor({ timeout: 30_000 });
    await conversationOf(page).getByText('Are you still there?').waitFor();
    expect(await composerOf(page).inputValue()).toBe('');
    expect(loads).toBe(1);
    await page.context().close();
  });
});
