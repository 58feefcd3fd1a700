import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { createApiClient } from '@mates/api-client';
import { startAutomatic1111Double } from '../apps/server/test/image-doubles';
import { launchBrowser, personInChat, signedInPage, startServer, type E2eServer } from './harness';

let browser: Browser;
let server: E2eServer;
let engine: Awaited<ReturnType<typeof startAutomatic1111Double>>;
beforeAll(async () => {
  browser = await launchBrowser();
  engine = await startAutomatic1111Double();
  server = await startServer({
    IMAGE_PROVIDER: 'automatic1111',
    IMAGE_BASE_URL: engine.url,
    IMAGE_COST: '5',
  });
});
afterAll(async () => {
  await server?.stop();
  await engine?.close();
  await browser?.close();
});

describe('pictures in the chat, drawn by an AUTOMATIC1111 engine', () => {
  test('a user asks for a picture, sees it being made, then sees it and its coins spent', async () => {
    const { user, client, room } = await personInChat(server, 'painter');
    const coins = (await client.user.benefits()).goldCoins;

    const page = await signedInPage(browser, server, user, `/chat-detail?roomId=${room.roomId}`);
    const context = page.context();
    await page.getByRole('button', { name: 'Picture', exact: true }).click();
    const sheet = page.getByRole('dialog', { name: 'Make a picture' });
    const prompt = sheet.getByRole('textbox', { name: 'What to show' });
    await prompt.fill('Kai on a rooftop at dusk, city lights below');
    await sheet.getByText(`Costs 5 gold coins. You have ${coins}.`).waitFor();
    await sheet.getByRole('button', { name: 'Create' }).click();

    const picture = page.getByRole('article', { name: 'Kai Tanaka sends a picture' });
    const image = picture.getByRole('img', { name: 'Kai on a rooftop at dusk, city lights below' });
    await image.waitFor({ timeout: 30_000 });
    expect(await image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(
      0,
    );
    expect((await client.user.benefits()).goldCoins).toBe(coins - 5);

    // It stays in the conversation: a reload shows it again, through a fresh signed link.
    await page.reload();
    await image.waitFor();
    await picture.getByRole('button', { name: 'View full size' }).click();
    await page.getByRole('dialog', { name: 'Picture' }).getByRole('img').waitFor();
    await context.close();
  });
});

describe('the pictures of a chat, on its profile', () => {
  test('they gather on /chat-profile, where one is shared publicly and then unshared', async () => {
    const user = await server.signedInUser(`gallery-${Date.now()}@example.com`);
    const client = createApiClient({
      baseUrl: `${server.url}/api`,
      getToken: () => user.token,
      getLanguage: () => 'en',
    });
    const [mate] = (await client.mate.search({ keyword: 'Kai Tanaka' })).list;
    const room = await client.room.createRoom({ mateId: mate!.mateId });
    const prompts = ['Kai reading on a night train', 'Kai feeding the harbour cats'];
    for (const prompt of prompts) {
      const { jobId } = await client.room.createImage({ roomId: room.roomId, prompt });
      for (let state = 'queued'; state !== 'succeeded';) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        state = (await client.room.checkJobStatus({ jobId })).state;
        expect(state).not.toBe('failed');
      }
    }

    const page = await signedInPage(browser, server, user, `/chat-detail?roomId=${room.roomId}`);
    const context = page.context();
    await page.getByRole('link', { name: 'Profile of Kai Tanaka' }).click();
    await page.waitForURL(/#\/chat-profile\?roomId=/);
    await page.getByRole('heading', { level: 1, name: 'Kai Tanaka' }).waitFor();
    // The profile has no site header or footer.
    expect(await page.getByRole('banner').count()).toBe(0);
    expect(await page.getByRole('contentinfo').count()).toBe(0);

    const gallery = page.getByRole('list', { name: 'Pictures from this chat' });
    await gallery.getByRole('listitem').nth(1).waitFor();
    expect(await gallery.getByRole('listitem').count()).toBe(2);
    // Newest first.
    const first = gallery.getByRole('listitem').first();
    await first.getByRole('button', { name: `View full size: ${prompts[1]}` }).waitFor();
    const thumbnail = first.locator('img');
    await expect
      .poll(() => thumbnail.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);

    await first.getByRole('button', { name: 'Share' }).click();
    const link = first.getByRole('textbox', { name: 'Public link' });
    await link.waitFor();
    const address = await link.inputValue();
    expect(address).toMatch(new RegExp(`^${server.url}/api/room/sharedPicture\\?id=`));
    // Anyone can open it, signed in or not.
    const stranger = await browser.newContext();
    const opened = await stranger.request.get(address);
    expect(opened.status()).toBe(200);
    expect(opened.headers()['content-type']).toBe('image/webp');

    await first.getByRole('button', { name: 'Stop sharing' }).click();
    await first.getByRole('button', { name: 'Share' }).waitFor();
    expect((await stranger.request.get(address)).status()).toBe(404);
    await stranger.close();
    await context.close();
  });
});

describe('a picture whose server dies while it is drawn', () => {
  test('is finished after a restart, the page following it all along, its coins spent once', async () => {
    const engine = await startAutomatic1111Double();
    // A run whose server died is taken up again after the job's time limit (IMAGE_TIMEOUT + 10 s).
    const crashing = await startServer({
      IMAGE_PROVIDER: 'automatic1111',
      IMAGE_BASE_URL: engine.url,
      IMAGE_COST: '5',
      IMAGE_TIMEOUT: '5',
    });
    try {
      const user = await crashing.signedInUser(`restart-${Date.now()}@example.com`);
      const client = createApiClient({
        baseUrl: `${crashing.url}/api`,
        getToken: () => user.token,
        getLanguage: () => 'en',
      });
      const [mate] = (await client.mate.search({ keyword: 'Kai Tanaka' })).list;
      const room = await client.room.createRoom({ mateId: mate!.mateId });
      const coins = (await client.user.benefits()).goldCoins;

      const page = await signedInPage(
        browser,
        crashing,
        user,
        `/chat-detail?roomId=${room.roomId}`,
      );
      const context = page.context();
      // The engine takes the first request and never answers it.
      engine.queue.push({ kind: 'hang' });
      await page.getByRole('button', { name: 'Picture', exact: true }).click();
      const sheet = page.getByRole('dialog', { name: 'Make a picture' });
      await sheet.getByRole('textbox', { name: 'What to show' }).fill('Kai at the ferry rail');
      await sheet.getByRole('button', { name: 'Create' }).click();
      const picture = page.getByRole('article', { name: 'Kai Tanaka sends a picture' });
      await picture.getByRole('button', { name: 'Cancel picture' }).waitFor();
      await expect
        .poll(() => engine.requests.filter((r) => r.url === '/sdapi/v1/txt2img').length)
        .toBe(1);

      await crashing.crashAndRestart();

      // The page keeps asking through the outage; the job is taken up again and drawn.
      await picture
        .getByRole('img', { name: 'Kai at the ferry rail' })
        .waitFor({ timeout: 60_000 });
      expect(engine.requests.filter((r) => r.url === '/sdapi/v1/txt2img').length).toBe(2);
      expect((await client.user.benefits()).goldCoins).toBe(coins - 5);
      const messages = (await client.room.roomInfo({ roomId: room.roomId })).messages;
      expect(messages.filter((message) => message.image)).toHaveLength(1);
      await context.close();
    } finally {
      await crashing.stop();
      await engine.close();
    }
  });
});
