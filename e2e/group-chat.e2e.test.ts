import { beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { Behaviour } from '../apps/server/test/openai-double';
import { createApiClient } from '@mates/api-client';
import { signedInPage, journeyWithDouble } from './harness';

// A group chat as a person meets it (#40): three seeded mates in one room, made from Recent
// chats; a message naming one of them is answered by that mate first; another is let speak;
// the third is muted and keeps quiet; a reply is swiped; a reload finds it all as it was left.

type Turn = { role: string; content: string };
const LYRA = 'Lyra Moonwhisper';
const KAI = 'Kai Tanaka';
const IONE = 'Captain Ione Vask';

/** Each mate answers in its own words, numbered, so a reply shows whose prompt it came from. */
let answered = 0;
function answer(body: Record<string, unknown>): Behaviour | undefined {
  const system = (body.messages as Turn[])[0]!.content;
  const name = /You are (.+?) in a group/.exec(system)?.[1];
  if (!name) return undefined;
  answered += 1;
  return { kind: 'stream', pieces: [`${name} answers`, ` (${answered}).`], delayMs: 5 };
}

const journey = journeyWithDouble({ WELCOME_CHATS: '50' });
beforeAll(() => journey.model.route(answer));

/** The conversation's messages as read out: who says each, and what. */
async function said(page: Page): Promise<[string, string][]> {
  const articles = page.getByRole('log').getByRole('article');
  const rows: [string, string][] = [];
  for (const article of await articles.all()) {
    const who = ((await article.getAttribute('aria-label')) ?? '').replace(/ says$/, '');
    const text = (await article.innerText()).replace(/\s+/g, ' ');
    rows.push([who, text]);
  }
  return rows;
}

/** Waits until the mates may be asked to go on again: the turn is over. */
async function turnOver(page: Page) {
  const goOn = page.getByRole('button', {
    name: 'Continue: one more reply, without a message of yours',
  });
  await expect.poll(() => goOn.isEnabled(), { timeout: 20_000 }).toBe(true);
}

describe('a group chat', () => {
  test('three mates: named first, let speak, muted, swiped, and all there after a reload', async () => {
    const user = await journey.server.signedInUser(`group-${Date.now()}@example.com`);
    const page = await signedInPage(journey.browser, journey.server, user, '/recent-chats');

    // Recent chats → New group: three mates found by name, in list order.
    await page.getByRole('button', { name: 'New group' }).click();
    const dialog = page.getByRole('dialog', { name: 'New group chat' });
    for (const name of [LYRA, KAI, IONE]) {
      await dialog.getByRole('searchbox', { name: 'Find mates' }).fill(name.split(' ').at(-1)!);
      await dialog.getByRole('button', { name, exact: true }).click();
    }
    await dialog.getByText('In the group: 3 of 6').waitFor();
    await dialog.getByRole('textbox', { name: 'Group name' }).fill('The stormy tavern');
    await dialog.getByRole('combobox', { name: 'Who speaks after you' }).click();
    await page.getByRole('option', { name: /^List/ }).click();
    await dialog.getByRole('button', { name: 'Create the group' }).click();
    await page.waitForURL((url) => url.href.includes('chat-detail'));
    const roomId = new URL(page.url().replace('/#', '')).searchParams.get('roomId')!;
    await page.getByRole('heading', { name: 'The stormy tavern' }).waitFor();

    // A message naming Kai: Kai answers first, then the others in the list's order.
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Kai, is the stew ready?');
    await page.evaluate(() => {
      const counts: string[] = [];
      (window as unknown as { counts: string[] }).counts = counts;
      new MutationObserver(() => {
        const n = document.querySelectorAll('[role="log"] [role="article"]').length;
        if (counts.at(-1) !== String(n)) counts.push(String(n));
      }).observe(document.body, { subtree: true, childList: true });
    });
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('log').getByText(`${IONE} answers`).waitFor({ timeout: 20_000 });
    await turnOver(page);
    // Never, from the send to the turn's end and the room read again, did it drop a message.
    const counts = await page.evaluate(() => (window as unknown as { counts: string[] }).counts);
    expect(counts.map(Number)).toEqual([...counts.map(Number)].sort((a, b) => a - b));
    const afterFirst = (await said(page)).slice(-4);
    expect(afterFirst.map(([who]) => who)).toEqual([expect.any(String), KAI, LYRA, IONE]);
    expect(afterFirst[1]![1]).toContain(`${KAI} answers`);

    // "Let Captain Ione Vask speak": one more reply, hers.
    const count = (await said(page)).length;
    await page.getByRole('button', { name: `Let ${IONE} speak` }).click();
    await expect.poll(async () => (await said(page)).length, { timeout: 20_000 }).toBe(count + 1);
    await turnOver(page);
    expect((await said(page)).at(-1)![0]).toBe(IONE);

    // Lyra muted from the members sheet: a message naming nobody is answered by the others.
    await page.getByRole('button', { name: 'Members' }).click();
    const sheet = page.getByRole('dialog', { name: 'The group' });
    await sheet.getByRole('switch', { name: `Mute ${LYRA}` }).click();
    await expect
      .poll(() => sheet.getByRole('switch', { name: `Mute ${LYRA}` }).getAttribute('aria-checked'))
      .toBe('true');
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
    const before = (await said(page)).length;
    await box.fill('Another round for everyone!');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(async () => (await said(page)).length, { timeout: 20_000 }).toBe(before + 3);
    await turnOver(page);
    const round = (await said(page)).slice(-3);
    expect(round.map(([who]) => who)).toEqual([expect.any(String), KAI, IONE]);

    // Ione's last reply regenerated: a second version, then back to the first.
    const last = page.getByRole('log').getByRole('article').last();
    const firstVersion = (await last.innerText()).match(/\(\d+\)/)![0];
    await page.getByRole('button', { name: 'Regenerate reply' }).click();
    await last.getByText('2/2').waitFor({ timeout: 20_000 });
    await turnOver(page);
    expect(await last.getAttribute('aria-label')).toBe(`${IONE} says`);
    await last.getByRole('button', { name: 'Previous version' }).click();
    await last.getByText('1/2').waitFor();
    await expect.poll(() => last.innerText()).toContain(firstVersion);
    const leftAs = await said(page);

    // A reload: the same conversation, speakers, chosen version and muted member.
    await page.reload();
    await page.getByRole('heading', { name: 'The stormy tavern' }).waitFor();
    await page.getByRole('log').getByText(`${KAI} answers`).first().waitFor();
    await expect.poll(() => said(page)).toEqual(leftAs);
    await page.getByRole('button', { name: 'Members' }).click();
    expect(
      await page
        .getByRole('dialog', { name: 'The group' })
        .getByRole('switch', { name: `Mute ${LYRA}` })
        .getAttribute('aria-checked'),
    ).toBe('true');
    await page.keyboard.press('Escape');

    // Recent chats lists it by its name, one row for the three of them.
    await page.goto(`${journey.server.url}/#/recent-chats`);
    const row = page.getByRole('link', { name: /The stormy tavern/ });
    await row.waitFor();
    expect(await row.getAttribute('href')).toContain(roomId);
  });

  // The buttons were disabled while the mates wrote: the one pressed dropped the keyboard's focus
  // to the page, and Tab started again from the top.
  test('by keyboard, "Continue" and "Let … speak" keep the focus while the mates write', async () => {
    const { server, browser } = journey;
    const user = await server.signedInUser(`group-keys-${Date.now()}@example.com`);
    const client = createApiClient({
      baseUrl: `${server.url}/api`,
      getToken: () => user.token,
      getLanguage: () => 'en',
    });
    const ids: string[] = [];
    for (const name of [LYRA, KAI])
      ids.push((await client.mate.search({ keyword: name })).list[0]!.mateId);
    const room = await client.room.createGroup({ mateIds: ids, name: 'Night watch' });
    const page = await signedInPage(browser, server, user, `/chat-detail?roomId=${room.roomId}`);
    /** The focused element's name, once the turn is over. */
    const focusAfter = async () => {
      await turnOver(page);
      return page.evaluate(
        () =>
          document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent,
      );
    };
    const goOn = page.getByRole('button', {
      name: 'Continue: one more reply, without a message of yours',
    });
    await goOn.focus();
    const count = (await said(page)).length;
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await said(page)).length, { timeout: 20_000 }).toBe(count + 1);
    expect(await focusAfter()).toBe('Continue: one more reply, without a message of yours');
    await page.getByRole('button', { name: `Let ${KAI} speak` }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await said(page)).length, { timeout: 20_000 }).toBe(count + 2);
    expect(await focusAfter()).toBe(`Let ${KAI} speak`);
    await page.context().close();
  });
});
