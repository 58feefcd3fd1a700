import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordChatForTrending } from '../src/catalog/trending-repository';
import {
  SessionExpiredError,
  type ApiClient,
  type MateSummary,
  type Paged,
  type SaveMatePayload,
} from '@mates/api-client';
import type { ChatTurn, LanguageModel } from '../src/llm/language-model';
import { isAdmin } from '../src/accounts/user-info';
import {
  DIALECTS,
  postgresAvailable,
  signUp,
  startTestServer,
  unconfiguredModel,
  seededMate,
} from './harness';

// Issue #14: reports reach a queue that administrators (ADMIN_EMAILS) work through; a hidden
// mate vanishes for everyone but its creator, who is told why.
const withPostgres = await postgresAvailable();

const ADMIN = 'Moderator.One@Example.com';

/** A model that always answers with three suggestions, and keeps what it was asked. */
function answeringModel(): LanguageModel & { prompts: ChatTurn[][] } {
  const prompts: ChatTurn[][] = [];
  return {
    ...unconfiguredModel(),
    unavailableReason: () => null,
    prompts,
    async generate(turns, _options, onText) {
      prompts.push(turns);
      onText(JSON.stringify({ suggestions: ['one', 'two', 'three'] }));
      return { finishReason: 'stop', promptTokens: 1, completionTokens: 1 };
    },
  };
}

/** Every id a paged listing answers, page after page. */
async function allIds(pageOf: (page: number) => Promise<Paged<MateSummary>>) {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const answer = await pageOf(page);
    ids.push(...answer.list.map((mate) => mate.mateId));
    if (!answer.hasMore) return ids;
  }
}

describe.each(DIALECTS)('the moderation queue on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let model: ReturnType<typeof answeringModel>;
  let admin: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    if (skip) return;
    model = answeringModel();
    server = await startTestServer(dialect, {
      model,
      env: { ADMIN_EMAILS: ` ${ADMIN} , second.admin@example.com` },
    });
    admin = await signUp(server, ADMIN.toLowerCase());
  });
  afterAll(async () => {
    if (!skip) await server.close();
  });

  const seeded = async (name: string) => (await seededMate(server.db, name)).id;

  const draft = (name: string): SaveMatePayload => ({
    name,
    tagline: 'Keeps the old canal maps.',
    description: '{{char}} charts the canals nobody uses any more.',
    personality: 'patient',
    scenario: '{{user}} is lost in the fog.',
    first_mes: 'Mind the lock, {{user}}.',
    mes_example: '',
    creator_notes: '',
    system_prompt: '',
    alternate_greetings: [],
    tags: ['fantasy'],
    gender: 'male',
    nsfw: false,
    visibility: 'public',
  });

  const openQueue = async (client: ApiClient = admin.client) => {
    const rows = [];
    for (let page = 1; ; page++) {
      const answer = await client.admin.reports({ state: 'open', page });
      rows.push(...answer.list);
      if (!answer.hasMore) return rows;
    }
  };

  it.skipIf(skip)('tells who administers, from ADMIN_EMAILS, without case', async () => {
    expect(admin.userInfo.isAdmin).toBe(true);
    const login = await server
      .client()
      .user.login({ email: 'MODERATOR.one@example.com', password: 'correct horse' });
    expect(login.isAdmin).toBe(true);
    const someone = await signUp(server);
    expect(someone.userInfo.isAdmin).toBe(false);
    const row = await server.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', admin.userInfo.uuid)
      .executeTakeFirstOrThrow();
    // An address someone signed up with but never confirmed grants nothing.
    const admins = server.deps.config.adminEmails;
    expect(isAdmin({ ...row, email_verified_at: null }, admins)).toBe(false);
    expect(isAdmin({ ...row, email: 'Second.Admin@example.com' }, admins)).toBe(true);
    expect(isAdmin(null, admins)).toBe(false);
  });

  it.skipIf(skip)('answers 5002 to visitors and 4003 to others, changing nothing', async () => {
    const kai = await seeded('Kai Tanaka');
    const reporter = await signUp(server);
    await reporter.client.mate.feedback({ mateId: kai, reason: 'broken', content: 'Loops.' });
    const visitor = server.client();
    const calls = (client: ApiClient) => [
      () => client.admin.reports({ state: 'open' }),
      () => client.admin.hideMate({ mateId: kai, reason: 'broken' }),
      () => client.admin.restoreMate({ mateId: kai }),
      () => client.admin.dismissReports({ mateId: kai }),
    ];
    for (const call of calls(visitor))
      await expect(call()).rejects.toBeInstanceOf(SessionExpiredError);
    for (const call of calls(reporter.client))
      await expect(call()).rejects.toMatchObject({ code: 4003 });
    // Even bad input from a non-administrator is a 4003, not a hint about the input.
    await expect(
      reporter.client.admin.hideMate({ mateId: '', reason: 'nope' as never }),
    ).rejects.toMatchObject({ code: 4003 });
    const mate = await server.db
      .selectFrom('mates')
      .select(['hidden_at'])
      .where('id', '=', kai)
      .executeTakeFirstOrThrow();
    expect(mate.hidden_at).toBeNull();
    const open = await server.db
      .selectFrom('mate_feedback')
      .select(['closed_at'])
      .where('mate_id', '=', kai)
      .execute();
    expect(open.map((row) => row.closed_at)).toEqual([null]);
    expect((await visitor.mate.getMateDetail({ mateId: kai })).name).toBe('Kai Tanaka');
    await admin.client.admin.dismissReports({ mateId: kai });
  });

  it.skipIf(skip)('refuses unknown mates and bad input with clear errors', async () => {
    for (const call of [
      () => admin.client.admin.hideMate({ mateId: 'no-such-mate', reason: 'copyright' }),
      () => admin.client.admin.restoreMate({ mateId: 'no-such-mate' }),
      () => admin.client.admin.dismissReports({ mateId: 'no-such-mate' }),
    ])
      await expect(call()).rejects.toMatchObject({ code: 4004 });
    const lyra = await seeded('Lyra Moonwhisper');
    await expect(
      admin.client.admin.hideMate({ mateId: lyra, reason: 'rude' as never }),
    ).rejects.toMatchObject({ code: 4000, message: expect.stringContaining('reason') });
    await expect(
      admin.client.admin.hideMate({ mateId: lyra, reason: 'copyright', note: 'x'.repeat(2001) }),
    ).rejects.toMatchObject({ code: 4000, message: expect.stringContaining('note') });
    await expect(admin.client.admin.reports({ state: 'closed' as never })).rejects.toMatchObject({
      code: 4000,
      message: expect.stringContaining('state'),
    });
    const mate = await server.db
      .selectFrom('mates')
      .select('hidden_at')
      .where('id', '=', lyra)
      .executeTakeFirstOrThrow();
    expect(mate.hidden_at).toBeNull();
  });

  it.skipIf(skip)(
    'dismissing closes the reports; a later report puts the mate back in the queue',
    async () => {
      const lyra = await seeded('Lyra Moonwhisper');
      const reporter = await signUp(server);
      await reporter.client.mate.feedback({ mateId: lyra, reason: 'copyright', content: 'Ads.' });
      expect((await openQueue()).find((row) => row.mate.mateId === lyra)).toMatchObject({
        openReports: 1,
        reports: [
          { reason: 'copyright', content: 'Ads.', reporter: { creatorId: reporter.userInfo.uuid } },
        ],
      });
      await admin.client.admin.dismissReports({ mateId: lyra });
      expect((await openQueue()).map((row) => row.mate.mateId)).not.toContain(lyra);
      const closed = await server.db
        .selectFrom('mate_feedback')
        .select(['outcome', 'closed_by'])
        .where('mate_id', '=', lyra)
        .execute();
      expect(closed).toEqual([{ outcome: 'dismissed', closed_by: admin.userInfo.uuid }]);
      // Still shown to everyone.
      expect((await server.client().mate.getMateDetail({ mateId: lyra })).moderation).toBeNull();

      await server.client().mate.feedback({ mateId: lyra, reason: 'broken' });
      const again = (await openQueue()).find((row) => row.mate.mateId === lyra)!;
      expect(again).toMatchObject({
        openReports: 1,
        reports: [{ reason: 'broken', content: '', reporter: null }],
      });
      expect(again.lastReportedAt).toBe(again.reports[0]!.createdAt);
      await admin.client.admin.dismissReports({ mateId: lyra });
    },
  );

  it.skipIf(skip)(
    'lists the most recently reported first, page by page, leaving out deleted mates',
    async () => {
      const creator = await signUp(server);
      const first = await creator.client.mate.saveMate(draft('Ordering One'));
      const second = await creator.client.mate.saveMate(draft('Ordering Two'));
      const gone = await creator.client.mate.saveMate(draft('Ordering Gone'));
      const reporter = await signUp(server);
      // Signed out: a signed-in reporter has one open report per mate.
      for (let i = 0; i < 22; i++)
        await server.client().mate.feedback({
          mateId: first.mateId,
          reason: 'copyright',
          content: `#${i}`,
        });
      await reporter.client.mate.feedback({ mateId: gone.mateId, reason: 'copyright' });
      await reporter.client.mate.feedback({ mateId: second.mateId, reason: 'underage' });
      // Deleted by its creator (the row stays for other people's rooms).
      await server.db
        .updateTable('mates')
        .set({ deleted_at: new Date().toISOString() })
        .where('id', '=', gone.mateId)
        .execute();

      const page1 = await admin.client.admin.reports({ pageSize: 1 });
      expect(page1).toMatchObject({ page: 1, pageSize: 1, hasMore: true });
      expect(page1.list[0]!.mate.mateId).toBe(second.mateId);
      const page2 = await admin.client.admin.reports({ state: 'open', pageSize: 1, page: 2 });
      expect(page2.list[0]).toMatchObject({
        mate: {
          mateId: first.mateId,
          name: 'Ordering One',
          visibility: 'public',
          moderation: null,
        },
        openReports: 22,
      });
      // At most 20 reports a row, newest first.
      expect(page2.list[0]!.reports.map((report) => report.content)).toEqual(
        Array.from({ length: 20 }, (_, i) => `#${21 - i}`),
      );
      const all = await openQueue();
      expect(all.map((row) => row.mate.mateId)).not.toContain(gone.mateId);
      expect(page1.total).toBe(all.length);
      const times = all.map((row) => row.lastReportedAt!);
      expect([...times].sort().reverse()).toEqual(times);
      for (const mate of [first, second])
        await admin.client.admin.dismissReports({ mateId: mate.mateId });
    },
  );

  it.skipIf(skip)(
    'a reported mate, hidden: gone for others, its creator told why; restored: back',
    async () => {
      const creator = await signUp(server);
      const mate = await creator.client.mate.saveMate(draft('Quillon Marsh'));
      const reader = await signUp(server);
      const visitor = server.client();
      await reader.client.user.doFavorite({ mateId: mate.mateId });
      const room = await reader.client.room.createRoom({ mateId: mate.mateId });
      // Two people chatted with it lately: it trends.
      for (const user of [reader, creator])
        await server.db
          .transaction()
          .execute((trx) =>
            recordChatForTrending(trx, { mateId: mate.mateId, userId: user.userInfo.uuid }),
          );

      /** Whether `client` finds the mate in discovery, search, trending and favorites. */
      const seenBy = async (client: ApiClient, signedIn: boolean) => ({
        recommend: (await allIds((page) => client.mate.recommend({ page, pageSize: 50 }))).includes(
          mate.mateId,
        ),
        category: (
          await allIds((page) => client.mate.recommend({ tags: ['fantasy'], page, pageSize: 50 }))
        ).includes(mate.mateId),
        search: (await client.mate.search({ keyword: 'quillon' })).list.some(
          (found) => found.mateId === mate.mateId,
        ),
        trending: (await client.mate.trendingRank()).some(
          (entry) => entry.mate.mateId === mate.mateId,
        ),
        favorites: signedIn
          ? (await client.user.favorites()).some((found) => found.mateId === mate.mateId)
          : false,
      });
      const everywhere = { recommend: true, category: true, search: true, trending: true };
      expect(await seenBy(reader.client, true)).toEqual({ ...everywhere, favorites: true });
      expect(await seenBy(visitor, false)).toEqual({ ...everywhere, favorites: false });
      const creatorCount = async () =>
        (await creator.client.mate.mateExtraInfo({ mateId: mate.mateId })).creator.mates;
      expect(await creatorCount()).toBe(1);

      await reader.client.mate.feedback({
        mateId: mate.mateId,
        reason: 'inappropriate',
        content: 'Insults in the greeting.',
      });
      const row = (await openQueue()).find((entry) => entry.mate.mateId === mate.mateId)!;
      expect(row).toMatchObject({
        mate: { name: 'Quillon Marsh', creator: { creatorId: creator.userInfo.uuid } },
        openReports: 1,
        reports: [
          {
            reason: 'inappropriate',
            content: 'Insults in the greeting.',
            reporter: { creatorId: reader.userInfo.uuid, name: reader.userInfo.nickname },
          },
        ],
      });

      const moderation = await admin.client.admin.hideMate({
        mateId: mate.mateId,
        reason: 'inappropriate',
        note: 'Please rewrite the greeting without insults.',
      });
      expect(moderation).toMatchObject({
        reason: 'inappropriate',
        note: 'Please rewrite the greeting without insults.',
      });
      expect(Date.parse(moderation.hiddenAt)).not.toBeNaN();
      expect((await openQueue()).map((entry) => entry.mate.mateId)).not.toContain(mate.mateId);
      const hidden = await admin.client.admin.reports({ state: 'hidden' });
      expect(hidden.list.find((entry) => entry.mate.mateId === mate.mateId)).toMatchObject({
        mate: { moderation },
        openReports: 0,
        reports: [],
        lastReportedAt: row.lastReportedAt,
      });
      const reports = await server.db
        .selectFrom('mate_feedback')
        .select(['outcome', 'closed_by'])
        .where('mate_id', '=', mate.mateId)
        .execute();
      expect(reports).toEqual([{ outcome: 'hidden', closed_by: admin.userInfo.uuid }]);

      // Gone for everyone else.
      const nowhere = { recommend: false, category: false, search: false, trending: false };
      expect(await seenBy(reader.client, true)).toEqual({ ...nowhere, favorites: false });
      expect(await seenBy(visitor, false)).toEqual({ ...nowhere, favorites: false });
      for (const client of [reader.client, visitor]) {
        await expect(client.mate.getMateDetail({ mateId: mate.mateId })).rejects.toMatchObject({
          code: 4004,
        });
        await expect(client.mate.mateExtraInfo({ mateId: mate.mateId })).rejects.toMatchObject({
          code: 4004,
        });
      }
      await expect(reader.client.room.createRoom({ mateId: mate.mateId })).rejects.toMatchObject({
        code: 4004,
      });
      await expect(reader.client.user.doFavorite({ mateId: mate.mateId })).rejects.toMatchObject({
        code: 4004,
      });
      expect(await creatorCount()).toBe(0);
      // The reader's room stays readable, with its messages, and takes no new turn.
      const info = await reader.client.room.roomInfo({ roomId: room.roomId });
      expect(info.readOnly).toBe(
        'This mate is no longer available. You can read this chat, but not continue it.',
      );
      expect(info.messages.map((message) => message.content)).toEqual([
        `Mind the lock, ${reader.userInfo.nickname}.`,
      ]);
      expect(info.mate).toMatchObject({ name: 'Quillon Marsh', first_mes: '', moderation: null });
      const asked = model.prompts.length;
      await expect(
        reader.client.girl.chatSend(
          { roomId: room.roomId, content: 'Hello?' },
          { onData: () => {} },
        ),
      ).rejects.toMatchObject({ code: 5007 });
      await expect(
        reader.client.girl.chatGetInspiration({ roomId: room.roomId }),
      ).rejects.toMatchObject({ code: 5007 });
      expect(model.prompts.length).toBe(asked);
      const listed = (await reader.client.room.roomList()).list.find(
        (entry) => entry.roomId === room.roomId,
      )!;
      expect(listed.mate).toMatchObject({ name: 'Quillon Marsh', tagline: '', avatar: '' });

      // Its creator still opens, edits and chats with it, and is told why it is hidden.
      const own = await creator.client.mate.getMateDetail({ mateId: mate.mateId });
      expect(own.moderation).toEqual(moderation);
      const edited = await creator.client.mate.saveMate({
        ...draft('Quillon Marsh'),
        mateId: mate.mateId,
        first_mes: 'Mind the lock, friend.',
      });
      expect(edited).toMatchObject({ first_mes: 'Mind the lock, friend.', moderation });
      const ownRoom = await creator.client.room.createRoom({ mateId: mate.mateId });
      await creator.client.girl.chatSend(
        { roomId: ownRoom.roomId, content: 'Still there?' },
        { onData: () => {} },
      );
      const ownInfo = await creator.client.room.roomInfo({ roomId: ownRoom.roomId });
      expect(ownInfo.readOnly).toBeNull();
      expect(ownInfo.mate.moderation).toEqual(moderation);
      expect(ownInfo.messages.map((message) => message.role)).toEqual(['mate', 'user', 'mate']);
      // Administrators open it too, with the reason; others never learn it.
      expect((await admin.client.mate.getMateDetail({ mateId: mate.mateId })).moderation).toEqual(
        moderation,
      );
      // Reports of a hidden mate cannot be sent by others (it answers like an unknown one).
      await expect(
        reader.client.mate.feedback({ mateId: mate.mateId, reason: 'copyright' }),
      ).rejects.toMatchObject({ code: 4004 });

      await admin.client.admin.restoreMate({ mateId: mate.mateId });
      expect(await seenBy(reader.client, true)).toEqual({ ...everywhere, favorites: true });
      expect(await seenBy(visitor, false)).toEqual({ ...everywhere, favorites: false });
      expect(
        (await creator.client.mate.getMateDetail({ mateId: mate.mateId })).moderation,
      ).toBeNull();
      expect((await reader.client.room.roomInfo({ roomId: room.roomId })).readOnly).toBeNull();
      expect(await creatorCount()).toBe(1);
      expect(
        (await admin.client.admin.reports({ state: 'hidden' })).list.map(
          (entry) => entry.mate.mateId,
        ),
      ).not.toContain(mate.mateId);
      const restored = await server.db
        .selectFrom('mates')
        .select(['hidden_at', 'hidden_reason', 'hidden_note', 'hidden_by'])
        .where('id', '=', mate.mateId)
        .executeTakeFirstOrThrow();
      expect(restored).toEqual({
        hidden_at: null,
        hidden_reason: null,
        hidden_note: '',
        hidden_by: null,
      });
    },
  );
});
