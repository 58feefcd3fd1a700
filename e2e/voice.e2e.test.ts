import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createApiClient, type ApiClient, type UserInfo } from '@mates/api-client';
import { launchBrowser, signedInPage, startServer, type E2eServer } from './harness';

let browser: Browser;
let server: E2eServer;
beforeAll(async () => {
  browser = await launchBrowser();
  // The embedded voice (Flite in worker processes, MP3) is the default: nothing to configure.
  server = await startServer({ SPEECH_COST: '1' });
});
afterAll(async () => {
  await server?.stop();
  await browser?.close();
});

/** What the page's one voice player holds: its address, and whether the browser could play it. */
function playerState(page: Page) {
  return page.locator('audio[data-voice-player]').evaluate((audio: HTMLAudioElement) => ({
    src: audio.currentSrc,
    duration: audio.duration,
    error: audio.error?.code ?? null,
  }));
}

describe('hearing a mate speak', () => {
  let user: UserInfo;
  let client: ApiClient;
  beforeAll(async () => {
    user = await server.signedInUser(`listener-${Date.now()}@example.com`);
    client = createApiClient({
      baseUrl: `${server.url}/api`,
      getToken: () => user.token,
      getLanguage: () => 'en',
    });
  });

  test('the greeting plays in the mate’s voice from a real MP3, charged once', async () => {
    const [mate] = (await client.mate.search({ keyword: 'Kai Tanaka' })).list;
    const room = await client.room.createRoom({ mateId: mate!.mateId });
    const coins = (await client.user.benefits()).goldCoins;
    const page = await signedInPage(browser, server, user);
    await page.goto(`${server.url}/#/chat-detail?roomId=${room.roomId}`);
    const log = page.getByRole('log', { name: 'Conversation' });
    const greeting = log.locator('[aria-label="Kai Tanaka says"]').first();
    await greeting.waitFor();
    const play = greeting.getByRole('button', { name: 'Play voice' });
    expect(await play.getAttribute('aria-describedby')).toBeTruthy();
    await play.click();
    // Playing: the button stops it, and the player holds a file the browser decoded.
    await greeting.getByRole('button', { name: 'Stop voice' }).waitFor({ timeout: 30_000 });
    await expect
      .poll(async () => (await playerState(page)).duration, { timeout: 15_000 })
      .toBeGreaterThan(0.5);
    const { src, error } = await playerState(page);
    expect(error).toBeNull();
    expect(src).toMatch(new RegExp(`^${server.url}/api/voice/clip\\?`));

    // The same address serves an MP3 (an MPEG-2 layer III frame at 16 kHz first), and parts of
    // it for seeking.
    const whole = await page.request.get(src);
    expect(whole.status()).toBe(200);
    expect(whole.headers()['content-type']).toBe('audio/mpeg');
    const mp3 = await whole.body();
    expect(mp3[0]).toBe(0xff);
    // Sync bits, MPEG-2 (10), layer III (01); then the sample rate index 10: 16 kHz.
    expect(mp3[1]! & 0xfe).toBe(0xf2);
    expect((mp3[2]! >> 2) & 0b11).toBe(0b10);
    const part = await page.request.get(src, { headers: { range: 'bytes=0-99' } });
    expect(part.status()).toBe(206);
    expect((await part.body()).length).toBe(100);

    // Played through to the end, then again: the second hearing costs nothing.
    await greeting.getByRole('button', { name: 'Play voice' }).waitFor({ timeout: 60_000 });
    await greeting.getByRole('button', { name: 'Play voice' }).click();
    await greeting.getByRole('button', { name: 'Stop voice' }).waitFor();
    await greeting.getByRole('button', { name: 'Stop voice' }).click();
    await greeting.getByRole('button', { name: 'Play voice' }).waitFor();
    expect((await client.user.benefits()).goldCoins).toBe(coins - 1);
    await page.context().close();
  });

  test('with "Speak replies aloud" on, a reply is spoken once it is complete', async () => {
    const [mate] = (await client.mate.search({ keyword: 'Lyra Moonwhisper' })).list;
    const room = await client.room.createRoom({ mateId: mate!.mateId });
    const page = await signedInPage(browser, server, user);
    // Every play() the page asks for, and every audio the browser could decode.
    await page.addInitScript(() => {
      const seen = window as unknown as { played: string[]; decoded: number };
      seen.played = [];
      seen.decoded = 0;
      const play = HTMLMediaElement.prototype.play;
      HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
        seen.played.push(this.currentSrc || this.src);
        return play.call(this);
      };
      // Media events do not bubble; a capturing listener on the document sees them all.
      document.addEventListener('loadedmetadata', () => (seen.decoded += 1), true);
    });
    await page.goto(`${server.url}/#/chat-detail?roomId=${room.roomId}`);
    const log = page.getByRole('log', { name: 'Conversation' });
    await log.waitFor();
    const speak = page.getByRole('switch', { name: 'Speak replies aloud' });
    await speak.click();
    expect(await speak.getAttribute('aria-checked')).toBe('true');
    await page.getByRole('textbox', { name: 'Message' }).fill('Say hello to the lighthouse.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 90_000 });
    const replies = log.locator('[aria-label="Lyra Moonwhisper says"]');
    await expect.poll(() => replies.count()).toBe(2);
    // The player was asked to play once the reply was whole, and the browser decoded what came.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { played: string[] }).played), {
        timeout: 30_000,
      })
      .toHaveLength(1);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { decoded: number }).decoded), {
        timeout: 30_000,
      })
      .toBe(1);
    const messages = (await client.room.roomInfo({ roomId: room.roomId })).messages;
    const reply = messages.filter((message) => message.role === 'mate').at(-1)!;
    const [src] = await page.evaluate(() => (window as unknown as { played: string[] }).played);
    expect(new URL(src!).searchParams.get('clip')).toBeTruthy();
    // That clip is the reply's: asking for the reply's link again costs nothing.
    expect((await client.speech.link({ messageId: reply.messageId })).charged).toBe(0);
    // The setting stays for the next visit.
    await page.reload();
    expect(
      await page.getByRole('switch', { name: 'Speak replies aloud' }).getAttribute('aria-checked'),
    ).toBe('true');
    await page.context().close();
  });
});
