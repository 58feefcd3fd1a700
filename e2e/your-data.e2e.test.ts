import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { ApiError, SessionExpiredError, createApiClient } from '@mates/api-client';
import { readZip } from '../apps/server/test/zip-entries';
import { startDiscordDouble } from '../apps/server/test/oauth-doubles';
import { listenPort } from '../scripts/listen-port';
import { launchBrowser, signedInPage, startServer, type E2eServer } from './harness';

// "Your data" as a person meets it (#41): from the profile they download everything in one zip
// and open it, then delete their account, are signed out, and cannot sign in again.

const DISCORD = { clientId: '4343', clientSecret: 'e2e-secret' };

let browser: Browser;
let server: E2eServer;
let discord: Awaited<ReturnType<typeof startDiscordDouble>>;
beforeAll(async () => {
  browser = await launchBrowser();
  // Discord's double sends the browser back to this server's redirect address.
  const port = await listenPort();
  discord = await startDiscordDouble({
    ...DISCORD,
    redirectUri: `http://127.0.0.1:${port}/user/loginDiscord`,
  });
  server = await startServer(
    {
      DISCORD_CLIENT_ID: DISCORD.clientId,
      DISCORD_CLIENT_SECRET: DISCORD.clientSecret,
      DISCORD_API_URL: discord.apiUrl,
    },
    port,
  );
});
afterAll(async () => {
  await server?.stop();
  await discord?.close();
  await browser?.close();
});

describe('your data', () => {
  test('downloads their data, opens the zip, deletes the account and cannot sign in', async () => {
    const email = `leaving-${Date.now()}@example.com`;
    const user = await server.signedInUser(email);
    const client = createApiClient({
      baseUrl: `${server.url}/api`,
      getToken: () => user.token,
      getLanguage: () => 'en',
    });
    const [mate] = (await client.mate.recommend({ pageSize: 1 })).list;
    const { roomId } = await client.room.createRoom({ mateId: mate!.mateId });
    const greeting = (await client.room.roomInfo({ roomId })).messages[0]!;

    const page = await signedInPage(browser, server, user, '/profile');
    const section = page.getByRole('region', { name: 'Download my data' });
    await section.getByRole('button', { name: 'Download my data' }).click();
    const button = section.getByRole('button', { name: /Download the zip/ });
    await button.waitFor({ timeout: 30_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toMatch(/^mates-data-\d{4}-\d{2}-\d{2}\.zip$/);
    // The browser fetched it itself, by a ticket (to disk as it came), not the page.
    expect(download.url()).toMatch(/\/api\/user\/exportDownload\?exportId=.+&ticket=/);
    const file = path.join(server.dataDir, 'downloaded.zip');
    await download.saveAs(file);
    const zip = await readZip(fs.readFileSync(file));
    const account = JSON.parse(zip.get('account.json')!.toString('utf8'));
    expect(account.account.email).toBe(email);
    const [chat] = JSON.parse(zip.get('chats/index.json')!.toString('utf8'));
    expect(chat.roomId).toBe(roomId);
    const markdown = zip.get(chat.files[1])!.toString('utf8');
    expect(markdown).toContain(greeting.content.slice(0, 40));
    // A mail said it was ready, with the way back to the profile.
    const outbox = path.join(server.dataDir, 'outbox');
    const mails = fs
      .readdirSync(outbox)
      .map((name) => fs.readFileSync(path.join(outbox, name), 'utf8'))
      .filter((mail) => mail.includes(email) && mail.includes('Your Mates data is ready'));
    expect(mails).toHaveLength(1);
    // The zip's link opened without the session (a link passed on, a browser signed out) is
    // refused as a session that expired: the app asks to sign in first.
    const { downloadUrl } = (await client.user.exportStatus()).latest!;
    const bare = await browser.newPage();
    const refusal = await bare.goto(`${server.url}${downloadUrl}`);
    expect(await refusal!.json()).toEqual({ c: 5002, m: 'login expired', d: null });
    await bare.close();

    // Deleting the account: what goes, the password, then signed out at home.
    await page.getByRole('button', { name: 'Delete my account…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByText('1 chat', { exact: true }).waitFor();
    await dialog.getByLabel('Your password').fill('correct horse 1');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL((url) => url.hash === '#/');
    await page.getByRole('button', { name: 'Sign in' }).first().waitFor();
    await page.getByText('Your account is deleted.').first().waitFor();

    // The old session is gone, and the password signs nobody in.
    await expect(client.user.benefits()).rejects.toBeInstanceOf(SessionExpiredError);
    const visitor = createApiClient({
      baseUrl: `${server.url}/api`,
      getToken: () => '',
      getLanguage: () => 'en',
    });
    const refused = await visitor.user.login({ email, password: 'correct horse 1' }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).message).toBe('Wrong e-mail address or password.');
    // The download link handed out before went with the account (and its session).
    const stale = await fetch(`${server.url}${downloadUrl}`, { headers: { token: user.token } });
    expect(await stale.json()).toMatchObject({ c: 5002 });
  });

  test('an account that signs in with Discord only is deleted after a fresh Discord sign-in', async () => {
    const dee = {
      id: '80351110224678913',
      username: 'dee',
      global_name: 'Dee',
      email: `dee-${Date.now()}@discord.example`,
      verified: true,
      avatar: null,
    };
    const visitor = createApiClient({
      baseUrl: `${server.url}/api`,
      getToken: () => '',
      getLanguage: () => 'en',
    });
    const user = await visitor.user.loginDiscord({ code: discord.authorize(dee) });
    const page = await signedInPage(browser, server, user, '/profile');
    // Discord's authorize page, as Dee agreeing sees it: back to the redirect address with a
    // fresh code and the state the app put in the link.
    let authorize: URL | undefined;
    await page.route('**/oauth2/authorize?**', async (route) => {
      authorize = new URL(route.request().url());
      const back = new URL(authorize.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', discord.authorize(dee));
      back.searchParams.set('state', authorize.searchParams.get('state') ?? '');
      await route.fulfill({ status: 302, headers: { location: back.toString() } });
    });
    await page.getByRole('button', { name: 'Delete my account…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByRole('button', { name: 'Confirm with Discord' }).click();
    // Back from Discord: the dialog again, on the profile, with Discord's word for it.
    await dialog.getByText(/Discord confirmed it is you/).waitFor();
    expect(authorize?.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
    expect(new URL(page.url()).hash).toBe('#/profile');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL((url) => url.hash === '#/');
    await page.getByText('Your account is deleted.').first().waitFor();
    const client = createApiClient({
      baseUrl: `${server.url}/api`,
      getToken: () => user.token,
      getLanguage: () => 'en',
    });
    await expect(client.user.benefits()).rejects.toBeInstanceOf(SessionExpiredError);
    // Signing in with the same Discord account again makes a new person.
    const again = await visitor.user.loginDiscord({ code: discord.authorize(dee) });
    expect(again.uuid).not.toBe(user.uuid);
  });
});
