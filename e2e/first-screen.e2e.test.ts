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
});
