import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../scripts/chromium';
import { linkIn, memoryMailer, startTestServer } from './harness';

type Server = Awaited<ReturnType<typeof startTestServer>>;

/** The page's background as a luminance from 0 (black) to 255 (white). */
const backgroundLuminance = (page: Page) =>
  page.evaluate(() => {
    const [r = 0, g = 0, b = 0] = getComputedStyle(document.body)
      .backgroundColor.match(/\d+/g)!
      .map(Number);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  });

// Issue 37, new users 9: the page the mailed link opens was always dark, and the browser asked
// for a favicon the server does not have.
describe('the pages of the mailed verification link, in Chromium', () => {
  let server: Server;
  let browser: Browser;
  const mailer = memoryMailer();
  let confirmPath = '';

  beforeAll(async () => {
    server = await startTestServer('sqlite', { mailer });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    await server
      .client()
      .user.register({ email: 'new@mates.test', password: 'a long pass phrase' });
    const link = new URL(linkIn(mailer.sent.at(-1)!));
    confirmPath = link.pathname + link.search;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Opens the confirmation page in a fresh browser with the system's scheme and the app's choice. */
  async function open(colorScheme: 'light' | 'dark', appTheme?: 'light' | 'dark' | 'system') {
    const context = await browser.newContext({ colorScheme });
    const page = await context.newPage();
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    page.on('requestfailed', (request) => failed.push(`failed ${request.url()}`));
    if (appTheme) {
      // What the web app keeps in this browser after the person picked a theme in the profile.
      await page.goto(`${server.base}/api/user/verify/theme.js`);
      await page.evaluate(
        (theme) => localStorage.setItem('mates.user', JSON.stringify({ theme })),
        appTheme,
      );
    }
    await page.goto(server.base + confirmPath);
    await page.getByRole('button', { name: 'Confirm my address' }).waitFor();
    return { page, failed, close: () => context.close() };
  }

  it('follows the system theme: light on a light system, dark on a dark one', async () => {
    const light = await open('light');
    expect(await backgroundLuminance(light.page)).toBeGreaterThan(200);
    await light.close();
    const dark = await open('dark');
    expect(await backgroundLuminance(dark.page)).toBeLessThan(60);
    await dark.close();
  });

  it("follows the theme the person chose in the app over the system's", async () => {
    const light = await open('dark', 'light');
    expect(await backgroundLuminance(light.page)).toBeGreaterThan(200);
    await light.close();
    const dark = await open('light', 'dark');
    expect(await backgroundLuminance(dark.page)).toBeLessThan(60);
    await dark.close();
  });

  it('declares an icon that loads, and asks the server for nothing it does not have', async () => {
    const { page, failed, close } = await open('dark');
    const icon = await page.evaluate(() =>
      document.querySelector('link[rel="icon"]')?.getAttribute('href'),
    );
    expect(icon).toBeTruthy();
    const loads = await page.evaluate(
      (href) =>
        new Promise<boolean>((resolve) => {
          const image = new Image();
          image.onload = () => resolve(image.naturalWidth > 0);
          image.onerror = () => resolve(false);
          image.src = href;
        }),
      icon!,
    );
    expect(loads).toBe(true);
    // The answer after pressing the button is the same kind of page.
    await page.getByRole('button', { name: 'Confirm my address' }).click();
    await page.getByRole('heading', { name: 'Your e-mail address is verified' }).waitFor();
    expect(await backgroundLuminance(page)).toBeLessThan(60);
    expect(failed).toEqual([]);
    await close();
  });
});
