import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createApiClient } from '@mates/api-client';
import { en } from '../apps/web/src/i18n/en';
import { startDiscordDouble } from '../apps/server/test/oauth-doubles';
import { startOpenAiDouble } from '../apps/server/test/openai-double';
import {
  launchBrowser,
  signedInPage,
  startServer,
  type E2eServer,
  hostedModelEnv,
} from './harness';
import { listenPort } from '../scripts/listen-port';

const DISCORD = { clientId: '4242', clientSecret: 'e2e-secret' };
const FOREIGN_CODE =
  'This Discord sign-in was not started here. Please use the Discord button again.';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Texts shown as their keys ("chat.send"): a text i18next did not have when drawn. */
function rawTextKeys(text: string): string[] {
  const sections = Object.keys(en).join('|');
  return text.match(new RegExp(`\\b(?:${sections})\\.[a-zA-Z.]+\\b`, 'g')) ?? [];
}

/** A fresh browser profile on `server`, optionally already signed in. */
function visit(server: E2eServer, path = '/', user?: object): Promise<Page> {
  return signedInPage(browser, server, user ?? null, path);
}

describe('a visitor on the real server with the tiny GGUF model', () => {
  let server: E2eServer;
  let discord: Awaited<ReturnType<typeof startDiscordDouble>>;
  let mateName: string;
  beforeAll(async () => {
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
        LLM_MAX_TOKENS: '48',
      },
      port,
    );
    const mates = await createApiClient({
      baseUrl: `${server.url}/api`,
      getToken: () => '',
      getLanguage: () => 'en',
    }).mate.recommend({ pageSize: 1 });
    mateName = mates.list[0]!.name;
  });
  afterAll(async () => {
    await server?.stop();
    await discord?.close();
  });

  test('signs up, verifies from the mailed link, browses, chats, switches language, logs out', async () => {
    const page = await visit(server);
    const email = `ada-${Date.now()}@example.com`;
    // The first screen ships only its own texts (i18n/en-first-screen.ts): none is missing.
    await page.getByRole('article').first().waitFor();
    expect(rawTextKeys(await page.locator('body').innerText())).toEqual([]);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const popup = page.getByRole('dialog', { name: 'Sign in to Mates' });
    await popup.waitFor();
    expect(rawTextKeys(await page.locator('body').innerText())).toEqual([]);
    await popup.getByRole('button', { name: 'Sign up' }).click();
    const signUp = page.getByRole('dialog', { name: 'Create your account' });
    await signUp.getByLabel('Email address').fill(email);
    await signUp.getByLabel('Password', { exact: true }).fill('correct horse 1');
    await signUp.getByRole('button', { name: 'Continue' }).click();

    // The waiting page polls; the link is opened from the mail in the outbox.
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    expect(page.url()).toContain('/verify-email-address?redirect_url=');
    const mailPage = await page.context().newPage();
    await mailPage.goto(await server.verificationLink(email));
    await mailPage.getByRole('button', { name: 'Confirm my address' }).click();
    await mailPage.getByRole('heading', { name: 'Your e-mail address is verified' }).waitFor();
    await mailPage.close();
    await page.getByRole('link', { name: 'Your profile' }).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);

    // Search as you type, and keep a favorite.
    await page.goto(`${server.url}/#/search`);
    await page.getByRole('searchbox', { name: 'Search mates' }).fill(mateName.split(' ')[0]!);
    const card = page.getByRole('article', { name: mateName });
    await card.waitFor();
    await card.getByRole('button', { name: 'Favorite' }).click();
    await expect
      .poll(() => card.getByRole('button', { name: 'Favorite' }).getAttribute('aria-pressed'))
      .toBe('true');
    await page.goto(`${server.url}/#/favorite`);
    await page.getByRole('article', { name: mateName }).waitFor();

    // Open the mate and chat: the reply streams in from llama.cpp.
    await page.getByRole('article', { name: mateName }).getByRole('link').first().click();
    await page.getByRole('button', { name: `Chat with ${mateName}` }).click();
    const log = page.getByRole('log', { name: 'Conversation' });
    await log.waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('Tell me about the sea.');
    await page.getByRole('button', { name: 'Send' }).click();
    await log.getByText('Tell me about the sea.').waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 60_000 });
    const replies = log.locator(`[aria-label="${mateName} says"]`);
    await expect.poll(() => replies.count()).toBeGreaterThanOrEqual(2);
    const reply = (await replies.last().innerText()).trim();
    expect(reply.length).toBeGreaterThan(0);

    // It is saved: recent chats resumes it.
    await page.goto(`${server.url}/#/recent-chats`);
    await page.getByRole('link', { name: `Resume chat with ${mateName}` }).click();
    await log.getByText('Tell me about the sea.').waitFor();

    // Language: the server is told, the page reloads in Spanish.
    await page.goto(`${server.url}/#/`);
    await page.getByRole('combobox', { name: 'Language' }).selectOption('es');
    await page.getByRole('heading', { name: 'Descubre mates' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Descubre mates' }).waitFor();

    // Log out from the profile: back home, signed out, the language reset to English.
    await page.goto(`${server.url}/#/profile`);
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).waitFor();
    await expect.poll(() => new URL(page.url()).hash).toBe('#/');
    await page.getByRole('heading', { name: 'Discover mates' }).waitFor();
    await page.context().close();
  });

  test('installs on a phone: a manifest, icons and a favicon', async () => {
    const page = await visit(server);
    const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = await fetch(new URL(manifestHref!, server.url));
    expect(manifest.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const body = (await manifest.json()) as {
      name: string;
      display: string;
      icons: { src: string; sizes: string }[];
    };
    expect(body).toMatchObject({ name: 'Mates', display: 'standalone' });
    expect(body.icons.map((icon) => icon.sizes)).toEqual(
      expect.arrayContaining(['192x192', '512x512']),
    );
    for (const icon of body.icons) {
      const response = await fetch(new URL(icon.src, server.url));
      expect(response.status, icon.src).toBe(200);
    }
    const favicon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect((await fetch(new URL(favicon!, server.url))).status).toBe(200);
    await page.context().close();
  });

  test('an expired session clears the user and opens the sign-in popup', async () => {
    const page = await visit(server, '/favorite', {
      uuid: 'gone',
      token: 'a-token-the-server-never-issued',
      language: 'en',
    });
    await page.getByRole('dialog', { name: 'Sign in to Mates' }).waitFor();
    const stored = await page.evaluate(() => window.localStorage.getItem('mates.user'));
    expect(JSON.parse(stored!).userInfo.uuid).toBeUndefined();
    await page.context().close();
  });

  test('the Discord redirect signs in through the guard, or says why not', async () => {
    const code = discord.authorize({
      id: '80351110224678912',
      username: 'nelly',
      global_name: 'Nelly',
      email: 'nelly@discord.example',
      verified: true,
      avatar: null,
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    // Discord's authorize page, as a person who agrees sees it: it sends the browser back to
    // the redirect address with a code and the state the app put in the link.
    let authorize: URL | undefined;
    await page.route('**/oauth2/authorize?**', async (route) => {
      authorize = new URL(route.request().url());
      const back = new URL(authorize.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', authorize.searchParams.get('state') ?? '');
      await route.fulfill({ status: 302, headers: { location: back.toString() } });
    });
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Discord' }).click();
    await page.getByRole('link', { name: 'Your profile' }).waitFor();
    expect(authorize?.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
    expect(page.url()).toBe(`${server.url}/#/`);

    // A code this browser did not ask for (a link an attacker sent) signs nobody in.
    const victim = await browser.newContext();
    const forged = await victim.newPage();
    await forged.goto(`${server.url}/user/loginDiscord?code=${code}&state=forged`);
    await forged.getByText(FOREIGN_CODE).first().waitFor();
    await forged.getByRole('button', { name: 'Sign in' }).waitFor();
    await victim.close();

    const other = await context.newPage();
    await other.goto(`${server.url}/#/faq?code=not-a-real-code`);
    await other.getByText(FOREIGN_CODE).first().waitFor();
    expect(new URL(other.url()).hash).toBe('#/faq');
    await context.close();
  });
});

describe('with a scripted hosted model: a reload mid-reply, the language, the name', () => {
  let server: E2eServer;
  let model: Awaited<ReturnType<typeof startOpenAiDouble>>;
  beforeAll(async () => {
    // A hosted model whose replies each test scripts: one writes slowly, so that the reload
    // lands mid-reply every time.
    model = await startOpenAiDouble();
    server = await startServer({
      ...hostedModelEnv(model),
    });
  });
  afterAll(async () => {
    await server?.stop();
    await model?.close();
  });

  /** A new signed-in user, an API client as them, and a room with the first mate. */
  async function userWithRoom(name: string) {
    const user = await server.signedInUser(`${name}-${Date.now()}@example.com`);
    const client = createApiClient({
      baseUrl: `${server.url}/api`,
      getToken: () => user.token,
      getLanguage: () => 'en',
    });
    const [mate] = (await client.mate.recommend({ pageSize: 1 })).list;
    const room = await client.room.createRoom({ mateId: mate!.mateId });
    return { user, client, room };
  }

  test('keeps the partial reply and shows it after the reload', async () => {
    const { user, client, room } = await userWithRoom('reload');
    model.next({
      kind: 'stream',
      pieces: Array.from({ length: 60 }, (_, index) => `word${index} `),
      delayMs: 150,
    });
    const page = await visit(server, `/chat-detail?roomId=${room.roomId}`, user);
    await page.getByRole('textbox', { name: 'Message' }).fill('Say many words.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('word3').waitFor();
    await page.reload();
    const log = page.getByRole('log', { name: 'Conversation' });
    await log.getByText('Say many words.').waitFor();
    await log.getByText('This reply was cut off.').waitFor();
    const saved = await client.room.roomInfo({ roomId: room.roomId });
    const last = saved.messages.at(-1)!;
    expect(last).toMatchObject({ role: 'mate', status: 'partial' });
    expect(last.content).toContain('word0');
    expect(last.content).not.toContain('word59');
    await page.context().close();
  });

  test('shows a generated name, never the address, and lets people choose theirs', async () => {
    const { user, client, room } = await userWithRoom('grace.hopper');
    // What others would see on a review or a published mate: not the e-mail's local part.
    expect(user.nickname).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+ \d{3}$/);
    const page = await visit(server, `/profile`, user);
    const form = page.getByRole('form', { name: 'Your name' });
    const field = form.getByRole('textbox', { name: 'Nickname' });
    expect(await field.inputValue()).toBe(user.nickname);
    await field.fill('Grace');
    await form.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('Your name is saved.').first().waitFor();
    // Kept on the server: a reload shows it, and the mate is told to call them by it.
    await page.reload();
    await page
      .getByRole('region', { name: 'Account' })
      .getByText('Grace', { exact: true })
      .waitFor();
    model.next({ kind: 'stream', pieces: ['Welcome, Grace.'] });
    await page.goto(`${server.url}/#/chat-detail?roomId=${room.roomId}`);
    await page.getByRole('textbox', { name: 'Message' }).fill('Hello!');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('log').getByText('Welcome, Grace.').waitFor();
    const messages = model.requests.at(-1)!.body.messages as { role: string; content: string }[];
    expect(messages[0]!.content).toContain('in a roleplay chat with Grace.');
    expect((await client.user.updateNickname({ nickname: ' ' }).catch((error) => error)).code).toBe(
      4000,
    );
    await page.context().close();
  });

  test('asks the model to answer in the language chosen in the app', async () => {
    const { user, room } = await userWithRoom('lang');
    const page = await visit(server, `/profile`, user);
    // The profile's language setting: saved on the server, then the app reloads in Spanish.
    await page.getByRole('main').getByRole('combobox', { name: 'Language' }).click();
    await page.getByRole('option', { name: 'Español' }).click();
    await page.getByRole('heading', { name: 'Perfil' }).waitFor();
    model.next({ kind: 'stream', pieces: ['Hola, ', '¿qué tal?'] });
    await page.goto(`${server.url}/#/chat-detail?roomId=${room.roomId}`);
    await page.getByRole('textbox', { name: 'Mensaje' }).fill('Hello!');
    await page.getByRole('button', { name: 'Enviar' }).click();
    await page.getByRole('log').getByText('Hola, ¿qué tal?').waitFor();
    const request = model.requests.at(-1)!;
    const messages = request.body.messages as { role: string; content: string }[];
    expect(messages[0]).toMatchObject({ role: 'system' });
    expect(messages[0]!.content).toContain('Always answer in Spanish.');
    await page.context().close();
  });
});
