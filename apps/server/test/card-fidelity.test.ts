import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mate } from '@mates/api-client';
import { readPngText, writePngText } from '../src/cards/png-text';
import { writePortrait } from '../src/catalog/portrait-files';
import { mediaOf } from '../src/media/media-of';
import {
  DIALECTS,
  createTestApp,
  postgresAvailable,
  saveMatePayload,
  signUp,
  type TestApp,
} from './harness';

const withPostgres = await postgresAvailable();

// Cards as others write them: non-ASCII text, lorebook, extensions of other apps.
const V2_DATA = {
  name: 'Zoë Ångström',
  description: 'Een kartograaf uit Tromsø die kaarten tekent van plekken die nog niet bestaan.',
  personality: 'nieuwsgierig, geduldig, 東京が好き',
  scenario: 'Een winternacht in de kaartenkamer.',
  first_mes: 'Hei, {{user}}! Kijk eens naar deze kaart.',
  mes_example: '<START>\n{{user}}: Waar is dit?\n{{char}}: Nog nergens.',
  creator_notes: 'Werkt het best in het Nederlands.',
  system_prompt: '',
  post_history_instructions: 'Blijf kort.',
  alternate_greetings: ['Ah, een bezoeker. ¿Qué tal?'],
  tags: ['Mystery', 'slice of life', 'Original Character'],
  creator: 'kaartmaker',
  character_version: '2.1',
  character_book: { name: 'Atlas', entries: [{ keys: ['kaart'], content: 'Kaarten leven.' }] },
  extensions: { talkativeness: '0.5', world: 'Atlas', other_app: { ok: true } },
};
const V2 = { spec: 'chara_card_v2', spec_version: '2.0', data: V2_DATA };
const V3_ONLY = {
  nickname: 'Zoë',
  group_only_greetings: ['Hallo allemaal.'],
  assets: [{ type: 'icon', uri: 'ccdefault:', name: 'main', ext: 'png' }],
  creator_notes_multilingual: { en: 'Best in Dutch.' },
  source: ['https://example.org/zoe'],
  creation_date: 1700000000,
  modification_date: 1700000100,
};
const V3 = { spec: 'chara_card_v3', spec_version: '3.0', data: { ...V2_DATA, ...V3_ONLY } };

const encode = (card: unknown) => Buffer.from(JSON.stringify(card)).toString('base64');
const decode = (text: string | undefined) =>
  JSON.parse(Buffer.from(text!, 'base64').toString('utf8')) as {
    spec: string;
    spec_version: string;
    data: Record<string, unknown> & { name: string; tags: string[] };
  };
// A picture a card can carry as its portrait (at least 256 pixels on its short side).
const PICTURE = await sharp({
  create: { width: 300, height: 450, channels: 3, background: '#447799' },
})
  .png()
  .toBuffer();

const pngWith = (chunks: Record<string, unknown>) =>
  Object.entries(chunks).reduce<Buffer>(
    (png, [keyword, card]) => writePngText(png, keyword, encode(card)),
    PICTURE,
  );
const chunkCount = (png: Buffer, keyword: string) =>
  png.toString('latin1').split(`tEXt${keyword}\0`).length - 1;

type Client = Awaited<ReturnType<typeof signUp>>['client'];

describe.each(DIALECTS)('card fidelity on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let app: TestApp;
  beforeAll(async () => {
    if (!skip) app = await createTestApp(dialect);
  });
  afterAll(async () => {
    if (!skip) await app.close();
  });

  const exported = async (client: Client, query: Parameters<Client['mate']['exportCard']>[0]) =>
    Buffer.from((await client.mate.exportCard(query)).data, 'base64');

  it.skipIf(skip)(
    'a PNG export after an edit carries one current card in both chunks',
    async () => {
      const { client } = await signUp(app);
      const mate = await client.mate.importCard({
        png: pngWith({ chara: V2, ccv3: V3 }).toString('base64'),
      });
      await client.mate.saveMate(
        saveMatePayload(mate, { name: 'Zoë Nieuw', personality: 'anders' }),
      );
      // A portrait stored with a card still inside (as earlier versions kept it) must not leak.
      const legacy = await writePortrait(
        mediaOf(app.deps.config),
        writePngText(PICTURE, 'ccv3', encode(V3)),
        '.png',
      );
      await app.db
        .updateTable('mates')
        .set({ avatar: legacy })
        .where('id', '=', mate.mateId)
        .execute();

      for (const spec of [undefined, 'v2', 'v3'] as const) {
        const png = await exported(client, { mateId: mate.mateId, format: 'png', spec });
        expect(chunkCount(png, 'chara')).toBe(1);
        expect(chunkCount(png, 'ccv3')).toBe(1);
        const chara = decode(readPngText(png, 'chara'));
        const ccv3 = decode(readPngText(png, 'ccv3'));
        expect(chara).toMatchObject({ spec: 'chara_card_v2', spec_version: '2.0' });
        expect(ccv3).toMatchObject({ spec: 'chara_card_v3', spec_version: '3.0' });
        for (const card of [chara, ccv3]) {
          expect(card.data).toMatchObject({ name: 'Zoë Nieuw', personality: 'anders' });
        }
        expect(ccv3.data).toEqual({ ...chara.data, ...V3_ONLY });
        // Another reader gets the edited card back, whichever chunk it prefers.
        const copy = await client.mate.importCard({ png: png.toString('base64') });
        expect(copy).toMatchObject({ name: 'Zoë Nieuw', personality: 'anders' });
      }
    },
  );

  it.skipIf(skip)(
    'exports edited tags and fields, keeping the card fields Mates does not use',
    async () => {
      const { client } = await signUp(app);
      const mate = await client.mate.importCard({ card: V2 });
      expect(mate.tags).toEqual(['mystery', 'slice-of-life']);
      await client.mate.saveMate(
        saveMatePayload(mate, {
          tags: ['mystery', 'romance'],
          description: 'Een nieuwe beschrijving.',
          alternate_greetings: ['Goedemorgen.', 'Goedenavond.'],
          nsfw: true,
        }),
      );
      const card = decode(
        (await exported(client, { mateId: mate.mateId, format: 'json' })).toString('base64'),
      );
      // Removed tags go, added ones come, the rest keep the card's own spelling.
      expect(card.data.tags).toEqual(['Mystery', 'Original Character', 'Romance']);
      expect(card.data).toMatchObject({
        description: 'Een nieuwe beschrijving.',
        alternate_greetings: ['Goedemorgen.', 'Goedenavond.'],
        post_history_instructions: 'Blijf kort.',
        character_version: '2.1',
        character_book: V2_DATA.character_book,
        extensions: { ...V2_DATA.extensions, mates: { nsfw: true } },
      });
    },
  );

  it.skipIf(skip)("keeps the card's own creator, even an empty or missing one", async () => {
    const { client, userInfo } = await signUp(app);
    const creatorOf = async (card: unknown) => {
      const mate = await client.mate.importCard({ card });
      return decode(
        (await exported(client, { mateId: mate.mateId, format: 'json' })).toString('base64'),
      ).data.creator;
    };
    expect(await creatorOf(V2)).toBe('kaartmaker');
    expect(await creatorOf({ ...V2, data: { ...V2_DATA, creator: '' } })).toBe('');
    const { creator: _none, ...withoutCreator } = V2_DATA;
    expect(await creatorOf({ ...V2, data: withoutCreator })).toBe('');
    expect(await creatorOf({ name: 'V1 Kaart', description: 'Oud.', first_mes: 'Hoi.' })).toBe('');
    // A mate made in Mates has its maker as creator.
    const own = await client.mate.saveMate({
      ...saveMatePayload(await client.mate.importCard({ card: V2 }), { name: 'Eigen' }),
      mateId: undefined,
    });
    const card = decode(
      (await exported(client, { mateId: own.mateId, format: 'json' })).toString('base64'),
    );
    expect(card.data.creator).toBe(userInfo.nickname);
  });

  it.skipIf(skip)('exports V3 when asked and by default for V3 imports', async () => {
    const { client } = await signUp(app);
    const json = async (mateId: string, spec?: 'v2' | 'v3') =>
      decode((await exported(client, { mateId, format: 'json', spec })).toString('base64'));
    const tagline = (mate: Mate) => ({
      mates: { gender: 'nonbinary', tagline: mate.tagline, nsfw: false },
    });

    const fromV3 = await client.mate.importCard({ card: V3 });
    const v3 = await json(fromV3.mateId);
    expect(v3).toMatchObject({ spec: 'chara_card_v3', spec_version: '3.0' });
    expect(v3.data).toEqual({
      ...V3.data,
      extensions: { ...V2_DATA.extensions, ...tagline(fromV3) },
    });
    expect(await json(fromV3.mateId, 'v2')).toMatchObject({
      spec: 'chara_card_v2',
      spec_version: '2.0',
      data: { name: V2_DATA.name },
    });

    // A PNG with both chunks is read from `ccv3`, as SillyTavern reads it.
    const fromPng = await client.mate.importCard({
      png: pngWith({ chara: V2, ccv3: V3 }).toString('base64'),
    });
    expect((await json(fromPng.mateId)).data).toMatchObject(V3_ONLY);

    const fromV2 = await client.mate.importCard({ card: V2 });
    expect((await json(fromV2.mateId)).spec).toBe('chara_card_v2');
    const upgraded = await json(fromV2.mateId, 'v3');
    expect(upgraded).toMatchObject({ spec: 'chara_card_v3', spec_version: '3.0' });
    expect(upgraded.data).toMatchObject({ name: V2_DATA.name, group_only_greetings: [] });
  });

  it.skipIf(skip)('previews an import without creating anything', async () => {
    const { client } = await signUp(app);
    const mates = async () =>
      Number(
        (
          await app.db
            .selectFrom('mates')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const files = () => fs.readdirSync(path.join(app.deps.config.mediaDir, 'avatars')).length;
    const before = await mates();

    const v2 = await client.mate.previewCard({ card: V2 });
    expect(v2).toEqual({
      draft: {
        name: 'Zoë Ångström',
        tagline: expect.stringMatching(/^Een kartograaf uit Tromsø/),
        description: V2_DATA.description,
        personality: V2_DATA.personality,
        scenario: V2_DATA.scenario,
        first_mes: V2_DATA.first_mes,
        mes_example: V2_DATA.mes_example,
        creator_notes: V2_DATA.creator_notes,
        system_prompt: '',
        alternate_greetings: V2_DATA.alternate_greetings,
        tags: ['mystery', 'slice-of-life'],
        gender: 'nonbinary',
        nsfw: false,
      },
      spec: 'v2',
      creator: 'kaartmaker',
      portraitFromCard: false,
      // The lorebook is used (chat/prompt.ts): not listed.
      unused: ['Link to the world "Atlas"', 'Extension "other_app"'],
      droppedTags: ['Original Character'],
    });
    // What the import then makes is what the preview showed.
    const imported = await client.mate.importCard({ card: V2 });
    expect(imported).toMatchObject(v2.draft);
    const [after, filesAfter] = [await mates(), files()];
    expect(after).toBe(before + 1);

    const v3 = await client.mate.previewCard({
      png: pngWith({ chara: V2, ccv3: V3 }).toString('base64'),
    });
    expect(v3).toMatchObject({ spec: 'v3', portraitFromCard: true, creator: 'kaartmaker' });
    // Group chats use a card's group-only greetings and talkativeness: they are not unused.
    expect(v3.unused.some((part) => /group|talkativeness/i.test(part))).toBe(false);
    expect(v3.unused).toEqual(
      expect.arrayContaining([
        'Nickname "Zoë"',
        'Card assets (1 file)',
        'Creator notes in other languages (en)',
        'Source links (1)',
      ]),
    );

    const v1 = await client.mate.previewCard({
      card: { name: 'Oude Kaart', description: 'Van lang geleden.', first_mes: 'Hoi.' },
    });
    expect(v1).toMatchObject({ spec: 'v1', creator: '', unused: [], droppedTags: [] });

    // The card of cards.test.ts: a nameless lorebook and SillyTavern's depth prompt.
    const quinn = await client.mate.previewCard({
      card: {
        ...V2,
        data: {
          ...V2_DATA,
          tags: ['NSFW', 'Mystery', 'Original Character', 'original character'],
          character_book: {
            entries: [
              { keys: ['fog'], content: 'The fog is alive.' },
              {},
              { keys: ['/fog+/i'], content: 'Found by a pattern.' },
            ],
          },
          extensions: {
            depth_prompt: { depth: 4, prompt: 'Mention the fog.' },
            regex_scripts: [{ scriptName: 'trim' }],
          },
        },
      },
    });
    expect(quinn.unused).toEqual([
      'Lorebook entries found by patterns (1 entry)',
      'Character note (inserted at depth 4)',
      'Regex scripts (1)',
    ]);
    expect(quinn.droppedTags).toEqual(['Original Character']);
    expect(quinn.draft.nsfw).toBe(true);

    // Refused like an import, with the same words; nothing was created by any preview.
    await expect(
      client.mate.previewCard({ card: { description: 'no name' } }),
    ).rejects.toMatchObject({ code: 4000, message: expect.stringContaining('name') });
    await expect(
      client.mate.previewCard({ png: Buffer.from('not a png').toString('base64') }),
    ).rejects.toMatchObject({ code: 4000, message: expect.stringMatching(/^png: /) });
    await expect(app.client().mate.previewCard({ card: V2 })).rejects.toMatchObject({
      code: 5002,
    });
    expect(await mates()).toBe(after);
    expect(files()).toBe(filesAfter);
  });

  it.skipIf(skip)('derives a tagline that reads as a sentence, macros resolved', async () => {
    const { client } = await signUp(app);
    const taglineOf = async (name: string, description: string) =>
      (await client.mate.importCard({ card: { ...V2, data: { ...V2_DATA, name, description } } }))
        .tagline;
    expect(
      await taglineOf('Aldric', "{{char}}'s personality is stern but fair toward {{user}}. More."),
    ).toBe("Aldric's personality is stern but fair toward you.");
    expect(await taglineOf('Aldric', '{{Char}} is a knight sworn to guard {{user}}’s home')).toBe(
      'Aldric is a knight sworn to guard your home.',
    );
    expect(await taglineOf('Mira', '<BOT> waves at <USER> from the gate! She smiles.')).toBe(
      'Mira waves at you from the gate!',
    );
    expect(await taglineOf('Mira', 'a quiet gardener who hums to {{user}}')).toBe(
      'A quiet gardener who hums to you.',
    );
    const long = await taglineOf('Mira', `${'a very long winding road '.repeat(12)}`);
    expect(long).toMatch(/^A very long winding road .*\w…$/);
    expect(long.length).toBeLessThanOrEqual(161);
  });
});
