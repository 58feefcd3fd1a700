import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, SaveMatePayload } from '@mates/api-client';
import type { LanguageModel } from '../src/llm/language-model';
import { writePortrait } from '../src/catalog/portrait-files';
import { mediaOf } from '../src/media/media-of';
import {
  DIALECTS,
  mateRow,
  postgresAvailable,
  saveMatePayload,
  signUp,
  startTestServer,
  unconfiguredModel,
} from './harness';

// Issue #14: the creation studio's server calls — own mates, drafts, visibility, duplicate,
// delete, portraits and creator pages.
const withPostgres = await postgresAvailable();

/** A model that always answers one short line. */
function replyingModel(): LanguageModel {
  return {
    ...unconfiguredModel(),
    unavailableReason: () => null,
    async generate(_turns, _options, onText) {
      onText('Glad you came back.');
      return { finishReason: 'stop', promptTokens: 1, completionTokens: 1 };
    },
  };
}

/** Sends a message over real HTTP; resolves when the reply is done, or rejects with the error. */
function send(client: ApiClient, roomId: string, content: string): Promise<void> {
  return new Promise((resolve, reject) => {
    client.girl
      .chatSend({ roomId, content }, { onData: () => {}, onDone: () => resolve() })
      .catch(reject);
  });
}

const draft = (changes: Partial<SaveMatePayload> = {}): SaveMatePayload => ({
  name: 'Studio Mate',
  tagline: '',
  description: 'A lighthouse keeper who collects lost letters.',
  personality: 'patient',
  scenario: 'A windy evening.',
  first_mes: 'Oh, a visitor, {{user}}!',
  mes_example: '',
  creator_notes: '',
  system_prompt: '',
  alternate_greetings: [],
  tags: ['fantasy'],
  gender: 'female',
  nsfw: false,
  visibility: 'private',
  ...changes,
});

/** A real JPEG carrying camera, location and colour-profile metadata. */
function photo(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: '#3366aa' } })
    .withExif({
      IFD0: { Make: 'Canon', Model: 'EOS R5', ImageDescription: 'Home at 12 Elm St' },
      IFD3: { GPSLatitudeRef: 'N', GPSMapDatum: 'WGS-84' },
    })
    .withIccProfile('p3')
    .jpeg()
    .toBuffer();
}

describe.each(DIALECTS)('the creation studio on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    if (!skip) server = await startTestServer(dialect, { model: replyingModel() });
  });
  afterAll(async () => {
    if (!skip) await server.close();
  });

  const avatarFiles = () => fs.readdirSync(path.join(server.deps.config.mediaDir, 'avatars'));
  const status = async (url: string) => (await fetch(server.base + url)).status;
  const matesOf = async (creatorId: string) =>
    Number(
      (
        await server.db
          .selectFrom('mates')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('creator_id', '=', creatorId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const hide = (mateId: string) =>
    server.db
      .updateTable('mates')
      .set({
        hidden_at: '2026-11-24T10:00:00.000Z',
        hidden_reason: 'copyright',
        hidden_note: 'This is a copy of a book character.',
      })
      .where('id', '=', mateId)
      .execute();
  const seededMate = async (name: string) =>
    (await server.client().mate.search({ keyword: name })).list.find((mate) => mate.name === name)!;

  it.skipIf(skip)(
    'myMates lists drafts, private, public and hidden mates, newest change first, with filters and pages',
    async () => {
      const owner = await signUp(server);
      const other = await signUp(server);
      const a = await owner.client.mate.saveMate(
        draft({ name: 'Draft One', first_mes: '', visibility: 'draft' }),
      );
      const b = await owner.client.mate.saveMate(draft({ name: 'Private Two' }));
      const c = await owner.client.mate.saveMate(
        draft({ name: 'Public Three', visibility: 'public' }),
      );
      const d = await owner.client.mate.saveMate(draft({ name: 'Deleted Four' }));
      await owner.client.mate.deleteMate({ mateId: d.mateId });
      await hide(c.mateId);
      // Saved in this order; explicit times so that equal clock readings cannot tie.
      for (const [mate, at] of [
        [b, '2000-01-01T00:00:00.000Z'],
        [c, '2000-01-02T00:00:00.000Z'],
      ] as const)
        await server.db
          .updateTable('mates')
          .set({ updated_at: at })
          .where('id', '=', mate.mateId)
          .execute();
      // Changing the draft brings it to the top.
      await owner.client.mate.saveMate(saveMatePayload(a, { description: 'Now longer.' }));
      await other.client.mate.saveMate(draft({ name: 'Not Yours' }));

      const all = await owner.client.mate.myMates({});
      expect(all.list.map((mate) => mate.name)).toEqual([
        'Draft One',
        'Public Three',
        'Private Two',
      ]);
      expect(all).toMatchObject({ total: 3, hasMore: false });
      expect(all.list.map((mate) => mate.visibility)).toEqual(['draft', 'public', 'private']);
      expect(all.list[1]!.moderation).toEqual({
        reason: 'copyright',
        note: 'This is a copy of a book character.',
        hiddenAt: '2026-11-24T10:00:00.000Z',
      });
      expect(all.list[0]!.moderation).toBeNull();
      expect(all.list[0]!.counters).toMatchObject({ chats: 0, messages: 0 });

      const drafts = await owner.client.mate.myMates({ visibility: 'draft' });
      expect(drafts.list.map((mate) => mate.mateId)).toEqual([a.mateId]);
      const second = await owner.client.mate.myMates({ page: 2, pageSize: 2 });
      expect(second).toMatchObject({ total: 3, hasMore: false, page: 2 });
      expect(second.list.map((mate) => mate.mateId)).toEqual([b.mateId]);
      expect((await other.client.mate.myMates({})).list.map((mate) => mate.name)).toEqual([
        'Not Yours',
      ]);
      await expect(server.client().mate.myMates({})).rejects.toMatchObject({ code: 5002 });
      await expect(
        owner.client.mate.myMates({ visibility: 'secret' as never }),
      ).rejects.toMatchObject({ code: 4000 });
    },
  );

  it.skipIf(skip)(
    'refuses a mate name that hides characters or turns text around; strips them from a card',
    async () => {
      // Found from outside: mate names took zero-width spaces and bidirectional overrides, with
      // which a public mate could pass for another in listings; nicknames already refused them.
      const owner = await signUp(server);
      const before = (await owner.client.mate.myMates({})).total;
      for (const name of ['Kai\u200bTanaka', 'Kai \u202eakanaT', 'Kai\u2066 Tanaka', '\u3164']) {
        await expect(owner.client.mate.saveMate(draft({ name }))).rejects.toMatchObject({
          code: 4000,
          message: 'name: must not hold control or invisible characters',
        });
      }
      expect((await owner.client.mate.myMates({})).total).toBe(before);
      // Joiners stay: emoji sequences and several scripts need them.
      const astronaut = await owner.client.mate.saveMate(draft({ name: 'Nova 👩\u200d🚀' }));
      expect(astronaut.name).toBe('Nova 👩\u200d🚀');
      // A card made elsewhere is not refused for them: they are dropped from its name.
      const imported = await owner.client.mate.importCard({
        card: { name: '\u202eKai\u200b Tanaka', description: 'x', first_mes: 'Hello.' },
      });
      expect(imported.name).toBe('Kai Tanaka');
      await expect(
        owner.client.mate.importCard({
          card: { name: '\u200b\u200b', description: 'x', first_mes: 'Hello.' },
        }),
      ).rejects.toMatchObject({ code: 4000, message: expect.stringContaining('no name') });
    },
  );

  it.skipIf(skip)(
    "saveMate without a visibility keeps an existing mate's, and makes a new one private",
    async () => {
      // Found from outside: the published payload calls `visibility` optional, and an update
      // without it made a public mate private, moving its portrait to a new secret address.
      const owner = await signUp(server);
      const published = await owner.client.mate.saveMate(
        draft({ name: 'Still Public', visibility: 'public' }),
      );
      const { visibility: _dropped, ...withoutVisibility } = saveMatePayload(published, {
        description: 'Edited by another client.',
      });
      const edited = await owner.client.mate.saveMate(withoutVisibility);
      expect(edited).toMatchObject({
        visibility: 'public',
        description: 'Edited by another client.',
        avatar: published.avatar,
      });
      const { visibility: _none, ...fresh } = draft({ name: 'New And Quiet' });
      expect((await owner.client.mate.saveMate(fresh)).visibility).toBe('private');
    },
  );

  it.skipIf(skip)(
    'saveMate keeps a draft with only a name, and asks for a greeting before private or public',
    async () => {
      const { client, userInfo } = await signUp(server);
      const saved = await client.mate.saveMate({
        ...draft({ visibility: 'draft' }),
        description: '',
        personality: '',
        scenario: '',
        first_mes: '',
        tags: [],
      });
      expect(saved).toMatchObject({ visibility: 'draft', first_mes: '', description: '' });
      for (const visibility of ['private', 'public'] as const) {
        await expect(
          client.mate.saveMate(saveMatePayload(saved, { visibility, name: 'Changed' })),
        ).rejects.toMatchObject({ code: 4000, message: expect.stringMatching(/^first_mes: /) });
        await expect(
          client.mate.saveMate(draft({ first_mes: '   ', visibility })),
        ).rejects.toMatchObject({ code: 4000 });
      }
      expect(await matesOf(userInfo.uuid)).toBe(1);
      expect((await client.mate.getMateDetail({ mateId: saved.mateId })).name).toBe('Studio Mate');

      // A public mate shelved as a draft: the address people saw stops answering.
      const shown = await client.mate.saveMate(draft({ visibility: 'public' }));
      expect(await status(shown.avatar)).toBe(200);
      const shelved = await client.mate.saveMate(saveMatePayload(shown, { visibility: 'draft' }));
      expect(shelved.avatar).not.toBe(shown.avatar);
      expect(await status(shown.avatar)).toBe(404);
      expect(await status(shelved.avatar)).toBe(200);

      // Another user's mate: 4004, and it is unchanged.
      const other = await signUp(server);
      await expect(
        other.client.mate.saveMate(saveMatePayload(shelved, { name: 'Taken' })),
      ).rejects.toMatchObject({ code: 4004 });
      expect((await client.mate.getMateDetail({ mateId: shelved.mateId })).name).toBe(
        'Studio Mate',
      );
    },
  );

  it.skipIf(skip)('a hidden mate cannot be made public, by saveMate or setVisibility', async () => {
    const { client } = await signUp(server);
    const mate = await client.mate.saveMate(draft({ visibility: 'public' }));
    await client.mate.setVisibility({ mateId: mate.mateId, visibility: 'private' });
    await hide(mate.mateId);
    const refusal = { code: 4003, message: expect.stringContaining('Moderators hid this mate') };
    await expect(
      client.mate.saveMate(saveMatePayload(mate, { visibility: 'public' })),
    ).rejects.toMatchObject(refusal);
    await expect(
      client.mate.setVisibility({ mateId: mate.mateId, visibility: 'public' }),
    ).rejects.toMatchObject(refusal);
    const after = await client.mate.getMateDetail({ mateId: mate.mateId });
    expect(after.visibility).toBe('private');
    // Still the owner's to edit and shelve.
    expect(
      await client.mate.setVisibility({ mateId: mate.mateId, visibility: 'draft' }),
    ).toMatchObject({ visibility: 'draft' });
  });

  it.skipIf(skip)(
    'setVisibility publishes, unpublishes and shelves the owner’s mates only',
    async () => {
      const owner = await signUp(server);
      const other = await signUp(server);
      const mate = await owner.client.mate.saveMate(
        draft({ name: 'Shy Mate', first_mes: '', visibility: 'draft' }),
      );
      for (const visibility of ['public', 'private'] as const)
        await expect(
          owner.client.mate.setVisibility({ mateId: mate.mateId, visibility }),
        ).rejects.toMatchObject({ code: 4000, message: expect.stringMatching(/greeting/) });
      const ready = await owner.client.mate.saveMate(saveMatePayload(mate, { first_mes: 'Hi.' }));
      expect(ready.visibility).toBe('draft');

      const published = await owner.client.mate.setVisibility({
        mateId: mate.mateId,
        visibility: 'public',
      });
      expect(published.visibility).toBe('public');
      expect((await other.client.mate.getMateDetail({ mateId: mate.mateId })).name).toBe(
        'Shy Mate',
      );
      await expect(
        other.client.mate.setVisibility({ mateId: mate.mateId, visibility: 'private' }),
      ).rejects.toMatchObject({ code: 4004 });
      expect((await other.client.mate.getMateDetail({ mateId: mate.mateId })).visibility).toBe(
        'public',
      );

      const closed = await owner.client.mate.setVisibility({
        mateId: mate.mateId,
        visibility: 'private',
      });
      expect(closed.avatar).not.toBe(published.avatar);
      expect(await status(published.avatar)).toBe(404);
      await expect(other.client.mate.getMateDetail({ mateId: mate.mateId })).rejects.toMatchObject({
        code: 4004,
      });
    },
  );

  it.skipIf(skip)(
    'duplicateMate makes a private copy with every card field and its own portrait file',
    async () => {
      const owner = await signUp(server);
      const card = {
        spec: 'chara_card_v3',
        spec_version: '3.0',
        data: {
          name: 'Zoë Ångström'.padEnd(98, '·'),
          description: 'Een kartograaf uit Tromsø.',
          first_mes: 'Hei, {{user}}!',
          post_history_instructions: 'Blijf kort.',
          tags: ['Mystery', 'Original Character'],
          creator: 'kaartmaker',
          character_book: {
            name: 'Atlas',
            entries: [{ keys: ['kaart'], content: 'Kaarten leven.' }],
          },
          extensions: {
            depth_prompt: { depth: 4, prompt: 'Noem de kaart.' },
            other_app: { ok: true },
          },
          group_only_greetings: ['Hallo allemaal.'],
          assets: [{ type: 'icon', uri: 'ccdefault:', name: 'main', ext: 'png' }],
        },
      };
      const original = await owner.client.mate.importCard({ card });
      await owner.client.mate.setVisibility({ mateId: original.mateId, visibility: 'public' });
      const other = await signUp(server);
      const room = await other.client.room.createRoom({ mateId: original.mateId });
      await send(other.client, room.roomId, 'Hello!');
      await expect(
        other.client.mate.duplicateMate({ mateId: original.mateId }),
      ).rejects.toMatchObject({ code: 4004 });

      const copy = await owner.client.mate.duplicateMate({ mateId: original.mateId });
      expect(copy.name).toHaveLength(100);
      expect(copy.name.endsWith(' (copy)')).toBe(true);
      expect(copy).toMatchObject({
        visibility: 'private',
        counters: { chats: 0, messages: 0, favorites: 0, reviews: 0, rating: null },
        description: original.description,
        first_mes: original.first_mes,
        tags: original.tags,
      });
      expect(
        (await owner.client.mate.getMateDetail({ mateId: original.mateId })).counters.chats,
      ).toBe(1);
      expect(copy.mateId).not.toBe(original.mateId);
      expect(copy.avatar).not.toBe(original.avatar);
      expect(await status(copy.avatar)).toBe(200);

      const exported = async (mateId: string) =>
        JSON.parse(
          Buffer.from((await owner.client.mate.exportCard({ mateId })).data, 'base64').toString(),
        ) as { spec: string; data: Record<string, unknown> };
      const [a, b] = [await exported(original.mateId), await exported(copy.mateId)];
      expect(b.spec).toBe('chara_card_v3');
      expect({ ...b.data, name: a.data.name }).toEqual(a.data);

      // Deleting the original leaves the copy's portrait alone.
      await owner.client.mate.deleteMate({ mateId: original.mateId });
      expect(await status(copy.avatar)).toBe(200);
    },
  );

  it.skipIf(skip)(
    'a tagline left empty is the description’s first sentence, macros filled',
    async () => {
      const { client } = await signUp(server);
      const saved = await client.mate.saveMate(
        draft({
          name: 'Lyra',
          description: "{{char}} keeps {{user}}'s lost letters. She reads none of them.",
        }),
      );
      // Listings show the tagline to everyone: no macro may show as written.
      expect(saved.tagline).toBe('Lyra keeps your lost letters.');
    },
  );

  it.skipIf(skip)('a copy of a long name never keeps half of an emoji', async () => {
    const { client } = await signUp(server);
    // 92 letters and an emoji (two UTF-16 units): " (copy)" leaves room for 93 units.
    const original = await client.mate.saveMate(draft({ name: `${'a'.repeat(92)}🧭` }));
    const copy = await client.mate.duplicateMate({ mateId: original.mateId });
    expect(copy.name).toBe(`${'a'.repeat(92)} (copy)`);
    // The copy can be saved as it is.
    await expect(client.mate.saveMate(saveMatePayload(copy))).resolves.toMatchObject({
      name: copy.name,
    });
  });

  it.skipIf(skip)(
    'deleteMate removes a mate from everything, while rooms stay readable and read-only',
    async () => {
      const owner = await signUp(server);
      const reader = await signUp(server);
      const name = `Vanishing Quillfeather ${Date.now()}`;
      const mate = await owner.client.mate.saveMate(draft({ name, visibility: 'public' }));
      const mateId = mate.mateId;
      const theirRoom = await reader.client.room.createRoom({ mateId });
      await send(reader.client, theirRoom.roomId, 'Tell me about the letters.');
      const ownRoom = await owner.client.room.createRoom({ mateId });
      await reader.client.user.doFavorite({ mateId });
      await reader.client.mate.followCreator({ creatorId: owner.userInfo.uuid });
      const before = {
        search: await reader.client.mate.search({ keyword: 'Quillfeather' }),
        recommend: await reader.client.mate.recommend({ pageSize: 1 }),
        trending: await reader.client.mate.trendingRank(),
        favorites: await reader.client.user.favorites(),
        creator: await reader.client.mate.creatorInfo({ creatorId: owner.userInfo.uuid }),
        follows: await reader.client.mate.followList(),
      };
      expect(before.search.list.map((m) => m.mateId)).toContain(mateId);
      expect(before.trending.map((entry) => entry.mate.mateId)).toContain(mateId);
      expect(before.favorites.map((m) => m.mateId)).toContain(mateId);
      expect(before.creator.mates).toBe(1);

      await expect(reader.client.mate.deleteMate({ mateId })).rejects.toMatchObject({ code: 4004 });
      expect((await reader.client.mate.getMateDetail({ mateId })).name).toBe(name);
      await owner.client.mate.deleteMate({ mateId });

      for (const client of [owner.client, reader.client, server.client()]) {
        await expect(client.mate.getMateDetail({ mateId })).rejects.toMatchObject({ code: 4004 });
        await expect(client.mate.mateExtraInfo({ mateId })).rejects.toMatchObject({ code: 4004 });
      }
      expect((await reader.client.mate.search({ keyword: 'Quillfeather' })).list).toEqual([]);
      expect((await reader.client.mate.recommend({ pageSize: 1 })).total).toBe(
        before.recommend.total - 1,
      );
      expect((await reader.client.mate.trendingRank()).map((e) => e.mate.mateId)).not.toContain(
        mateId,
      );
      expect((await reader.client.user.favorites()).map((m) => m.mateId)).not.toContain(mateId);
      expect((await reader.client.mate.creatorInfo({ creatorId: owner.userInfo.uuid })).mates).toBe(
        0,
      );
      expect((await reader.client.mate.followList())[0]!.mates).toBe(0);
      expect(
        (await reader.client.mate.creatorMates({ creatorId: owner.userInfo.uuid })).total,
      ).toBe(0);
      expect((await owner.client.mate.myMates({})).total).toBe(0);
      await expect(owner.client.mate.exportCard({ mateId })).rejects.toMatchObject({ code: 4004 });
      for (const client of [owner.client, reader.client])
        await expect(client.room.createRoom({ mateId })).rejects.toMatchObject({ code: 4004 });
      await expect(reader.client.user.doFavorite({ mateId })).rejects.toMatchObject({ code: 4004 });
      await expect(owner.client.mate.deleteMate({ mateId })).rejects.toMatchObject({ code: 4004 });
      await expect(
        owner.client.mate.saveMate(saveMatePayload(mate, { name: 'Back?' })),
      ).rejects.toMatchObject({ code: 4004 });
      // The address people saw stops answering.
      expect(await status(mate.avatar)).toBe(404);

      // The reader's room keeps every message and takes no new one; so does the owner's.
      const info = await reader.client.room.roomInfo({ roomId: theirRoom.roomId });
      expect(info.messages.map((m) => m.content)).toEqual([
        'Oh, a visitor, ' + reader.userInfo.nickname + '!',
        'Tell me about the letters.',
        'Glad you came back.',
      ]);
      expect(info.readOnly).toBe(
        'This mate is no longer available. You can read this chat, but not continue it.',
      );
      expect(info.mate).toMatchObject({ name, description: '', first_mes: '', avatar: '' });
      await expect(send(reader.client, theirRoom.roomId, 'Still there?')).rejects.toMatchObject({
        code: 5007,
      });
      const again = await reader.client.room.roomInfo({ roomId: theirRoom.roomId });
      expect(again.messages).toHaveLength(3);
      const listed = (await reader.client.room.roomList()).list.find(
        (room) => room.roomId === theirRoom.roomId,
      );
      expect(listed?.mate).toMatchObject({ name, avatar: '' });
      expect(
        (await owner.client.room.roomInfo({ roomId: ownRoom.roomId })).readOnly,
      ).not.toBeNull();
      await expect(send(owner.client, ownRoom.roomId, 'Hello?')).rejects.toMatchObject({
        code: 5007,
      });
    },
  );

  it.skipIf(skip)('a card without a greeting is imported as a draft to finish', async () => {
    const { client } = await signUp(server);
    const mate = await client.mate.importCard({
      card: { name: 'Silent Card', description: 'Quiet.' },
    });
    expect(mate).toMatchObject({ visibility: 'draft', first_mes: '' });
    await expect(client.room.createRoom({ mateId: mate.mateId })).rejects.toMatchObject({
      code: 4000,
    });
  });

  it.skipIf(skip)(
    'createRoom opens the owner’s private mates and drafts with a greeting, not a draft without',
    async () => {
      const owner = await signUp(server);
      const other = await signUp(server);
      const secret = await owner.client.mate.saveMate(draft({ name: 'Secret' }));
      const ready = await owner.client.mate.saveMate(
        draft({ name: 'Ready Draft', visibility: 'draft' }),
      );
      const bare = await owner.client.mate.saveMate(
        draft({ name: 'Bare Draft', first_mes: '', visibility: 'draft' }),
      );
      for (const mate of [secret, ready]) {
        const room = await owner.client.room.createRoom({ mateId: mate.mateId });
        await send(owner.client, room.roomId, 'Hi!');
        const info = await owner.client.room.roomInfo({ roomId: room.roomId });
        expect(info.readOnly).toBeNull();
        expect(info.messages.at(-1)!.content).toBe('Glad you came back.');
        await expect(other.client.room.createRoom({ mateId: mate.mateId })).rejects.toMatchObject({
          code: 4004,
        });
      }
      await expect(owner.client.room.createRoom({ mateId: bare.mateId })).rejects.toMatchObject({
        code: 4000,
        message:
          'mateId: this draft has no greeting yet. Add one in the editor before chatting with it.',
      });
      expect((await owner.client.room.roomList()).total).toBe(2);
    },
  );

  it.skipIf(skip)(
    'portraitChoices draws six DiceBear portraits a seed always draws the same',
    async () => {
      const client = server.client();
      const choices = await client.mate.portraitChoices({ seed: 'Mira Vale' });
      expect(choices).toHaveLength(6);
      expect(new Set(choices.map((choice) => choice.url)).size).toBe(6);
      expect(choices.map((choice) => choice.choiceId)).toEqual([
        'lorelei:Mira Vale#0',
        'notionists:Mira Vale#1',
        'lorelei:Mira Vale#2',
        'notionists:Mira Vale#3',
        'lorelei:Mira Vale#4',
        'notionists:Mira Vale#5',
      ]);
      for (const choice of choices) {
        expect(choice.url).toMatch(/^data:image\/svg\+xml;base64,/);
        const svg = Buffer.from(choice.url.split(',')[1]!, 'base64').toString('utf8');
        expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      }
      expect(await client.mate.portraitChoices({ seed: 'Mira Vale' })).toEqual(choices);
      const others = await client.mate.portraitChoices({ seed: 'Mira Vale 2' });
      expect(others.map((choice) => choice.url)).not.toContain(choices[0]!.url);
      await expect(client.mate.portraitChoices({ seed: '  ' })).rejects.toMatchObject({
        code: 4000,
      });
    },
  );

  it.skipIf(skip)('setPortrait takes a chosen portrait, for the owner only', async () => {
    const owner = await signUp(server);
    const other = await signUp(server);
    const mate = await owner.client.mate.saveMate(draft());
    const [choice] = await owner.client.mate.portraitChoices({ seed: 'Studio' });
    await expect(
      other.client.mate.setPortrait({ mateId: mate.mateId, choiceId: choice!.choiceId }),
    ).rejects.toMatchObject({ code: 4004 });
    for (const choiceId of ['cartoon:Studio#0', 'lorelei:Studio', 'Studio', 'lorelei:Studio#9'])
      await expect(
        owner.client.mate.setPortrait({ mateId: mate.mateId, choiceId }),
      ).rejects.toMatchObject({ code: 4000, message: expect.stringMatching(/^choiceId: /) });
    expect((await owner.client.mate.getMateDetail({ mateId: mate.mateId })).avatar).toBe(
      mate.avatar,
    );

    const chosen = await owner.client.mate.setPortrait({
      mateId: mate.mateId,
      choiceId: choice!.choiceId,
    });
    expect(chosen.avatar).toMatch(/^\/media\/avatars\/[\w-]+\.svg$/);
    const served = await fetch(server.base + chosen.avatar);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe(
      Buffer.from(choice!.url.split(',')[1]!, 'base64').toString('utf8'),
    );
    // The mate's own earlier portrait is gone.
    expect(await status(mate.avatar)).toBe(404);
  });

  it.skipIf(skip)(
    'setPortrait crops an upload to 512×768 and strips its metadata; refuses what is not a picture',
    async () => {
      const owner = await signUp(server);
      const mate = await owner.client.mate.saveMate(draft({ visibility: 'public' }));
      const upload = await photo(900, 1400);
      const input = await sharp(upload).metadata();
      expect(input.exif?.toString('latin1')).toContain('Elm St');
      expect(input.icc).toBeDefined();

      const updated = await owner.client.mate.setPortrait({
        mateId: mate.mateId,
        image: upload.toString('base64'),
      });
      expect(updated.avatar).toMatch(/^\/media\/avatars\/[\w-]+\.webp$/);
      const response = await fetch(server.base + updated.avatar);
      expect(response.status).toBe(200);
      const out = Buffer.from(await response.arrayBuffer());
      const meta = await sharp(out).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 512, height: 768 });
      expect(meta.exif).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.comments).toBeUndefined();
      expect(out.toString('latin1')).not.toContain('Elm St');
      expect(out.toString('latin1')).not.toContain('Canon');
      expect(await status(mate.avatar)).toBe(404);
      // The portrait goes into a PNG card export as a picture.
      const png = await owner.client.mate.exportCard({ mateId: mate.mateId, format: 'png' });
      expect(await sharp(Buffer.from(png.data, 'base64')).metadata()).toMatchObject({
        format: 'png',
        width: 512,
        height: 768,
      });

      const refusals: [string, Buffer, RegExp][] = [
        [
          'an SVG',
          Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="900"><rect width="600" height="900"/></svg>',
          ),
          /^image: must be a PNG, JPEG, WebP or GIF picture, not SVG/,
        ],
        ['text', Buffer.from('Just some words, not a picture at all.'), /^image: is not a picture/],
        ['a cut-off JPEG', upload.subarray(0, upload.length >> 1), /^image: .*damaged/],
        ['a small picture', await photo(200, 600), /^image: must be at least 256 pixels .*200×600/],
      ];
      const files = avatarFiles().length;
      for (const [, bytes, message] of refusals)
        await expect(
          owner.client.mate.setPortrait({ mateId: mate.mateId, image: bytes.toString('base64') }),
        ).rejects.toMatchObject({ code: 4000, message: expect.stringMatching(message) });
      await expect(
        owner.client.mate.setPortrait({
          mateId: mate.mateId,
          image: Buffer.alloc(8.5 * 1024 * 1024).toString('base64'),
        }),
      ).rejects.toMatchObject({ code: 4000, message: 'image: must be at most 8 MB' });
      expect(avatarFiles()).toHaveLength(files);
      expect((await owner.client.mate.getMateDetail({ mateId: mate.mateId })).avatar).toBe(
        updated.avatar,
      );
      expect(await status(updated.avatar)).toBe(200);

      const other = await signUp(server);
      await expect(
        other.client.mate.setPortrait({ mateId: mate.mateId, image: upload.toString('base64') }),
      ).rejects.toMatchObject({ code: 4004 });
      expect(avatarFiles()).toHaveLength(files);
    },
  );

  it.skipIf(skip)('setPortrait leaves a portrait file another mate still shows', async () => {
    const owner = await signUp(server);
    const shared = await writePortrait(mediaOf(server.deps.config), '<svg/>', '.svg');
    const [a, b] = [
      mateRow(owner.userInfo.uuid, { avatar: shared }),
      mateRow(owner.userInfo.uuid, { avatar: shared }),
    ];
    await server.db.insertInto('mates').values([a, b]).execute();
    const [choice] = await owner.client.mate.portraitChoices({ seed: 'Shared' });
    await owner.client.mate.setPortrait({ mateId: a.id, choiceId: choice!.choiceId });
    expect(await status(shared)).toBe(200);
    await owner.client.mate.setPortrait({ mateId: b.id, choiceId: choice!.choiceId });
    expect(await status(shared)).toBe(404);
  });

  it.skipIf(skip)('creatorInfo and creatorMates show a creator’s public mates', async () => {
    const lyra = await seededMate('Lyra Moonwhisper');
    const creatorId = lyra.creator.creatorId;
    const anonymous = server.client();
    const info = await anonymous.mate.creatorInfo({ creatorId });
    const mates = await anonymous.mate.creatorMates({ creatorId, pageSize: 50 });
    expect(info).toMatchObject({
      creatorId,
      name: lyra.creator.name,
      isFollowing: false,
      isSelf: false,
      mates: mates.total,
    });
    expect(Date.parse(info.joinedAt)).not.toBeNaN();
    expect(mates.list.map((mate) => mate.mateId)).toContain(lyra.mateId);
    expect(mates.list.every((mate) => mate.creator.creatorId === creatorId)).toBe(true);

    const fan = await signUp(server);
    await fan.client.mate.followCreator({ creatorId });
    expect(await fan.client.mate.creatorInfo({ creatorId })).toMatchObject({
      isFollowing: true,
      followers: info.followers + 1,
    });

    // A new creator: only public mates, newest first; adult ones for those who opted in.
    const maker = await signUp(server);
    const makerId = maker.userInfo.uuid;
    const older = await maker.client.mate.saveMate(
      draft({ name: 'Older Public', visibility: 'public' }),
    );
    await server.db
      .updateTable('mates')
      .set({ created_at: '2000-01-01T00:00:00.000Z' })
      .where('id', '=', older.mateId)
      .execute();
    await maker.client.mate.saveMate(draft({ name: 'Newer Public', visibility: 'public' }));
    await maker.client.mate.saveMate(
      draft({ name: 'Adult Public', visibility: 'public', nsfw: true }),
    );
    await maker.client.mate.saveMate(draft({ name: 'Kept Private' }));
    await maker.client.mate.saveMate(draft({ name: 'Kept Draft', visibility: 'draft' }));
    const names = async (client: ApiClient) =>
      (await client.mate.creatorMates({ creatorId: makerId })).list.map((mate) => mate.name);
    expect(await names(anonymous)).toEqual(['Newer Public', 'Older Public']);
    expect(await names(maker.client)).toEqual(['Newer Public', 'Older Public']);
    expect(await maker.client.mate.creatorInfo({ creatorId: makerId })).toMatchObject({
      isSelf: true,
      isFollowing: false,
      mates: 2,
      followers: 0,
    });
    await fan.client.user.updateTags({ tags: [], nfsw: true });
    expect(await names(fan.client)).toEqual(['Adult Public', 'Newer Public', 'Older Public']);
    expect((await fan.client.mate.creatorInfo({ creatorId: makerId })).mates).toBe(3);
    const paged = await anonymous.mate.creatorMates({ creatorId: makerId, page: 2, pageSize: 1 });
    expect(paged).toMatchObject({ total: 2, hasMore: false });
    expect(paged.list.map((mate) => mate.name)).toEqual(['Older Public']);

    for (const call of [
      () => anonymous.mate.creatorInfo({ creatorId: 'nobody-at-all' }),
      () => anonymous.mate.creatorMates({ creatorId: 'nobody-at-all' }),
    ])
      await expect(call()).rejects.toMatchObject({ code: 4004 });
  });
});
