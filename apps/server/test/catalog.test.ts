import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { recordChatForTrending } from '../src/catalog/trending-repository';
import { SessionExpiredError } from '@mates/api-client';
import {
  DIALECTS,
  createTestApp,
  mateRow,
  postgresAvailable,
  signUp,
  type TestApp,
  chatters,
} from './harness';
import { mateDraft } from './your-data-helpers';

const withPostgres = await postgresAvailable();
const NSFW_SEED_MATES = 3;

describe.each(DIALECTS)('catalog on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let app: TestApp;
  beforeAll(async () => {
    if (skip) return;
    app = await createTestApp(dialect);
    await chatters(app.db, ['u0', 'u1', 'u2', 'u3', 'u4']);
  });
  afterAll(async () => {
    if (!skip) await app.close();
  });
  const mateNamed = async (name: string) =>
    await app.db
      .selectFrom('mates')
      .select(['id', 'creator_id'])
      .where('name', '=', name)
      .executeTakeFirstOrThrow();

  it.skipIf(skip)('lists tags and the tag map in display order', async () => {
    const groups = await app.client().extra.tagsMap();
    expect(groups.map((g) => g.key)).toEqual(['genre', 'role', 'setting', 'mood']);
    expect(groups[0]!.tags[0]).toEqual({ key: 'fantasy', label: 'Fantasy', group: 'genre' });
    const tags = await app.client().extra.tags();
    expect(tags).toHaveLength(groups.reduce((n, g) => n + g.tags.length, 0));
  });

  it.skipIf(skip)('tells the app that no sign-in provider is set up', async () => {
    await expect(app.client().extra.publicConfig()).resolves.toEqual({
      productName: 'Mates',
      googleClientId: null,
      discord: null,
    });
  });

  it.skipIf(skip)('recommends public, safe-for-work mates to visitors, paged', async () => {
    const first = await app.client().mate.recommend({ pageSize: 30 });
    expect(first.total).toBe(40 - NSFW_SEED_MATES);
    expect(first.list).toHaveLength(30);
    expect(first.hasMore).toBe(true);
    expect(first.list.every((m) => !m.nsfw)).toBe(true);
    const second = await app.client().mate.recommend({ page: 2, pageSize: 30 });
    expect(second.list).toHaveLength(7);
    expect(second.hasMore).toBe(false);
    const ids = new Set([...first.list, ...second.list].map((m) => m.mateId));
    expect(ids.size).toBe(37);
  });

  it.skipIf(skip)('recommends by tags, most shared tags first, and by gender', async () => {
    const page = await app.client().mate.recommend({ tags: ['fantasy', 'cozy'], pageSize: 50 });
    expect(page.list.length).toBeGreaterThan(0);
    expect(page.list.every((m) => m.tags.includes('fantasy') || m.tags.includes('cozy'))).toBe(
      true,
    );
    const both = page.list.filter(
      (m) => m.tags.includes('fantasy') && m.tags.includes('cozy'),
    ).length;
    expect(
      page.list.slice(0, both).every((m) => m.tags.includes('fantasy') && m.tags.includes('cozy')),
    ).toBe(true);
    const male = await app.client().mate.recommend({ gender: 'male', pageSize: 50 });
    expect(male.list.every((m) => m.gender === 'male')).toBe(true);
    await expect(app.client().mate.recommend({ pageSize: 500 })).rejects.toMatchObject({
      code: 4000,
    });
  });

  it.skipIf(skip)('shows not-safe-for-work mates only to users who turned them on', async () => {
    const { client } = await signUp(app);
    const sable = await mateNamed('Sable');
    await expect(app.client().mate.getMateDetail({ mateId: sable.id })).rejects.toMatchObject({
      code: 4003,
    });
    expect((await client.mate.recommend({ pageSize: 50 })).total).toBe(37);
    await client.user.updateTags({ tags: [], nfsw: true });
    expect((await client.mate.recommend({ pageSize: 50 })).total).toBe(40);
    expect((await client.mate.getMateDetail({ mateId: sable.id })).name).toBe('Sable');
  });

  it.skipIf(skip)('gives a mate in full, with clear errors for bad or unknown ids', async () => {
    const lyra = await mateNamed('Lyra Moonwhisper');
    const mate = await app.client().mate.getMateDetail({ mateId: lyra.id });
    expect(mate).toMatchObject({
      name: 'Lyra Moonwhisper',
      gender: 'female',
      visibility: 'public',
      system_prompt: '',
    });
    expect(mate.first_mes).toContain('{{user}}');
    expect(mate.alternate_greetings).toHaveLength(1);
    expect(mate.avatar).toMatch(/^\/media\/avatars\/.+\.svg$/);
    const portrait = await app.app.request(mate.avatar);
    expect(portrait.status).toBe(200);
    expect(await portrait.text()).toMatch(/^<svg/);
    await expect(app.client().mate.getMateDetail({ mateId: 'nope' })).rejects.toMatchObject({
      code: 4004,
      message: 'Mate not found.',
    });
    const raw = await app.app.request('/api/mate/getMateDetail');
    expect(await raw.json()).toMatchObject({ c: 4000, m: expect.stringContaining('mateId') });
  });

  it.skipIf(skip)('keeps private mates to their creator', async () => {
    const owner = await signUp(app);
    const other = await signUp(app);
    await app.db
      .insertInto('mates')
      .values(
        mateRow(owner.userInfo.uuid, {
          id: 'private-1',
          name: 'Secret Draft Zebulon',
          visibility: 'private',
        }),
      )
      .execute();
    expect((await owner.client.mate.getMateDetail({ mateId: 'private-1' })).name).toBe(
      'Secret Draft Zebulon',
    );
    await expect(other.client.mate.getMateDetail({ mateId: 'private-1' })).rejects.toMatchObject({
      code: 4004,
    });
    await expect(other.client.user.doFavorite({ mateId: 'private-1' })).rejects.toMatchObject({
      code: 4004,
    });
    expect((await other.client.mate.search({ keyword: 'zebulon' })).total).toBe(0);
    expect((await owner.client.mate.search({ keyword: 'zebulon' })).total).toBe(0);
  });

  it.skipIf(skip)('refuses reports about mates the caller may not see (4004)', async () => {
    const owner = await signUp(app);
    const other = await signUp(app);
    await app.db
      .insertInto('mates')
      .values(mateRow(owner.userInfo.uuid, { id: 'private-report', visibility: 'private' }))
      .execute();
    const report = { mateId: 'private-report', reason: 'broken' as const, content: 'x' };
    for (const caller of [other.client, app.client()]) {
      await expect(caller.mate.feedback(report)).rejects.toMatchObject({ code: 4004 });
    }
    const kept = await app.db
      .selectFrom('mate_feedback')
      .select('user_id')
      .where('mate_id', '=', 'private-report')
      .execute();
    expect(kept).toEqual([]);
  });

  it.skipIf(skip)(
    'searches name, description and tags; case-, accent- and prefix-tolerant',
    async () => {
      const names = async (keyword: string) =>
        (await app.client().mate.search({ keyword, pageSize: 50 })).list.map((m) => m.name);
      expect(await names('lighthouse')).toContain('Elias Thorne');
      expect(await names('LYRA')).toEqual(['Lyra Moonwhisper']);
      expect(await names('lighth')).toContain('Elias Thorne');
      expect(await names('cafe')).toContain('Kai Tanaka');
      expect(await names('Wójcik')).toContain('Tomasz "Tom" Wójcik');
      expect(await names('wojcik')).toContain('Tomasz "Tom" Wójcik');
      expect(await names('octopus')).toContain('Dr. Mira Solberg');
      expect(await names('"; drop table mates; --')).toEqual([]);
      // Found from outside: a search of emoji or punctuation alone (no word in it) listed the
      // whole catalog as "37 mates found".
      expect(await names('😀')).toEqual([]);
      expect(await names('!?')).toEqual([]);
      // Found from outside: the tags show in the visitor's language ("Fantasía", "Comédie"),
      // and Spanish search's empty page suggests "a tag like fantasía", but only the English
      // keys were searched. A tag's name in any of the app's languages finds its mates.
      const tagNamed = async (keyword: string, tag: string) => {
        const found = (await app.client().mate.search({ keyword, pageSize: 50 })).list;
        const all = (await app.client().mate.search({ keyword: '', tags: [tag], pageSize: 50 }))
          .list;
        expect(all.length).toBeGreaterThan(0);
        for (const mate of all) expect(found.map((m) => m.name)).toContain(mate.name);
      };
      await tagNamed('fantasía', 'fantasy');
      await tagNamed('fantasia', 'fantasy');
      await tagNamed('Comédie', 'comedy');
      await tagNamed('comedia', 'comedy');
      await tagNamed('Ciencia ficción', 'sci-fi');
      await tagNamed('science-fiction', 'sci-fi');
      await tagNamed('postapocalíptico', 'post-apocalyptic');
      await tagNamed('school', 'academy');
      await tagNamed('mar', 'sea');
      // A word that names a tag still finds what it says elsewhere ("mar", Margot's name).
      expect(await names('mar')).toContain('Margot Lisle');
      expect(await names('fantasía elven')).toEqual(['Lyra Moonwhisper']);
      const tagged = await app
        .client()
        .mate.search({ keyword: '', tags: ['sci-fi', 'space'], pageSize: 50 });
      expect(tagged.list.every((m) => m.tags.includes('sci-fi') && m.tags.includes('space'))).toBe(
        true,
      );
      const newest = await app.client().mate.search({ keyword: '', sort: 'newest', pageSize: 2 });
      expect(newest.list[0]!.name).toBe('Sir Gideon Marsh');
    },
  );

  it.skipIf(skip)(
    'finds a creator’s mates by the creator’s name, as it is now, new mates included',
    async () => {
      const search = async (keyword: string) =>
        (await app.client().mate.search({ keyword, pageSize: 50 })).list;
      const amaras = await search('Okafor');
      expect(amaras.length).toBeGreaterThan(1);
      expect(new Set(amaras.map((mate) => mate.creator.name))).toEqual(new Set(['Amara Okafor']));
      // Every one of them, as her page lists them; by a prefix and without accents too.
      const creatorId = amaras[0]!.creator.creatorId;
      const hers = await app.client().mate.creatorMates({ creatorId, pageSize: 50 });
      expect(amaras.map((mate) => mate.mateId).sort()).toEqual(
        hers.list.map((mate) => mate.mateId).sort(),
      );
      expect((await search('okaf')).map((mate) => mate.mateId).sort()).toEqual(
        hers.list.map((mate) => mate.mateId).sort(),
      );
      expect((await search('ines robles')).length).toBeGreaterThan(0);
      // A name's words with a mate's: Amara's mates that say "tea" somewhere.
      for (const mate of await search('Okafor tea')) expect(mate.creator.name).toBe('Amara Okafor');

      // A creator who renames is found by the new name, not the old; their new mate too.
      const { client } = await signUp(app);
      await client.user.updateNickname({ nickname: 'Pimbleworth Quaxley' });
      const { mateId } = await client.mate.saveMate(
        mateDraft({
          name: 'Moss the Archivist',
          description: 'Keeps the letters nobody came back for.',
          visibility: 'public',
        }),
      );
      expect((await search('Pimbleworth')).map((mate) => mate.mateId)).toEqual([mateId]);
      await client.user.updateNickname({ nickname: 'Yarrowmont Fennick' });
      expect((await search('Yarrowmont')).map((mate) => mate.mateId)).toEqual([mateId]);
      expect(await search('Pimbleworth')).toEqual([]);
    },
  );

  it.skipIf(skip)(
    'turns signed-in searches into hot words, each person counted once a day',
    async () => {
      const people = [await signUp(app), await signUp(app), await signUp(app)];
      for (const keyword of ['detective', 'Detective', 'detective', 'lyra'])
        await people[0]!.client.mate.search({ keyword });
      for (const { client } of people.slice(1)) await client.mate.search({ keyword: 'detective' });
      const words = await app.client().mate.hotWords();
      expect(words[0]).toEqual({ word: 'detective', count: 3 });
      expect(words).toContainEqual({ word: 'lyra', count: 1 });

      // Found from outside: one account searching a phrase sixty times put it first for
      // everyone. Again and again, it counts once.
      const spammer = await signUp(app);
      for (let search = 0; search < 60; search++)
        await spammer.client.mate.search({ keyword: 'Kai Tanaka' });
      expect(await app.client().mate.hotWords()).toContainEqual({ word: 'kai tanaka', count: 1 });
      expect((await app.client().mate.hotWords())[0]).toEqual({ word: 'detective', count: 3 });
    },
  );

  it.skipIf(skip)('shows a hot word as people spelt it most often, accents included', async () => {
    // Found by a new user: "séance" came back as "seance", the form only the index uses.
    const people = [await signUp(app), await signUp(app), await signUp(app)];
    await people[0]!.client.mate.search({ keyword: 'Wójcik' });
    await people[1]!.client.mate.search({ keyword: 'WÓJCIK' });
    await people[2]!.client.mate.search({ keyword: 'wojcik' });
    // The same person again the same day changes neither the count nor the spelling.
    await people[2]!.client.mate.search({ keyword: 'wojcik!' });
    await people[0]!.client.mate.search({ keyword: 'Café' });
    await people[1]!.client.mate.search({ keyword: 'cafe' });
    await people[2]!.client.mate.search({ keyword: 'cafe' });
    // A tie goes to the spelling with its accents.
    await people[0]!.client.mate.search({ keyword: 'Tomasz Wójcik' });
    await people[1]!.client.mate.search({ keyword: 'tomasz wojcik' });
    const words = await app.client().mate.hotWords();
    expect(words).toContainEqual({ word: 'wójcik', count: 3 });
    expect(words).toContainEqual({ word: 'cafe', count: 3 });
    expect(words).toContainEqual({ word: 'tomasz wójcik', count: 2 });
    expect(words.map((w) => w.word)).not.toContain('wojcik');
  });

  it.skipIf(skip)('ranks trending mates by people chatting in the last seven days', async () => {
    const bram = await mateNamed('Bram Ironvale');
    const nana = await mateNamed('Nana Okonkwo');
    const chat = (mateId: string, userId: string) =>
      app.db.transaction().execute((trx) => recordChatForTrending(trx, { mateId, userId }));
    // Five people chatted with Nana ten days ago, and never since.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() - 10 * 24 * 3600 * 1000);
    for (let user = 0; user < 5; user++) await chat(nana.id, `u${user}`);
    vi.useRealTimers();
    await chat(bram.id, 'u1');
    await chat(bram.id, 'u2');
    const rank = await app.client().mate.trendingRank();
    expect(rank).toHaveLength(10);
    expect(rank[0]).toMatchObject({ rank: 1, recentChats: 2, mate: { name: 'Bram Ironvale' } });
    expect(rank.find((r) => r.mate.name === 'Nana Okonkwo')?.recentChats ?? 0).toBe(0);
  });

  it.skipIf(skip)('toggles favorites and lists them, newest first', async () => {
    const { client } = await signUp(app);
    const lyra = await mateNamed('Lyra Moonwhisper');
    const kai = await mateNamed('Kai Tanaka');
    expect(await client.user.doFavorite({ mateId: lyra.id })).toEqual({
      mateId: lyra.id,
      favorite: true,
    });
    // Favorites are ordered by when they were made, to the millisecond: two made within one
    // (as this test can, on a fast machine) have no order. A second later, as a person would.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 1000);
    await client.user.doFavorite({ mateId: kai.id });
    vi.useRealTimers();
    expect((await client.user.favorites()).map((m) => m.name)).toEqual([
      'Kai Tanaka',
      'Lyra Moonwhisper',
    ]);
    expect((await client.mate.getMateDetail({ mateId: lyra.id })).counters.favorites).toBe(1);
    expect((await client.mate.mateExtraInfo({ mateId: lyra.id })).isFavorite).toBe(true);
    expect(await client.user.doFavorite({ mateId: lyra.id })).toEqual({
      mateId: lyra.id,
      favorite: false,
    });
    expect((await client.user.favorites()).map((m) => m.name)).toEqual(['Kai Tanaka']);
    expect((await client.mate.getMateDetail({ mateId: lyra.id })).counters.favorites).toBe(0);
    await expect(app.client().user.favorites()).rejects.toBeInstanceOf(SessionExpiredError);
    await expect(app.client().user.doFavorite({ mateId: lyra.id })).rejects.toBeInstanceOf(
      SessionExpiredError,
    );
  });

  it.skipIf(skip)('follows and unfollows creators', async () => {
    const { userInfo, client } = await signUp(app);
    const lyra = await mateNamed('Lyra Moonwhisper');
    expect(await client.mate.followCreator({ creatorId: lyra.creator_id })).toEqual({
      creatorId: lyra.creator_id,
      following: true,
    });
    const list = await client.mate.followList();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      creatorId: lyra.creator_id,
      name: 'Wren Calloway',
      followers: 1,
    });
    expect(list[0]!.mates).toBeGreaterThan(0);
    const extra = await client.mate.mateExtraInfo({ mateId: lyra.id });
    expect(extra).toMatchObject({
      isFollowingCreator: true,
      creator: { name: 'Wren Calloway', followers: 1 },
    });
    expect((await client.mate.followCreator({ creatorId: lyra.creator_id })).following).toBe(false);
    expect(await client.mate.followList()).toEqual([]);
    await expect(client.mate.followCreator({ creatorId: userInfo.uuid })).rejects.toMatchObject({
      code: 4000,
    });
    await expect(client.mate.followCreator({ creatorId: 'ghost' })).rejects.toMatchObject({
      code: 4004,
    });
  });

  it.skipIf(skip)('takes one review per user and mate, and sums them up', async () => {
    const ada = await signUp(app);
    const bob = await signUp(app);
    const theo = await mateNamed('Theo Blackwood');
    await expect(ada.client.mate.review({ mateId: theo.id, rating: 6 })).rejects.toMatchObject({
      code: 4000,
    });
    await expect(app.client().mate.review({ mateId: theo.id, rating: 5 })).rejects.toBeInstanceOf(
      SessionExpiredError,
    );
    const review = await ada.client.mate.review({
      mateId: theo.id,
      rating: 3,
      content: 'Good clues.',
    });
    expect(review).toMatchObject({
      rating: 3,
      content: 'Good clues.',
      author: { name: ada.userInfo.nickname },
    });
    await ada.client.mate.review({
      mateId: theo.id,
      rating: 5,
      content: 'Changed my mind: great.',
    });
    await bob.client.mate.review({ mateId: theo.id, rating: 4 });
    const extra = await app.client().mate.mateExtraInfo({ mateId: theo.id });
    expect(extra.reviewSummary).toEqual({ average: 4.5, count: 2, distribution: [0, 0, 0, 1, 1] });
    expect(extra.recentReviews.map((r) => r.rating)).toEqual([4, 5]);
    expect(extra.counters).toMatchObject({ reviews: 2, rating: 4.5 });
    // Nobody reaches another user's review: Bob's writes only ever touch his own.
    await bob.client.mate.review({ mateId: theo.id, rating: 1, content: 'Bob again.' });
    const rows = await app.db
      .selectFrom('reviews')
      .select(['user_id', 'rating', 'content'])
      .where('mate_id', '=', theo.id)
      .orderBy('rating')
      .execute();
    expect(rows).toEqual([
      { user_id: bob.userInfo.uuid, rating: 1, content: 'Bob again.' },
      { user_id: ada.userInfo.uuid, rating: 5, content: 'Changed my mind: great.' },
    ]);
    // Found from outside: stars alone erased the words. Absent, they stay; empty clears them.
    expect(await ada.client.mate.review({ mateId: theo.id, rating: 4 })).toMatchObject({
      rating: 4,
      content: 'Changed my mind: great.',
    });
    expect(await ada.client.mate.review({ mateId: theo.id, rating: 4, content: '' })).toMatchObject(
      { content: '' },
    );
  });

  it.skipIf(skip)(
    'takes reports about mates and feedback from anyone, validating them',
    async () => {
      const lyra = await mateNamed('Lyra Moonwhisper');
      await app
        .client()
        .mate.feedback({ mateId: lyra.id, reason: 'broken', content: 'Greeting cut off.' });
      await expect(
        app.client().mate.feedback({ mateId: 'nope', reason: 'other' }),
      ).rejects.toMatchObject({ code: 4004 });
      await expect(
        app.client().mate.feedback({ mateId: lyra.id, reason: 'because' as never }),
      ).rejects.toMatchObject({ code: 4000 });
      await app.client().user.feedback({ category: 'idea', content: 'Dark mode for the editor.' });
      await expect(
        app.client().user.feedback({ category: 'idea', content: '  ' }),
      ).rejects.toMatchObject({ code: 4000 });
      const reports = await app.db.selectFrom('mate_feedback').selectAll().execute();
      expect(reports).toHaveLength(1);
      expect(await app.db.selectFrom('user_feedback').selectAll().execute()).toHaveLength(1);
    },
  );
});

describe('routing', () => {
  it('answers unknown API paths with an envelope and other paths with the app page', async () => {
    const app = await createTestApp('sqlite');
    try {
      expect(await (await app.app.request('/api/nope')).json()).toEqual({
        c: 4004,
        m: 'There is no API call GET /api/nope.',
        d: null,
      });
      const page = await app.app.request('/user/loginDiscord?code=abc');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
    } finally {
      await app.close();
    }
  });
});
