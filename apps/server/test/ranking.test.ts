import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordChatForTrending } from '../src/catalog/trending-repository';
import { countChat } from '../src/chat/turn-repository';
import { dayOf } from '../src/catalog/hot-word-repository';
import {
  DIALECTS,
  createTestApp,
  mateRow,
  postgresAvailable,
  signUp,
  type TestApp,
  chatters,
} from './harness';

const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('rankings resist manipulation on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let app: TestApp;
  beforeEach(async () => {
    if (skip) return;
    app = await createTestApp(dialect);
    await chatters(app.db, ['ada', 'bob', 'carl', 'dan', 'spammer']);
  });
  afterEach(async () => {
    if (!skip) await app.close();
  });

  async function ownMate(owner: { userInfo: { uuid: string } }, id: string) {
    await app.db
      .insertInto('mates')
      .values(mateRow(owner.userInfo.uuid, { id, name: `Pushed ${id}` }))
      .execute();
    return id;
  }

  it.skipIf(skip)(
    '200 empty rooms move a mate neither up trending nor its chat count',
    async () => {
      const pusher = await signUp(app);
      const mateId = await ownMate(pusher, 'pushed-by-rooms');
      // Newer, and nobody opened a room with it: it leads every tie.
      const control = await ownMate(pusher, 'control');
      for (let room = 0; room < 200; room++) await pusher.client.room.createRoom({ mateId });
      const rank = await app.client().mate.trendingRank();
      expect(rank.slice(0, 2).map((entry) => entry.mate.mateId)).toEqual([control, mateId]);
      expect(rank[1]!.recentChats).toBe(0);
      expect((await app.client().mate.getMateDetail({ mateId })).counters.chats).toBe(0);
    },
  );

  it.skipIf(skip)('counts a mate once per user who chatted with it', async () => {
    const author = await signUp(app);
    const many = await ownMate(author, 'one-user-many-messages');
    const liked = await ownMate(author, 'liked-by-two');
    await app.db.transaction().execute(async (trx) => {
      for (let message = 0; message < 5; message++)
        await recordChatForTrending(trx, { mateId: many, userId: 'spammer' });
      await recordChatForTrending(trx, { mateId: liked, userId: 'ada' });
      await recordChatForTrending(trx, { mateId: liked, userId: 'bob' });
    });
    const rank = await app.client().mate.trendingRank();
    expect(rank[0]).toMatchObject({ rank: 1, recentChats: 2, mate: { mateId: liked } });
    expect(rank[1]).toMatchObject({ rank: 2, recentChats: 1, mate: { mateId: many } });
    expect((await app.client().mate.getMateDetail({ mateId: many })).counters.chats).toBe(1);
    expect((await app.client().mate.getMateDetail({ mateId: liked })).counters.chats).toBe(2);
  });

  it.skipIf(skip)('counts chats asked for together as it counts them one at a time', async () => {
    const author = await signUp(app);
    const mateId = await ownMate(author, 'chatted-in-a-batch');
    await countChat(app.db, { mateId, userId: 'ada' });
    // Dan chatted with another mate yesterday: counted then, to be moved to today.
    const other = await ownMate(author, 'chatted-yesterday');
    await countChat(app.db, { mateId: other, userId: 'dan' });
    const today = dayOf(Date.now());
    const yesterday = dayOf(Date.now() - 24 * 60 * 60 * 1000);
    await app.db
      .updateTable('mate_chatters')
      .set({ last_day: yesterday })
      .where('mate_id', '=', other)
      .execute();
    await app.db
      .updateTable('mate_trend_days')
      .set({ day: yesterday })
      .where('mate_id', '=', other)
      .execute();
    // One batch: ada again (counted today already), bob and carl for the first time, twice,
    // and dan again.
    await Promise.all([
      ...['ada', 'bob', 'ada', 'carl', 'carl'].map((userId) =>
        countChat(app.db, { mateId, userId }),
      ),
      countChat(app.db, { mateId: other, userId: 'dan' }),
    ]);
    const dan = await app.db
      .selectFrom('mate_chatters')
      .select('last_day')
      .where('mate_id', '=', other)
      .executeTakeFirstOrThrow();
    expect(dan.last_day).toBe(today);
    const days = await app.db
      .selectFrom('mate_trend_days')
      .select(['day', 'users'])
      .where('mate_id', '=', other)
      .orderBy('day')
      .execute();
    expect(days.map((row) => [row.day, Number(row.users)])).toEqual([
      [yesterday, 0],
      [today, 1],
    ]);
    const rank = await app.client().mate.trendingRank();
    expect(rank[0]).toMatchObject({ recentChats: 3, mate: { mateId } });
    expect((await app.client().mate.getMateDetail({ mateId })).counters.chats).toBe(3);
    const mate = await app.db
      .selectFrom('mates')
      .select('messages_count')
      .where('id', '=', mateId)
      .executeTakeFirstOrThrow();
    expect(Number(mate.messages_count)).toBe(6);
  });

  it.skipIf(skip)('does not let creators review their own mates', async () => {
    const author = await signUp(app);
    const mateId = await ownMate(author, 'self-reviewed');
    await expect(author.client.mate.review({ mateId, rating: 5 })).rejects.toMatchObject({
      code: 4003,
      message: 'You cannot review your own mate.',
    });
    const detail = await app.client().mate.getMateDetail({ mateId });
    expect(detail.counters).toMatchObject({ reviews: 0, rating: null });
  });

  it.skipIf(skip)(
    'takes hot words only from signed-in searches that found something, and forgets old ones',
    async () => {
      const { client } = await signUp(app);
      const old = new Date(Date.now() - 30 * 24 * 3600 * 1000).toISOString();
      await app.db.insertInto('search_log').values({ word: 'ancient', created_at: old }).execute();
      for (let search = 0; search < 5; search++) {
        await app.client().mate.search({ keyword: 'vampire' });
        await client.mate.search({ keyword: 'qqqnothingmatches' });
      }
      await client.mate.search({ keyword: 'detective' });
      expect(await app.client().mate.hotWords()).toEqual([{ word: 'detective', count: 1 }]);
      const words = await app.db.selectFrom('search_log').select('word').execute();
      expect(words.map((row) => row.word)).toEqual(['detective']);
    },
  );
});
