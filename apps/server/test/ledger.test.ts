import { describe, expect, it } from 'vitest';
import { ApiError, type ApiClient, type ChatStreamEvent } from '@mates/api-client';
import { DAILY_CAP_REACHED, grantBenefits, spendGoldCoins } from '../src/accounts/benefits';
import { NO_CHATS_LEFT } from '../src/chat/turn-service';
import { appendMessage } from '../src/chat/messages';
import { DIALECTS, postgresAvailable, signUp, seededMate } from './harness';
import { serverWithDouble } from './server-with-double';

// Issue #17: the benefits ledger, no balance below zero under concurrency, daily spending caps.
const withPostgres = await postgresAvailable();
const WELCOME_CHATS = 3;
const WELCOME_COINS = 12;
const VOICE_COST = 5;

describe.each(DIALECTS)('the benefits ledger on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const suite = serverWithDouble(dialect, {
    skip,
    env: {
      WELCOME_CHATS: String(WELCOME_CHATS),
      WELCOME_GOLD_COINS: String(WELCOME_COINS),
      SPEECH_COST: String(VOICE_COST),
    },
  });

  const kai = () => seededMate(suite.server.db, 'Kai Tanaka');
  const newRoom = async (client: ApiClient) =>
    (await client.room.createRoom({ mateId: (await kai()).id })).roomId;
  const send = async (client: ApiClient, roomId: string) => {
    const events: ChatStreamEvent[] = [];
    await client.girl.chatSend({ roomId, content: 'Hi' }, { onData: (e) => events.push(e) });
    return events;
  };
  const ledgerRows = (userId: string) =>
    suite.server.db
      .selectFrom('benefit_ledger')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  /** Takes a new user's balances down to `chats` and `goldCoins`, as an operator would. */
  const leave = (userId: string, chats: number, goldCoins: number) =>
    grantBenefits(
      suite.server.db,
      userId,
      { chats: chats - WELCOME_CHATS, goldCoins: goldCoins - WELCOME_COINS },
      { kind: 'adjustment', reason: { text: 'test: down to the last' }, reference: null },
    );
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'answered',
      (error: unknown) =>
        ApiError.isInstance(error) ? `${error.code} ${error.message}` : String(error),
    );

  it.skipIf(skip)(
    'records the welcome grant and each chat spend, newest first, paged',
    async () => {
      const { userInfo, client } = await signUp(suite.server);
      const roomId = await newRoom(client);
      await send(client, roomId);
      const reply = await suite.server.db
        .selectFrom('messages')
        .select('id')
        .where('room_id', '=', roomId)
        .where('role', '=', 'mate')
        .orderBy('position', 'desc')
        .executeTakeFirstOrThrow();
      const page = await client.user.ledger({ page: 1, pageSize: 1 });
      expect(page).toMatchObject({ page: 1, pageSize: 1, total: 2, hasMore: true });
      expect(page.list).toEqual([
        {
          entryId: expect.any(String),
          kind: 'spend',
          chats: -1,
          goldCoins: 0,
          reason: 'chat',
          reference: { type: 'message', id: reply.id, roomId },
          balance: { chats: WELCOME_CHATS - 1, goldCoins: WELCOME_COINS },
          createdAt: expect.any(String),
        },
      ]);
      const second = await client.user.ledger({ page: 2, pageSize: 1 });
      expect(second.hasMore).toBe(false);
      expect(second.list).toEqual([
        expect.objectContaining({
          kind: 'grant',
          reason: 'welcome',
          chats: WELCOME_CHATS,
          goldCoins: WELCOME_COINS,
          reference: null,
          balance: { chats: WELCOME_CHATS, goldCoins: WELCOME_COINS },
        }),
      ]);
      expect(Number(second.list[0]!.entryId)).toBeLessThan(Number(page.list[0]!.entryId));
      // Only the caller's rows, and only for a signed-in caller.
      const other = await signUp(suite.server);
      expect((await other.client.user.ledger()).list.map((e) => e.reason)).toEqual(['welcome']);
      expect(await refusal(suite.server.client().user.ledger())).toBe('5002 login expired');
      expect(await refusal(client.user.ledger({ page: 0 } as never))).toMatch(/^4000 /);
      expect((await ledgerRows(userInfo.uuid)).length).toBe(2);
    },
  );

  it.skipIf(skip)('lets exactly one of 10 parallel spends take the last coin', async () => {
    const { userInfo } = await signUp(suite.server);
    await leave(userInfo.uuid, 0, 1);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        suite.server.db.transaction().execute((trx) =>
          spendGoldCoins(trx, userInfo.uuid, 1, {
            reason: { text: 'test spend' },
            reference: null,
          }),
        ),
      ),
    );
    expect(results.filter((r) => r === 'spent')).toHaveLength(1);
    expect(results.filter((r) => r === 'short')).toHaveLength(9);
    const balance = await suite.server.client({ token: userInfo.token }).user.benefits();
    expect(balance.goldCoins).toBe(0);
    const spends = (await ledgerRows(userInfo.uuid)).filter((r) => r.kind === 'spend');
    expect(spends).toMatchObject([{ gold_coins_delta: -1, gold_coins_after: 0 }]);
  });

  it.skipIf(skip)('answers exactly one of 10 parallel sends for the last chat', async () => {
    const { userInfo, client } = await signUp(suite.server);
    await leave(userInfo.uuid, 1, 0);
    const rooms = [];
    for (let i = 0; i < 10; i += 1) rooms.push(await newRoom(client));
    const outcomes = await Promise.all(rooms.map((roomId) => refusal(send(client, roomId))));
    expect(outcomes.filter((o) => o === 'answered')).toHaveLength(1);
    expect(outcomes.filter((o) => o === `5007 ${NO_CHATS_LEFT}`)).toHaveLength(9);
    expect((await client.user.benefits()).chats).toBe(0);
    const spends = (await ledgerRows(userInfo.uuid)).filter((r) => r.kind === 'spend');
    expect(spends).toMatchObject([{ chats_delta: -1, chats_after: 0, reason: 'chat' }]);
    // The refused sends wrote nothing: one room has the user's message, nine only a greeting.
    const userMessages = await suite.server.db
      .selectFrom('messages')
      .select('room_id')
      .where('room_id', 'in', rooms)
      .where('role', '=', 'user')
      .execute();
    expect(userMessages).toHaveLength(1);
  });

  it.skipIf(skip)('refuses bad caps with 4000 and changes nothing', async () => {
    const { client } = await signUp(suite.server);
    await client.user.setSpendingCap({ dailyChats: 2, dailyGoldCoins: null });
    for (const bad of [
      { dailyChats: -1, dailyGoldCoins: null },
      { dailyChats: 1.5, dailyGoldCoins: null },
      { dailyChats: null, dailyGoldCoins: 1_000_001 },
      { dailyChats: '3', dailyGoldCoins: null },
      { dailyChats: 3 },
    ])
      expect(await refusal(client.user.setSpendingCap(bad as never))).toMatch(/^4000 /);
    expect(await client.user.spendingCap()).toEqual({
      dailyChats: 2,
      dailyGoldCoins: null,
      spentToday: { chats: 0, goldCoins: 0 },
    });
    expect(
      await refusal(
        suite.server.client().user.setSpendingCap({ dailyChats: 1, dailyGoldCoins: 1 }),
      ),
    ).toBe('5002 login expired');
  });

  it.skipIf(skip)('holds a gold-coin cap on voice: 5 passes, the next is refused', async () => {
    const { userInfo, client } = await signUp(suite.server);
    expect(
      await client.user.setSpendingCap({ dailyChats: null, dailyGoldCoins: VOICE_COST }),
    ).toEqual({ dailyChats: null, dailyGoldCoins: 5, spentToday: { chats: 0, goldCoins: 0 } });
    const roomId = await newRoom(client);
    const said = async (content: string) =>
      (await appendMessage(suite.server.db, roomId, { role: 'mate', content, status: 'complete' }))
        .id;
    const first = await said('The first line, heard aloud.');
    await client.speech.link({ messageId: first });
    expect(await client.user.spendingCap()).toMatchObject({
      spentToday: { chats: 0, goldCoins: VOICE_COST },
    });
    const second = await said('The second line, not heard today.');
    expect(await refusal(client.speech.link({ messageId: second }))).toBe(
      `5007 ${DAILY_CAP_REACHED}`,
    );
    expect((await client.user.benefits()).goldCoins).toBe(WELCOME_COINS - VOICE_COST);
    expect((await ledgerRows(userInfo.uuid)).map((r) => [r.kind, r.reference_id])).toEqual([
      ['grant', null],
      ['spend', first],
    ]);
    const clips = await suite.server.db
      .selectFrom('speech_clips')
      .select('message_id')
      .where('user_id', '=', userInfo.uuid)
      .execute();
    expect(clips).toEqual([{ message_id: first }]);
    // Raised, it passes.
    await client.user.setSpendingCap({ dailyChats: null, dailyGoldCoins: 10 });
    await client.speech.link({ messageId: second });
    expect((await client.user.benefits()).goldCoins).toBe(WELCOME_COINS - 2 * VOICE_COST);
  });

  it.skipIf(skip)('holds a chat cap on /girl/chat/send, refunds taken off', async () => {
    const { userInfo, client } = await signUp(suite.server);
    await client.user.setSpendingCap({ dailyChats: 1, dailyGoldCoins: null });
    const roomId = await newRoom(client);
    // A reply that fails before a word gives its chat back: it no longer counts today.
    suite.double.next({ kind: 'status', status: 500, body: { error: { message: 'boom' } } });
    await send(client, roomId);
    expect(await client.user.spendingCap()).toMatchObject({ spentToday: { chats: 0 } });
    await send(client, roomId);
    expect(await client.user.spendingCap()).toMatchObject({ spentToday: { chats: 1 } });
    const before = await suite.server.db
      .selectFrom('messages')
      .select('id')
      .where('room_id', '=', roomId)
      .execute();
    expect(await refusal(send(client, roomId))).toBe(`5007 ${DAILY_CAP_REACHED}`);
    const after = await suite.server.db
      .selectFrom('messages')
      .select('id')
      .where('room_id', '=', roomId)
      .execute();
    expect(after).toEqual(before);
    expect((await client.user.benefits()).chats).toBe(WELCOME_CHATS - 1);
    expect((await ledgerRows(userInfo.uuid)).map((r) => [r.kind, r.reason])).toEqual([
      ['grant', 'welcome'],
      ['spend', 'chat'],
      ['refund', 'refund: no reply'],
      ['spend', 'chat'],
    ]);
  });
});
