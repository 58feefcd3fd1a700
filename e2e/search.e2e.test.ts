import { describe, expect, test } from 'vitest';
import { createApiClient } from '@mates/api-client';
import { signedInPage, journeyWithDouble } from './harness';
import { es } from '../apps/web/src/i18n/es';
import { fr } from '../apps/web/src/i18n/fr';
import { tagsNamedBy } from '../apps/server/src/catalog/tag-names';
import { searchWords } from '../apps/server/src/catalog/search-words';

// Searching every chat as a person meets it (#41): a word said forty chats ago, found from
// Recent chats, opens its chat at the message, older messages loaded back to it.

const journey = journeyWithDouble({ WELCOME_CHATS: '200' });

describe('search every chat', () => {
  test('finds a word said forty chats ago and opens the chat at it', async () => {
    const user = await journey.server.signedInUser(`search-${Date.now()}@example.com`);
    const client = createApiClient({
      baseUrl: `${journey.server.url}/api`,
      getToken: () => user.token,
      getLanguage: () => 'en',
    });
    const mates = (await client.mate.recommend({ pageSize: 5 })).list;
    const send = (roomId: string, content: string) =>
      client.girl.chatSend({ roomId, content }, { onData: () => {} });
    const SAID = 'My grandmother grew périwinkles on the balcony in Porto.';
    // The chat where it was said, which went on for a long while after…
    const first = await client.room.createRoom({ mateId: mates[0]!.mateId });
    await send(first.roomId, SAID);
    for (let turn = 0; turn < 40; turn += 1)
      await send(first.roomId, `And then, turn ${turn} of a long evening.`);
    // …and forty chats since.
    for (let chat = 1; chat <= 40; chat += 1) {
      const room = await client.room.createRoom({ mateId: mates[chat % mates.length]!.mateId });
      await send(room.roomId, `Chat ${chat}: hello again.`);
    }

    const page = await signedInPage(journey.browser, journey.server, user, '/recent-chats');
    await page.getByRole('searchbox', { name: 'Search your messages' }).fill('PERIWINKLE');
    const hits = page.getByRole('list', { name: 'Messages with “PERIWINKLE”' });
    await hits.getByRole('link').first().waitFor();
    // One message holds it, its matching word marked.
    expect(await hits.getByRole('listitem').count()).toBe(1);
    expect(await hits.locator('mark').first().textContent()).toBe('périwinkles');
    await hits.getByRole('link').first().click();

    await page.waitForURL((url) => url.href.includes(first.roomId));
    const message = page.getByRole('log').getByText(SAID);
    await message.waitFor();
    // Loaded back through the older pages, and shown where the person looks.
    const inView = await message.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.bottom > 0 && box.top < window.innerHeight;
    });
    expect(inView).toBe(true);
    // Another person finds nothing of it.
    const stranger = await journey.server.signedInUser(`stranger-${Date.now()}@example.com`);
    const theirs = createApiClient({
      baseUrl: `${journey.server.url}/api`,
      getToken: () => stranger.token,
      getLanguage: () => 'en',
    });
    expect((await theirs.room.searchMessages({ keyword: 'periwinkle' })).list).toEqual([]);
    await page.context().close();
  }, 180_000);
});

// The server keeps its own copy of the tags' Spanish and French names, which a search in them
// finds: it must follow the names the app shows.
describe("the tags' names a search finds", () => {
  test('are the names the app shows in Spanish and French', () => {
    for (const names of [es.tags, fr.tags])
      for (const [key, name] of Object.entries(names)) {
        const first = searchWords(name).find((word) => word.length >= 3);
        if (!first) continue;
        expect(tagsNamedBy(first), `${name} (${key})`).toContainEqual(searchWords(key));
      }
  });
});
