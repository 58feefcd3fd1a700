import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { createApiClient } from '@mates/api-client';
import { startAutomatic1111Double } from '../apps/server/test/image-doubles';
import { launchBrowser, startServer, type E2eServer } from './harness';

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
    const user = await server.signedInUser(`painter-${Date.now()}@example.com`);
    const client = createApiClient({
      baseUrl: `${server.url}/api`,
      getToken: () => user.token,
      getLanguage: () => 'en',
    });
    const [mate] = (await client.mate.search({ keyword: 'Kai Tanaka' })).list;
    const room = await client.room.createRoom({ mateId: mate!.mateId });
    const coins = (await client.user.benefits()).goldCoins;

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(
      (saved) => {
        if (window.localStorage.getItem('mates.user') === null)
          window.localStorage.setItem('mates.user', saved);
      },
      JSON.stringify({ userInfo: user }),
    );
    const page = await context.newPage();
    await page.goto(`${server.url}/#/chat-detail?roomId=${room.roomId}`);
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
