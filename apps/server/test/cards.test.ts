import fs from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionExpiredError } from '@mates/api-client';
import { readPngText, writePngText } from '../src/cards/png-text';
import {
  DIALECTS,
  createTestApp,
  postgresAvailable,
  saveMatePayload,
  signUp,
  type TestApp,
  seededMate,
} from './harness';

const withPostgres = await postgresAvailable();

const CARD = {
  spec: 'chara_card_v2',
  spec_version: '2.0',
  data: {
    name: 'Quinn Harrow',
    description:
      'A lighthouse radio operator who talks to ships nobody else can hear. Calm and odd.',
    personality: 'calm, odd, kind',
    scenario: 'A foggy night at the station.',
    first_mes: 'Station Harrow, go ahead, {{user}}.',
    mes_example: '<START>\n{{user}}: Hello?\n{{char}}: Loud and clear.',
    creator_notes: 'Best at night.',
    system_prompt: 'Stay in character.',
    post_history_instructions: 'Keep replies short.',
    alternate_greetings: ['Mayday received. Who is this?'],
    tags: ['Mystery', 'slice of life', 'Original Character'],
    creator: 'someone@elsewhere',
    character_version: '1.3',
    character_book: { entries: [{ keys: ['fog'], content: 'The fog is alive.' }] },
    extensions: {
      depth_prompt: { depth: 4, prompt: 'Mention the fog.' },
      talkativeness: '0.7',
      some_app: { x: [1, 2] },
    },
  },
};

// The smallest valid PNG: one transparent pixel.
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

// A picture a card can carry as its portrait (at least 256 pixels on its short side).
const PICTURE = await sharp({
  create: { width: 300, height: 450, channels: 3, background: '#447799' },
})
  .png()
  .toBuffer();

function chunksAreSound(png: Buffer): boolean {
  let offset = 8;
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const crc = png.readUInt32BE(offset + 8 + length);
    if (crc32(png.subarray(offset + 4, offset + 8 + length)) >>> 0 !== crc) return false;
    offset += 12 + length;
  }
  return offset === png.length;
}

describe('PNG text chunks', () => {
  it('write, replace and read a tEXt chunk with valid CRCs', () => {
    const once = writePngText(PIXEL, 'chara', 'first');
    const twice = writePngText(once, 'chara', 'second');
    expect(readPngText(twice, 'chara')).toBe('second');
    expect(twice.toString('latin1').match(/tEXtchara/g)).toHaveLength(1);
    expect(chunksAreSound(twice)).toBe(true);
    expect(readPngText(PIXEL, 'chara')).toBeUndefined();
  });
});

describe.each(DIALECTS)('Character Card V2 on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let app: TestApp;
  beforeAll(async () => {
    if (!skip) app = await createTestApp(dialect);
  });
  afterAll(async () => {
    if (!skip) await app.close();
  });

  it.skipIf(skip)(
    'imports a JSON card as a private mate and exports it with nothing lost',
    async () => {
      const { userInfo, client } = await signUp(app);
      const mate = await client.mate.importCard({ card: CARD });
      expect(mate).toMatchObject({
        name: 'Quinn Harrow',
        visibility: 'private',
        creator: { creatorId: userInfo.uuid },
        tags: ['mystery', 'slice-of-life'],
        tagline: 'A lighthouse radio operator who talks to ships nobody else can hear.',
        system_prompt: 'Stay in character.',
        alternate_greetings: ['Mayday received. Who is this?'],
      });
      await expect(app.client().mate.getMateDetail({ mateId: mate.mateId })).rejects.toMatchObject({
        code: 4004,
      });
      const file = await client.mate.exportCard({ mateId: mate.mateId });
      expect(file).toMatchObject({ filename: 'Quinn Harrow.json', mimeType: 'application/json' });
      const exported = JSON.parse(Buffer.from(file.data, 'base64').toString('utf8'));
      expect(exported.spec).toBe('chara_card_v2');
      const { extensions, ...rest } = exported.data;
      const { extensions: originalExtensions, ...originalRest } = CARD.data;
      expect(rest).toEqual(originalRest);
      expect(extensions).toEqual({
        ...originalExtensions,
        mates: { gender: 'nonbinary', tagline: mate.tagline, nsfw: false },
      });
    },
  );

  it.skipIf(skip)('exports a PNG card that another user imports with its portrait', async () => {
    const author = await signUp(app);
    const reader = await signUp(app);
    const mate = await author.client.mate.importCard({ card: CARD });
    const file = await author.client.mate.exportCard({ mateId: mate.mateId, format: 'png' });
    expect(file).toMatchObject({ filename: 'Quinn Harrow.png', mimeType: 'image/png' });
    const png = Buffer.from(file.data, 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(chunksAreSound(png)).toBe(true);
    const inside = JSON.parse(Buffer.from(readPngText(png, 'chara')!, 'base64').toString('utf8'));
    expect(inside.data.name).toBe('Quinn Harrow');

    const copy = await reader.client.mate.importCard({ png: file.data });
    expect(copy).toMatchObject({
      name: 'Quinn Harrow',
      creator: { creatorId: reader.userInfo.uuid },
    });
    // Re-encoded by the upload rules (review of #14, finding 2).
    expect(copy.avatar).toMatch(/\.webp$/);
    const portrait = await app.app.request(copy.avatar);
    expect(portrait.status).toBe(200);
    expect(
      Buffer.from(await portrait.arrayBuffer())
        .subarray(8, 12)
        .toString(),
    ).toBe('WEBP');
    // The copy exports the same card back out.
    const again = await reader.client.mate.exportCard({ mateId: copy.mateId, format: 'json' });
    expect(
      JSON.parse(Buffer.from(again.data, 'base64').toString()).data.extensions.some_app,
    ).toEqual({ x: [1, 2] });
  });

  it.skipIf(skip)('reads V1 flat cards too', async () => {
    const { client } = await signUp(app);
    const mate = await client.mate.importCard({
      card: { name: 'Old Card', description: 'From long ago.', first_mes: 'Hi.' },
    });
    expect(mate).toMatchObject({ name: 'Old Card', first_mes: 'Hi.', personality: '' });
  });

  it.skipIf(skip)('answers bad cards clearly and writes nothing', async () => {
    const { client } = await signUp(app);
    const before = (await app.db.selectFrom('mates').select('id').execute()).length;
    const cases: [Parameters<typeof client.mate.importCard>[0], string][] = [
      [
        { card: { spec: 'chara_card_v2', data: { description: 'no name' } } },
        'The card is not valid: name: Invalid input: expected string, received undefined',
      ],
      [{ card: 'just text' }, 'The card is not a JSON object.'],
      [
        { png: Buffer.from('not an image').toString('base64') },
        'png: This file is not a PNG image.',
      ],
      [
        { png: PIXEL.toString('base64') },
        'png: this image holds no character card (no "chara" text chunk).',
      ],
      [
        { png: writePngText(PIXEL, 'chara', 'bm90IGpzb24=').toString('base64') },
        'png: the character card in this image is not readable JSON.',
      ],
    ];
    for (const [payload, message] of cases) {
      await expect(client.mate.importCard(payload)).rejects.toMatchObject({ code: 4000, message });
    }
    await expect(client.mate.importCard({} as never)).rejects.toMatchObject({ code: 4000 });
    expect((await app.db.selectFrom('mates').select('id').execute()).length).toBe(before);
  });

  const portraitFiles = () => fs.readdirSync(path.join(app.deps.config.mediaDir, 'avatars')).sort();
  const pngCard = (card: unknown) => pngOfText(JSON.stringify(card));
  const pngOfText = (json: string) =>
    writePngText(PICTURE, 'chara', Buffer.from(json).toString('base64')).toString('base64');

  it.skipIf(skip)('refuses ill-typed or deeply nested cards before writing any file', async () => {
    const { userInfo } = await signUp(app);
    const importRaw = async (payload: string) =>
      (await (
        await app.app.request('/api/mate/importCard', {
          method: 'POST',
          headers: { 'content-type': 'application/json', token: userInfo.token },
          body: payload,
        })
      ).json()) as { c: number; m: string };
    // Written as text: JSON.stringify itself would overflow the stack at this depth.
    const deep = `${'{"deeper":'.repeat(5000)}"bottom"${'}'.repeat(5000)}`;
    const tooDeep = `{"spec":"chara_card_v2","data":{"name":"Deep","extensions":{"deep":${deep}}}}`;
    const badTagline = JSON.stringify({
      spec: 'chara_card_v2',
      data: { ...CARD.data, extensions: { mates: { tagline: { not: 'a string' } } } },
    });
    const mates = (await app.db.selectFrom('mates').select('id').execute()).length;
    const files = portraitFiles();
    for (const [card, message] of [
      [badTagline, 'extensions.mates.tagline'],
      [tooDeep, 'nested'],
    ] as const) {
      for (const payload of [`{"card":${card}}`, JSON.stringify({ png: pngOfText(card) })]) {
        expect(await importRaw(payload)).toMatchObject({
          c: 4000,
          m: expect.stringContaining(message),
        });
      }
    }
    expect(portraitFiles()).toEqual(files);
    expect((await app.db.selectFrom('mates').select('id').execute()).length).toBe(mates);
  });

  it.skipIf(skip)('keeps the card out of the stored portrait', async () => {
    const { client } = await signUp(app);
    const v3 = { ...CARD, spec: 'chara_card_v3', spec_version: '3.0' };
    const ccv3 = writePngText(
      Buffer.from(pngCard(CARD), 'base64'),
      'ccv3',
      Buffer.from(JSON.stringify(v3)).toString('base64'),
    );
    const mate = await client.mate.importCard({ png: ccv3.toString('base64') });
    const portrait = Buffer.from(await (await app.app.request(mate.avatar)).arrayBuffer());
    // A WebP re-encoded from the picture alone: no text chunk survives.
    expect(portrait.subarray(8, 12).toString()).toBe('WEBP');
    expect(portrait.includes('chara')).toBe(false);
    expect(portrait.includes('ccv3')).toBe(false);
    expect(portrait.includes('Quinn')).toBe(false);
  });

  it.skipIf(skip)('serves a private portrait only at an address its owner was given', async () => {
    const owner = await signUp(app);
    const other = await signUp(app);
    const mate = await owner.client.mate.importCard({ png: pngCard(CARD) });
    const isImage = async (url: string) =>
      /^image\//.test((await app.app.request(url)).headers.get('content-type') ?? '');
    expect(await isImage(mate.avatar)).toBe(true);
    // The address cannot be derived from the mate's id.
    expect(mate.avatar).not.toContain(mate.mateId);
    expect(await isImage(`/media/avatars/${mate.mateId}.png`)).toBe(false);
    await owner.client.mate.saveMate(saveMatePayload(mate, { visibility: 'public' }));
    const seen = await other.client.mate.getMateDetail({ mateId: mate.mateId });
    expect(await isImage(seen.avatar)).toBe(true);
    // Made private again: what others saw no longer answers; the owner gets a new address.
    const hidden = await owner.client.mate.saveMate(
      saveMatePayload(mate, { visibility: 'private' }),
    );
    expect(hidden.avatar).not.toBe(seen.avatar);
    expect(await isImage(seen.avatar)).toBe(false);
    expect((await app.app.request(seen.avatar)).status).toBe(404);
    expect(await isImage(hidden.avatar)).toBe(true);
  });

  it.skipIf(skip)('imports and exports only for the signed-in owner', async () => {
    const owner = await signUp(app);
    const other = await signUp(app);
    const mate = await owner.client.mate.importCard({ card: CARD });
    await expect(app.client().mate.importCard({ card: CARD })).rejects.toBeInstanceOf(
      SessionExpiredError,
    );
    await expect(other.client.mate.exportCard({ mateId: mate.mateId })).rejects.toMatchObject({
      code: 4004,
    });
    const seeded = await seededMate(app.db, 'Lyra Moonwhisper');
    await expect(owner.client.mate.exportCard({ mateId: seeded.id })).rejects.toMatchObject({
      code: 4004,
    });
  });
});
