import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
// The server's image library: draws a real photo to upload and reads the portrait back.
import sharp from 'sharp';
import { createApiClient, type UserInfo } from '@mates/api-client';
import { signedInPage, journeyWithDouble } from './harness';

const ADMIN = 'moderator@example.com';

/** What the hosted model answers to "draft a character": a well-formed draft, as JSON. */
const DRAFT = {
  name: 'Marisol Vega',
  tagline: 'A lighthouse keeper who collects the stories ships leave behind.',
  description: '{{char}} keeps the last lighthouse on a windy island.',
  personality: 'patient, dry-humoured, curious',
  scenario: '{{user}} is stranded on the island for a night.',
  first_mes: '*Marisol holds the lantern higher.* You picked a fine night to wash up.',
  mes_example: '<START>\n{{user}}: Lonely here?\n{{char}}: The sea talks enough for two.',
  creator_notes: 'Slow and warm.',
  alternate_greetings: ['*A knock; Marisol opens the door.* Another stray?'],
  tags: ['fantasy'],
  gender: 'female',
};
const GREETING = '*Marisol sets down her pen.* Storm tonight, {{user}}. Stay by the fire.';

const journey = journeyWithDouble({ ADMIN_EMAILS: ADMIN });

function clientFor(user: UserInfo | null) {
  return createApiClient({
    baseUrl: `${journey.server.url}/api`,
    getToken: () => user?.token ?? '',
    getLanguage: () => 'en',
  });
}

/** A fresh browser profile, signed in as `user`, on `path`. */
function visit(path: string, user: UserInfo): Promise<Page> {
  return signedInPage(journey.browser, journey.server, user, path);
}

describe('the creation studio on the real server', () => {
  test('a new user generates, edits, portrays, saves, chats, publishes and exports a mate; another imports it; a moderator hides it', async () => {
    const maker = await journey.server.signedInUser(`maker-${Date.now()}@example.com`);
    const page = await visit('/generate', maker);

    // An idea becomes a whole draft: the hosted model answers with the draft's JSON.
    await page.getByRole('heading', { name: 'Create a mate' }).waitFor();
    await page.getByText('Costs 1 chat · you have 50').waitFor();
    journey.model.next({ kind: 'stream', pieces: [JSON.stringify(DRAFT)] });
    await page.getByLabel('Your idea').fill('A lighthouse keeper who collects sailors’ stories.');
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    const name = page.getByRole('textbox', { name: 'Name', exact: true });
    await expect.poll(() => name.inputValue(), { timeout: 30_000 }).toBe('Marisol Vega');
    const prompt = JSON.stringify(journey.model.requests.at(-1)!.body);
    expect(prompt).toContain('A lighthouse keeper who collects sailors’ stories.');

    // The person rewrites the greeting and uploads a photo (with a location in it).
    await page.getByRole('textbox', { name: 'Greeting', exact: true }).fill(GREETING);
    const photo = await sharp({
      create: { width: 900, height: 1200, channels: 3, background: '#3a6ea5' },
    })
      .jpeg()
      .withExif({ IFD0: { ImageDescription: 'at home', Make: 'PhoneCam' } })
      .toBuffer();
    await page
      .getByLabel('Or upload a portrait')
      .setInputFiles({ name: 'marisol.jpg', mimeType: 'image/jpeg', buffer: photo });
    await page.getByRole('button', { name: 'Save private' }).click();
    await page.getByRole('heading', { name: 'Marisol Vega is saved' }).waitFor();

    const owner = clientFor(maker);
    const [saved] = (await owner.mate.myMates({})).list;
    expect(saved).toMatchObject({ name: 'Marisol Vega', visibility: 'private' });
    const mate = await owner.mate.getMateDetail({ mateId: saved!.mateId });
    expect(mate.first_mes).toBe(GREETING);
    // The portrait is the upload, cropped and stripped of what the camera wrote into it.
    const portrait = await fetch(new URL(mate.avatar, journey.server.url));
    expect(portrait.status).toBe(200);
    const meta = await sharp(Buffer.from(await portrait.arrayBuffer())).metadata();
    expect([meta.width, meta.height, meta.exif]).toEqual([512, 768, undefined]);

    // Chat with it: the greeting opens the room and the reply streams in.
    await page.getByRole('button', { name: 'Chat now' }).click();
    const log = page.getByRole('log', { name: 'Conversation' });
    await log.getByText('Storm tonight, ').waitFor();
    journey.model.next({ kind: 'stream', pieces: ['The kettle ', 'is on.'] });
    await page.getByRole('textbox', { name: 'Message' }).fill('May I stay?');
    await page.getByRole('button', { name: 'Send' }).click();
    await log.getByText('The kettle is on.').waitFor();

    // Publish it from "Your mates", then export it as a PNG card.
    await page.goto(`${journey.server.url}/#/mine`);
    const item = page.getByRole('listitem', { name: 'Marisol Vega' });
    await item.getByRole('button', { name: 'Publish Marisol Vega' }).click();
    await page.getByText('Marisol Vega is public now.', { exact: true }).waitFor();
    expect((await clientFor(null).mate.search({ keyword: 'Marisol' })).list).toHaveLength(1);
    await item.getByRole('button', { name: 'Export Marisol Vega' }).click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'PNG image (V2 and V3)' }).click();
    const download = await downloading;
    const card = path.join(journey.server.dataDir, download.suggestedFilename());
    await download.saveAs(card);
    expect(fs.readFileSync(card).subarray(1, 4).toString()).toBe('PNG');
    await page.context().close();

    // Someone else imports that PNG and gets the same card.
    const reader = await journey.server.signedInUser(`reader-${Date.now()}@example.com`);
    const other = await visit('/mine', reader);
    await other.getByRole('button', { name: 'Import a card' }).first().click();
    await other.getByTestId('card-file-input').setInputFiles(card);
    const preview = other.getByRole('region', { name: 'What will be created' });
    await preview.getByText('Marisol Vega').first().waitFor();
    await other.getByRole('button', { name: 'Import Marisol Vega' }).click();
    await other.getByText('Marisol Vega is now one of your mates.').waitFor();
    const [imported] = (await clientFor(reader).mate.myMates({})).list;
    const copy = await clientFor(reader).mate.getMateDetail({ mateId: imported!.mateId });
    for (const field of [
      'name',
      'tagline',
      'description',
      'personality',
      'scenario',
      'first_mes',
      'mes_example',
      'alternate_greetings',
      'tags',
    ] as const)
      expect(copy[field], field).toEqual(mate[field]);
    expect(copy).toMatchObject({ visibility: 'private' });
    expect(copy.creator.creatorId).toBe(reader.uuid);

    // The reader reports the original; a moderator hides it and it leaves discovery.
    await clientFor(reader).mate.feedback({
      mateId: mate.mateId,
      reason: 'copyright',
      content: 'This is my character.',
    });
    await other.context().close();
    const moderator = await journey.server.signedInUser(ADMIN);
    expect(moderator.isAdmin).toBe(true);
    const queue = await visit('/moderation', moderator);
    const row = queue.getByRole('listitem', { name: 'Marisol Vega' });
    await row.getByText('This is my character.').waitFor();
    await row.getByRole('button', { name: 'Hide Marisol Vega' }).click();
    const dialog = queue.getByRole('dialog', { name: 'Hide Marisol Vega' });
    await dialog.getByRole('combobox', { name: 'Reason' }).click();
    await queue.getByRole('option', { name: 'Copies someone else’s work' }).click();
    await dialog.getByLabel('Note to the creator (optional)').fill('Please credit the author.');
    await dialog.getByRole('button', { name: 'Hide mate' }).click();
    await queue.getByText('Marisol Vega is hidden.', { exact: true }).waitFor();
    await queue.context().close();

    const visitor = clientFor(null);
    expect((await visitor.mate.search({ keyword: 'Marisol' })).list).toHaveLength(0);
    const trending = await visitor.mate.trendingRank();
    expect(trending.map((entry) => entry.mate.mateId)).not.toContain(mate.mateId);
    await expect(visitor.mate.getMateDetail({ mateId: mate.mateId })).rejects.toMatchObject({
      code: 4004,
    });

    // Its creator is told why, on its page.
    const back = await visit(`/detail?mateId=${mate.mateId}`, maker);
    const notice = back.getByRole('region', {
      name: 'Moderators hid this mate: Copies someone else’s work',
    });
    await notice.getByText('Please credit the author.').waitFor();
    await back.context().close();
  });
});
