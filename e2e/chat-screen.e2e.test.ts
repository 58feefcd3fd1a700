import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createApiClient, type ApiClient } from '@mates/api-client';
import { launchBrowser, signedInPage, startServer, type E2eServer } from './harness';

// Issue #19: the conversation screen with the tiny GGUF model — swipes between greetings,
// regenerations kept as versions, the conversation going on from the chosen one, and a long
// chat resumed at its latest message.
let browser: Browser;
let server: E2eServer;
beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({ LLM_MAX_TOKENS: '12', WELCOME_CHATS: '100' });
});
afterAll(async () => {
  await server?.stop();
  await browser?.close();
});

async function userAndClient(
  name: string,
): Promise<{ page: (path: string) => Promise<Page>; client: ApiClient }> {
  const user = await server.signedInUser(`${name}-${Date.now()}@example.com`);
  const client = createApiClient({
    baseUrl: `${server.url}/api`,
    getToken: () => user.token,
    getLanguage: () => 'en',
  });
  return {
    page: (path) => signedInPage(browser, server, user, path, { width: 1280, height: 800 }),
    client,
  };
}

describe('the conversation screen', () => {
  test('swipes between greetings, keeps regenerations as versions, goes on from the chosen one', async () => {
    const { page: open, client } = await userAndClient('swiper');
    const [lyra] = (await client.mate.search({ keyword: 'Lyra Moonwhisper' })).list;
    const { roomId } = await client.room.createRoom({ mateId: lyra!.mateId });
    const page = await open(`/chat-detail?roomId=${roomId}`);
    const versions = page.getByRole('group', { name: 'Versions of this reply' });
    await versions.getByText('1/2').waitFor();
    await versions.getByRole('button', { name: 'Next version' }).click();
    // In the conversation: the chats beside it show the chosen greeting too, once read again.
    const log = page.getByRole('log', { name: 'Conversation' });
    await log.getByText('A lantern floats down the aisle toward you.').waitFor();
    await versions.getByText('2/2').waitFor();

    // A reply, then two more of it: three versions.
    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.fill('What are you reading?');
    await composer.press('Enter');
    for (let round = 0; round < 2; round += 1) {
      const regenerate = page.getByRole('button', { name: 'Regenerate reply' });
      await regenerate.waitFor({ timeout: 30_000 });
      await regenerate.click();
      await log.getByRole('article').last().waitFor();
    }
    await versions.getByText('3/3').waitFor({ timeout: 30_000 });
    const previous = versions.getByRole('button', { name: 'Previous version' });
    await previous.click();
    await versions.getByText('2/3').waitFor();
    await previous.click();
    await versions.getByText('1/3').waitFor();

    // The chosen version is what the conversation goes on from.
    const chosen = (await client.room.roomInfo({ roomId })).messages.at(-1)!;
    expect(chosen.swipes).toEqual({ index: 0, count: 3 });
    await composer.fill('Go on.');
    // How many messages the conversation draws, at every change from the send on.
    await page.evaluate(() => {
      const counts: number[] = [];
      (window as unknown as { counts: number[] }).counts = counts;
      new MutationObserver(() => {
        const drawn = document.querySelectorAll('[role="log"] [role="article"]').length;
        if (counts.at(-1) !== drawn) counts.push(drawn);
      }).observe(document.body, { subtree: true, childList: true });
    });
    await composer.press('Enter');
    await page.getByRole('button', { name: 'Regenerate reply' }).waitFor({ timeout: 30_000 });
    const messages = (await client.room.roomInfo({ roomId })).messages;
    // Between the reply's end and the room read again, the conversation never dropped back.
    await page.getByRole('log').getByRole('article').nth(4).waitFor();
    const counts = await page.evaluate(() => (window as unknown as { counts: number[] }).counts);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(messages.map((message) => message.role)).toEqual([
      'mate',
      'user',
      'mate',
      'user',
      'mate',
    ]);
    expect(messages[0]!.content).toContain('A lantern floats down the aisle toward you.');
    expect(messages[2]!.content).toBe(chosen.content);
    await page.context().close();
  });

  // Issue 37 (new users 3): in an outside review on a phone, the whole page moved ~24 px after
  // each reply. The page's layout is sampled on every frame from before a message is sent until
  // its reply has ended, on a phone as Chromium emulates one (touch, its own viewport): the page
  // never scrolls nor grows taller than the screen, and the composer stays where it was.
  test('on a phone (390 × 844), a reply moves neither the page nor the composer', async () => {
    const user = await server.signedInUser(`phone-${Date.now()}@example.com`);
    const client = createApiClient({
      baseUrl: `${server.url}/api`,
      getToken: () => user.token,
      getLanguage: () => 'en',
    });
    const [lyra] = (await client.mate.search({ keyword: 'Lyra Moonwhisper' })).list;
    const { roomId } = await client.room.createRoom({ mateId: lyra!.mateId });
    const page = await signedInPage(
      browser,
      server,
      user,
      `/chat-detail?roomId=${roomId}`,
      { width: 390, height: 844 },
      { isMobile: true, hasTouch: true, deviceScaleFactor: 3 },
    );
    const log = page.getByRole('log', { name: 'Conversation' });
    const composer = page.getByRole('textbox', { name: 'Message' });
    await log.getByRole('article').last().waitFor();
    await composer.waitFor();
    const still = await page.evaluate(layoutNow);
    expect(still.documentHeight).toBe(844);
    // Three replies: by the third, the conversation is longer than the screen.
    for (let reply = 1; reply <= 3; reply += 1) {
      await page.evaluate(startLayoutWatch);
      // Short enough for one line: a longer one grows the box as it is typed, as it should.
      await composer.fill(`And then ${reply}?`);
      await composer.press('Enter');
      // The greeting, then a message and its reply each time.
      await expect
        .poll(() => log.getByRole('article').count(), { timeout: 30_000 })
        .toBe(1 + 2 * reply);
      // The reply has ended once its regenerate button is there.
      await log.getByRole('button', { name: 'Regenerate reply' }).waitFor({ timeout: 30_000 });
      const seen = await page.evaluate(stopLayoutWatch);
      expect({ reply, ...seen }).toEqual({
        reply,
        scrollY: [0],
        documentHeight: [still.documentHeight],
        composerTop: [still.composerTop],
      });
      expect(await page.evaluate(layoutNow)).toEqual(still);
    }
    await page.context().close();
  });

  test('a resumed 60-message chat opens at its latest message, the composer on screen', async () => {
    const { page: open, client } = await userAndClient('reader');
    const [kai] = (await client.mate.search({ keyword: 'Kai Tanaka' })).list;
    const { roomId } = await client.room.createRoom({ mateId: kai!.mateId });
    for (let turn = 0; turn < 30; turn += 1)
      await client.girl.chatSend({ roomId, content: `Turn ${turn + 1}.` }, { onData: () => {} });
    const page = await open(`/chat-detail?roomId=${roomId}`);
    const log = page.getByRole('log', { name: 'Conversation' });
    await log.getByRole('article').last().waitFor();
    const inView = (locator: ReturnType<Page['locator']>) =>
      locator.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight + 1;
      });
    await expect.poll(() => inView(log.getByRole('article').last())).toBe(true);
    expect(await inView(page.getByRole('textbox', { name: 'Message' }))).toBe(true);
    expect(await inView(log.getByRole('article').first())).toBe(false);
    await page.context().close();
  });
});

/** Where the page and the composer are now, in CSS pixels (run in the page). */
function layoutNow() {
  const form = document.querySelector('textarea')!.closest('form')!;
  return {
    scrollY: Math.round(window.scrollY),
    documentHeight: document.documentElement.scrollHeight,
    composerTop: Math.round(form.getBoundingClientRect().top),
  };
}

/** Every value one measure of {@link layoutNow} took while it was watched. */
type LayoutSeen = { [K in keyof ReturnType<typeof layoutNow>]: number[] };

/**
 * Samples {@link layoutNow} on every frame until {@link stopLayoutWatch} (run in the page),
 * keeping each value seen once, so a jump undone before the reply ends is caught too. (Each is
 * written out here: a function run in the page cannot call another one of this file.)
 */
function startLayoutWatch() {
  const seen: LayoutSeen = { scrollY: [], documentHeight: [], composerTop: [] };
  const keep = (values: number[], value: number) => {
    if (!values.includes(value)) values.push(value);
  };
  const watch = { seen, running: true };
  const sample = () => {
    if (!watch.running) return;
    const form = document.querySelector('textarea')?.closest('form');
    keep(seen.scrollY, Math.round(window.scrollY));
    keep(seen.documentHeight, document.documentElement.scrollHeight);
    if (form) keep(seen.composerTop, Math.round(form.getBoundingClientRect().top));
    requestAnimationFrame(sample);
  };
  sample();
  (window as unknown as { layoutWatch: typeof watch }).layoutWatch = watch;
}

/** Ends {@link startLayoutWatch} and returns what it saw (run in the page). */
function stopLayoutWatch(): LayoutSeen {
  const watch = (window as unknown as { layoutWatch: { seen: LayoutSeen; running: boolean } })
    .layoutWatch;
  watch.running = false;
  return watch.seen;
}
