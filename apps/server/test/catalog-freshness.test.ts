import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { recordChatForTrending } from '../src/catalog/trending-repository';
import {
  DIALECTS,
  createTestApp,
  postgresAvailable,
  signUp,
  type TestApp,
  seededMate,
  chatters,
} from './harness';

const withPostgres = await postgresAvailable();

// The catalog's answers are cached per process (catalog/catalog-cache.ts). Each test asks
// first, so that the answer is cached, then writes, then asks again: the change must show at
// once. Writes straight to the database stand for another server process sharing it.
describe.each(DIALECTS)('catalog answers after writes on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let app: TestApp;
  beforeAll(async () => {
    if (skip) return;
    app = await createTestApp(dialect);
    await chatters(app.db, ['ada', 'bob', 'cy']);
  });
  afterAll(async () => {
    if (!skip) await app.close();
  });
  const listed = async () => {
    const [recommended, tagged, found, trending] = await Promise.all([
      app.client().mate.recommend({ pageSize: 50 }),
      app.client().mate.recommend({ tags: ['fantasy'], pageSize: 50 }),
      app.client().mate.search({ keyword: '', pageSize: 50 }),
      app.client().mate.trendingRank(),
    ]);
    return {
      recommended: recommended.list.map((mate) => mate.mateId),
      tagged: tagged.list.map((mate) => mate.mateId),
      found: found.list.map((mate) => mate.mateId),
      trending: trending.map((entry) => entry.mate.mateId),
      total: recommended.total,
    };
  };

  it.skipIf(skip)('shows a new favorite in every listing and in the detail', async () => {
    const { client } = await signUp(app);
    const { id } = await seededMate(app.db, 'Lyra Moonwhisper');
    const favorites = async () => {
      const [recommended, found, detail] = await Promise.all([
        app.client().mate.recommend({ pageSize: 50 }),
        app.client().mate.search({ keyword: 'lyra' }),
        app.client().mate.getMateDetail({ mateId: id }),
      ]);
      return [
        recommended.list.find((mate) => mate.mateId === id)!.counters.favorites,
        found.list.find((mate) => mate.mateId === id)!.counters.favorites,
        detail.counters.favorites,
      ];
    };
    expect(await favorites()).toEqual([0, 0, 0]);
    await client.user.doFavorite({ mateId: id });
    expect(await favorites()).toEqual([1, 1, 1]);
  });

  it.skipIf(skip)('moves a mate up trending and its chat count with a new chat', async () => {
    const { id } = await seededMate(app.db, 'Kai Tanaka');
    const before = await app.client().mate.trendingRank();
    expect(before.find((entry) => entry.mate.mateId === id)?.recentChats ?? 0).toBe(0);
    for (const userId of ['ada', 'bob', 'cy'])
      await app.db
        .transaction()
        .execute((trx) => recordChatForTrending(trx, { mateId: id, userId }));
    const after = await app.client().mate.trendingRank();
    expect(after[0]).toMatchObject({
      recentChats: 3,
      mate: { mateId: id, counters: { chats: 3 } },
    });
    const detail = await app.client().mate.getMateDetail({ mateId: id });
    expect(detail.counters.chats).toBe(3);
  });

  it.skipIf(skip)('drops a hidden, a deleted and a private mate from every listing', async () => {
    const hidden = (await seededMate(app.db, 'Bram Ironvale')).id;
    const deleted = (await seededMate(app.db, 'Nana Okonkwo')).id;
    const made = (await seededMate(app.db, 'Lyra Moonwhisper')).id;
    const before = await listed();
    for (const id of [hidden, deleted, made]) expect(before.found).toContain(id);
    const at = new Date().toISOString();
    await app.db.updateTable('mates').set({ hidden_at: at }).where('id', '=', hidden).execute();
    await app.db.updateTable('mates').set({ deleted_at: at }).where('id', '=', deleted).execute();
    await app.db
      .updateTable('mates')
      .set({ visibility: 'private' })
      .where('id', '=', made)
      .execute();
    const after = await listed();
    expect(after.total).toBe(before.total - 3);
    for (const list of [after.recommended, after.tagged, after.found, after.trending])
      for (const id of [hidden, deleted, made]) expect(list).not.toContain(id);
    for (const id of [hidden, deleted, made])
      await expect(app.client().mate.getMateDetail({ mateId: id })).rejects.toMatchObject({
        code: 4004,
      });
    await app.db
      .updateTable('mates')
      .set({ hidden_at: null, deleted_at: null, visibility: 'public' })
      .where('id', 'in', [hidden, deleted, made])
      .execute();
    expect((await listed()).total).toBe(before.total);
  });

  it.skipIf(skip)('lists a mate made for adults only to those who opted in', async () => {
    const adult = await signUp(app);
    await adult.client.user.updateTags({ tags: [], nfsw: true });
    const { id } = await seededMate(app.db, 'Kai Tanaka');
    const seen = async () => [
      (await app.client().mate.recommend({ pageSize: 50 })).list.some((m) => m.mateId === id),
      (await adult.client.mate.recommend({ pageSize: 50 })).list.some((m) => m.mateId === id),
      (await app.client().mate.trendingRank()).some((entry) => entry.mate.mateId === id),
    ];
    expect(await seen()).toEqual([true, true, true]);
    await app.db.updateTable('mates').set({ nsfw: true }).where('id', '=', id).execute();
    expect(await seen()).toEqual([false, true, false]);
    await app.db.updateTable('mates').set({ nsfw: false }).where('id', '=', id).execute();
    expect(await seen()).toEqual([true, true, true]);
  });

  it.skipIf(skip)('counts a search in the hot words at once', async () => {
    const { client } = await signUp(app);
    const other = await signUp(app);
    const count = async () =>
      (await app.client().mate.hotWords()).find((hot) => hot.word === 'lighthouse')?.count ?? 0;
    const before = await count();
    await client.mate.search({ keyword: 'Lighthouse' });
    expect(await count()).toBe(before + 1);
    // The same person again the same day counts once; another person counts at once.
    await client.mate.search({ keyword: 'lighthouse' });
    expect(await count()).toBe(before + 1);
    await other.client.mate.search({ keyword: 'lighthouse' });
    expect(await count()).toBe(before + 2);
  });

  it.skipIf(skip)('pages without overlaps or gaps, tagged or not', async () => {
    for (const tags of [undefined, ['fantasy', 'cozy']]) {
      const first = await app.client().mate.recommend({ tags, pageSize: 7 });
      const seen: string[] = [];
      for (let page = 1; page <= Math.ceil(first.total / 7); page++) {
        const { list } = await app.client().mate.recommend({ tags, page, pageSize: 7 });
        seen.push(...list.map((mate) => mate.mateId));
      }
      expect(seen).toHaveLength(first.total);
      expect(new Set(seen).size).toBe(first.total);
    }
  });
});

describe.each(DIALECTS)('trending over several days on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let app: TestApp;
  beforeAll(async () => {
    if (skip) return;
    app = await createTestApp(dialect);
    await chatters(app.db, ['ada', 'bob', 'cy']);
  });
  afterAll(async () => {
    if (!skip) await app.close();
  });

  it.skipIf(skip)(
    'counts a user once per mate in the window, on whichever days they chatted',
    async () => {
      const { id } = await seededMate(app.db, 'Kai Tanaka');
      const chat = (userId: string, daysAgo: number) => {
        vi.useFakeTimers({ toFake: ['Date'] });
        vi.setSystemTime(Date.now() - daysAgo * 24 * 3600 * 1000);
        return app.db
          .transaction()
          .execute((trx) => recordChatForTrending(trx, { mateId: id, userId }))
          .finally(() => vi.useRealTimers());
      };
      await chat('ada', 12);
      await chat('ada', 3);
      await chat('ada', 0);
      await chat('ada', 0);
      await chat('bob', 10);
      await chat('cy', 5);
      const rank = await app.client().mate.trendingRank();
      expect(rank[0]).toMatchObject({
        recentChats: 2,
        mate: { mateId: id, counters: { chats: 3 } },
      });
    },
  );
});
