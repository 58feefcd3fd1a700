import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { FIRST_SCREEN_BUDGET_KB, firstScreenSize } from '../apps/web/bench/first-screen-size';
import { personInChat, signedInPage, journeyWithDouble } from './harness';

// The first screen's budget (issue #7) as the built app ships it: what `/` loads before it can
// draw stays under 150 KB gzipped, and what only a chat needs (the streamed reply's parser)
// loads with the first send instead.
const journey = journeyWithDouble();

/** The scripts `page` fetches from now on. */
function scriptsOf(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

describe('the first screen', () => {
  test('ships at most 150 KB of JavaScript gzipped', () => {
    const { gzipped } = firstScreenSize();
    expect(gzipped / 1024).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET_KB);
  });

  test('draws the mates without the reply parser, which comes with the first send', async () => {
    const visitor = await signedInPage(journey.browser, journey.server, null);
    const scripts = scriptsOf(visitor);
    await visitor.goto(`${journey.server.url}/`);
    await visitor.getByRole('article').first().waitFor();
    expect(scripts.filter((script) => script.includes('data-line-parser'))).toEqual([]);
    await visitor.context().close();

    const { user, room } = await personInChat(journey.server, 'first-reply');
    const page = await signedInPage(journey.browser, journey.server, user);
    const chatScripts = scriptsOf(page);
    await page.goto(`${journey.server.url}/#/chat-detail?roomId=${room.roomId}`);
    journey.model.next({ kind: 'stream', pieces: ['The kettle', ' is already on.'] });
    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.fill('Tea?');
    await composer.press('Enter');
    await page
      .getByRole('log', { name: 'Conversation' })
      .getByText('The kettle is already on.')
      .waitFor({ timeout: 30_000 });
    expect(chatScripts.some((script) => script.includes('data-line-parser'))).toBe(true);
    await page.context().close();
  });

  test('a notice that cannot load its code while offline leaves the screen as it was', async () => {
    // The notifications' code loads with the first notice: here that is the sign-up's failure,
    // with the connection gone.
    const visitor = await signedInPage(journey.browser, journey.server, null);
    await visitor.goto(`${journey.server.url}/`);
    await visitor.getByRole('article').first().waitFor();
    await visitor.getByRole('button', { name: 'Sign in' }).click();
    const popup = visitor.getByRole('dialog', { name: 'Sign in to Mates' });
    await popup.getByRole('button', { name: 'Sign up' }).click();
    const email = visitor.getByRole('textbox', { name: 'Email address' });
    await email.fill('offline@example.com');
    await visitor.getByRole('textbox', { name: 'Password' }).fill('correct horse 1');
    await visitor.context().setOffline(true);
    const toasterFailed = visitor.waitForEvent('requestfailed', (request) =>
      request.url().includes('/assets/toaster-'),
    );
    await visitor.getByRole('button', { name: 'Continue' }).click();
    await toasterFailed;
    // Two frames: what React draws after the failed load is on the screen.
    await visitor.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    await visitor
      .getByRole('dialog', { name: 'Create your account' })
      .getByRole('button', { name: 'Continue' })
      .waitFor();
    expect(await visitor.getByText('Unexpected Application Error!').count()).toBe(0);
    expect(await email.inputValue()).toBe('offline@example.com');
    await visitor.getByRole('button', { name: 'Close' }).click();
    await visitor.getByRole('heading', { name: 'Discover mates' }).waitFor();
    expect(await visitor.getByText('Unexpected Application Error!').count()).toBe(0);
    await visitor.context().close();
  });
});

describe('a screen whose code cannot be fetched', () => {
  test('says the connection is gone, and "Try again" brings the screen once it is back', async () => {
    const visitor = await signedInPage(journey.browser, journey.server, null);
    await visitor.goto(`${journey.server.url}/`);
    await visitor.getByRole('article').first().waitFor();
    await visitor.context().setOffline(true);
    await visitor.getByRole('link', { name: 'FAQ' }).click();
    const main = visitor.getByRole('main');
    await main.getByRole('heading', { name: 'Something went wrong' }).waitFor();
    // The person's language, not the browser's "Failed to fetch dynamically imported module".
    await main
      .getByText('The server could not be reached. Check your connection and try again.')
      .waitFor();
    expect(await main.getByText(/dynamically imported|module script/i).count()).toBe(0);
    await visitor.context().setOffline(false);
    // React Router keeps a screen's failed load for the page's life: only a new load mends it.
    await main.getByRole('button', { name: 'Try again' }).click();
    await main.getByRole('heading', { name: 'Frequently asked questions', level: 1 }).waitFor();
    await visitor.context().close();
  });
});
