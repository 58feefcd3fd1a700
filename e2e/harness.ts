import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { createApiClient, type UserInfo } from '@mates/api-client';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium';
import { afterAll, beforeAll } from 'vitest';
import { listenPort } from '../scripts/listen-port';
import { startOpenAiDouble } from '../apps/server/test/openai-double';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The tiny real GGUF model in `fixtures/models` (`MATES_TEST_GGUF` points elsewhere). */
export const TEST_GGUF =
  process.env.MATES_TEST_GGUF ?? path.resolve(ROOT, 'fixtures/models/stories260K.gguf');

/** A running `pnpm start` server (the built server and web app) on a fresh data folder. */
export interface E2eServer {
  url: string;
  dataDir: string;
  /** Reads the newest verification link for `email` from the outbox. */
  verificationLink: (email: string) => Promise<string>;
  /** Reads the newest password-reset link for `email` from the outbox. */
  resetLink: (email: string) => Promise<string>;
  /** Signs a new address up and confirms it through the API, as a returning user would be. */
  signedInUser: (email: string) => Promise<UserInfo>;
  /**
   * Kills the server outright (SIGKILL: no shutdown, as in a crash or a lost machine) and starts
   * it again on the same address and data folder.
   */
  crashAndRestart: () => Promise<void>;
  stop: () => Promise<void>;
}

/** The settings that make a server chat through the hosted-model double at `baseUrl`. */
export function hostedModelEnv(double: { baseUrl: string }): Record<string, string> {
  return {
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: double.baseUrl,
    LLM_API_KEY: 'sk-e2e',
    LLM_MODEL: 'gpt-test',
  };
}

/** Starts the built server (`apps/server/dist/main.js`) on SQLite with `env` added. */
export async function startServer(
  env: Record<string, string> = {},
  port?: number,
): Promise<E2eServer> {
  port ??= await listenPort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const launch = async (): Promise<ChildProcess> => {
    const child: ChildProcess = spawn(
      process.execPath,
      [path.join(ROOT, 'apps/server/dist/main.js')],
      {
        env: {
          ...process.env,
          PORT: String(port),
          DATA_DIR: dataDir,
          PUBLIC_URL: url,
          LLM_MODEL: TEST_GGUF,
          LLM_THREADS: '1',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 45_000);
      const read = (chunk: Buffer) => {
        // The last part is enough to tell why a server died.
        output = (output + chunk.toString()).slice(-20_000);
        if (output.includes('listening on')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', read);
      child.stderr!.on('data', read);
      child.on('exit', (code, signal) => {
        reject(new Error(`server exited (${code}):\n${output}`));
        // A server that dies on its own (not stopped by this harness) says why in the test log.
        if (!stopping) console.error(`server exited (${code ?? signal}):\n${output}`);
      });
    });
    return child;
  };
  let stopping = false;
  let child = await launch();
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    stopping = true;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };
  const outbox = path.join(dataDir, 'outbox');
  /** The newest link matching `pattern` in a mail to `email`, read from the outbox. */
  const mailedLink = async (email: string, pattern: RegExp, what: string) => {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).sort().reverse() : [];
      for (const file of files) {
        // The outbox holds the mail as sent: quoted-printable, soft line breaks and all.
        const mail = fs
          .readFileSync(path.join(outbox, file), 'utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=3D/g, '=');
        if (!mail.toLowerCase().includes(email.toLowerCase())) continue;
        const link = pattern.exec(mail);
        if (link) return link[0].replace(/&amp;/g, '&');
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no ${what} mail for ${email} in ${outbox}`);
  };
  const verificationLink = (email: string) =>
    mailedLink(
      email,
      /https?:\/\/[^"\s<>]+\/api\/user\/verify\/confirm\?token=[^"\s<>]+/,
      'verification',
    );
  const resetLink = (email: string) =>
    mailedLink(email, /https?:\/\/[^"\s<>]+\/#\/reset-password\?token=[^"\s<>]+/, 'password reset');
  const signedInUser = async (email: string) => {
    const client = createApiClient({
      baseUrl: `${url}/api`,
      getToken: () => '',
      getLanguage: () => 'en',
    });
    const { verifyTicket } = await client.user.register({ email, password: 'correct horse 1' });
    await fetch(await verificationLink(email), { method: 'POST' });
    const status = await client.user.verifyStatus({ email, verifyTicket });
    if (!status.userInfo) throw new Error(`verification of ${email} did not sign in`);
    return status.userInfo;
  };
  return {
    url,
    dataDir,
    verificationLink,
    resetLink,
    signedInUser,
    crashAndRestart: async () => {
      await kill('SIGKILL');
      child = await launch();
      stopping = false;
    },
    stop: async () => {
      await kill('SIGTERM');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A new person signed in on `server` (`name` starts their e-mail), their API client, and a chat
 * they opened with the seeded mate `mate`: how most journeys begin.
 */
export async function personInChat(
  server: Pick<E2eServer, 'url' | 'signedInUser'>,
  name: string,
  mate = 'Kai Tanaka',
) {
  const user = await server.signedInUser(`${name}-${Date.now()}@example.com`);
  const client = createApiClient({
    baseUrl: `${server.url}/api`,
    getToken: () => user.token,
    getLanguage: () => 'en',
  });
  const [found] = (await client.mate.search({ keyword: mate })).list;
  const room = await client.room.createRoom({ mateId: found!.mateId });
  return { user, client, room };
}

/**
 * A fresh browser profile on `server`, signed in as `user` (as if they had signed in before;
 * `null`: a visitor), opened at `path` (not navigated when absent). A reload keeps what the app
 * stored since (a language change, say). `device` emulates a phone (touch, its scale).
 */
export async function signedInPage(
  browser: Browser,
  server: Pick<E2eServer, 'url'>,
  user: object | null,
  path?: string,
  viewport = { width: 1280, height: 900 },
  device: Pick<BrowserContextOptions, 'isMobile' | 'hasTouch' | 'deviceScaleFactor'> = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport, ...device });
  if (user)
    await context.addInitScript(
      (saved) => {
        if (window.localStorage.getItem('mates.user') === null)
          window.localStorage.setItem('mates.user', saved);
      },
      JSON.stringify({ userInfo: user }),
    );
  const page = await context.newPage();
  if (path !== undefined) await page.goto(`${server.url}/#${path}`);
  return page;
}

/** Debian's Chromium through Playwright, with the flags this machine needs and `args` added. */
export function launchBrowser(args: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...args] });
}

/** What {@link journeyWithDouble} starts: read its fields inside tests and hooks. */
export interface Journey {
  browser: Browser;
  /** The language model: tests say what it writes (`next`, `route`). */
  model: Awaited<ReturnType<typeof startOpenAiDouble>>;
  server: E2eServer;
}

/**
 * A file's journeys: Chromium, the OpenAI-compatible model double and the built server in
 * front of it (`env` added to the double's), started before the file's tests and stopped after
 * them.
 */
export function journeyWithDouble(env: Record<string, string> = {}): Journey {
  const journey = {} as Journey;
  beforeAll(async () => {
    journey.browser = await launchBrowser();
    journey.model = await startOpenAiDouble();
    journey.server = await startServer({ ...hostedModelEnv(journey.model), ...env });
  });
  afterAll(async () => {
    await journey.server?.stop();
    await journey.model?.close();
    await journey.browser?.close();
  });
  return journey;
}

/**
 * A new person in a chat with `mate` (see {@link personInChat}), in a fresh browser profile
 * signed in as them and opened on that chat, its message box drawn.
 */
export async function openChat(journey: Journey, name: string, mate?: string) {
  const person = await personInChat(journey.server, name, mate);
  const page = await signedInPage(
    journey.browser,
    journey.server,
    person.user,
    `/chat-detail?roomId=${person.room.roomId}`,
  );
  await page.getByRole('textbox', { name: 'Message' }).waitFor();
  return { ...person, page };
}
