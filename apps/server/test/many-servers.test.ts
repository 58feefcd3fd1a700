import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import {
  afterAll,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  onTestFailed,
  onTestFinished,
} from 'vitest';
import { Redis } from 'ioredis';
import { createApiClient, type ApiClient, type ChatStreamEvent } from '@mates/api-client';
import { emptyDatabase, linkIn, postgresAvailable, seededMate } from './harness';
import { killHard, waitFor } from './jobs-helpers';
import { startOpenAiDouble } from './openai-double';
import { startRoundRobinProxy } from './round-robin-proxy';
import { startMainProcess } from './main-process';
import { REDIS_TEST_URL, redisAvailable } from './redis-helpers';

// Issue #18, many servers: three server processes on one PostgreSQL and one Redis, behind a
// round-robin proxy, act as one: an account made on one is verified on another and chats on a
// third; limits, busy rooms and stop requests hold across them; a server killed mid-reply
// leaves its partial reply saved and its room free once the lock expires.
const ready = (await postgresAvailable()) && (await redisAvailable());
const PORTS = [27201, 27202, 27203];
/** Seconds a dead server's room stays locked: short, so that the test sees it expire. */
const LOCK_TTL = 4;
const BUSY = 'A reply is still being written in this room.';

type Events = { events: ChatStreamEvent[]; failure: unknown; text: string };

/** Sends a chat message and collects the stream; `onEvent` sees each event as it comes. */
async function chat(
  client: ApiClient,
  roomId: string,
  content: string,
  onEvent?: (event: ChatStreamEvent) => void,
): Promise<Events> {
  const events: ChatStreamEvent[] = [];
  let failure: unknown = null;
  await client.girl
    .chatSend({ roomId, content }, { onData: (event) => (events.push(event), onEvent?.(event)) })
    .catch((error: unknown) => (failure = error));
  const text = events.flatMap((e) => (e.type === 'reply-delta' ? [e.text] : [])).join('');
  return { events, failure, text };
}

/** Undoes quoted-printable (soft line breaks, `=3D`) in a written `.eml`. */
function mailText(eml: string): string {
  return eml
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

// Each part waits on three processes sharing two cores: more time than a test in one process.
describe.skipIf(!ready)('three servers on one PostgreSQL and Redis', { timeout: 60_000 }, () => {
  const prefix = `mates-test-${randomBytes(4).toString('hex')}:`;
  const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-many-outbox-'));
  const dataDirs: string[] = [];
  const output: string[][] = [[], [], []];
  const children: ChildProcess[] = [];
  let database: Awaited<ReturnType<typeof emptyDatabase>>;
  let double: Awaited<ReturnType<typeof startOpenAiDouble>>;
  let proxy: Awaited<ReturnType<typeof startRoundRobinProxy>>;
  let redis: Redis;
  const direct = PORTS.map((port) => `http://127.0.0.1:${port}`);
  const client = (base: string, token = '') =>
    createApiClient({ baseUrl: `${base}/api`, getToken: () => token, getLanguage: () => 'en' });
  /** The account every part uses: made in the first. */
  const account = { email: `many-${randomBytes(3).toString('hex')}@example.com`, token: '' };
  let mateId = '';

  // What each server printed, shown when a test fails.
  beforeEach(() => {
    onTestFailed(() => {
      for (const [index, lines] of output.entries())
        console.error(`--- server ${'ABC'[index]}:\n${lines.join('')}`);
    });
  });

  beforeAll(async () => {
    double = await startOpenAiDouble();
    database = await emptyDatabase('postgres');
    redis = new Redis(REDIS_TEST_URL);
    proxy = await startRoundRobinProxy(direct);
    const env = (index: number): Record<string, string> => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-many-'));
      dataDirs.push(dataDir);
      return {
        PORT: String(PORTS[index]),
        DATA_DIR: dataDir,
        DATABASE_URL: database.url!,
        PUBLIC_URL: proxy.url,
        MAIL_OUTBOX_DIR: outboxDir,
        REDIS_URL: REDIS_TEST_URL,
        REDIS_PREFIX: prefix,
        ROOM_LOCK_TTL: String(LOCK_TTL),
        LLM_PROVIDER: 'openai',
        LLM_BASE_URL: double.baseUrl,
        LLM_API_KEY: 'sk-test',
        LLM_MODEL: 'mate-model',
        SPEECH_PROVIDER: 'none',
        SHUTDOWN_TIMEOUT: '1',
      };
    };
    // Started together, as an operator's orchestrator would: they share one empty database.
    children.push(
      ...(await Promise.all(
        PORTS.map(
          async (_, index) =>
            (await startMainProcess(env(index), { output: output[index]! })).child,
        ),
      )),
    );
    const kai = await seededMate(database.db, 'Kai Tanaka');
    mateId = kai.id;
  }, 180_000);

  afterAll(async () => {
    for (const child of children) await killHard(child);
    await proxy?.close();
    await double?.close();
    if (redis) {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    }
    await database?.drop();
    for (const dir of [outboxDir, ...dataDirs]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('signs up through A, verifies through B, chats through C', async () => {
    const [a, b, c] = direct as [string, string, string];
    const { verifyTicket } = await client(a).user.register({
      email: account.email,
      password: 'correct horse',
    });
    const mail = await waitFor(
      () => fs.readdirSync(outboxDir).find((file) => file.endsWith(`-${account.email}.eml`)),
      Boolean,
    );
    const link = new URL(
      linkIn({ text: mailText(fs.readFileSync(path.join(outboxDir, mail!), 'utf8')) }),
    );
    // The link names the proxy (PUBLIC_URL); it is opened on B.
    expect(link.origin).toBe(proxy.url);
    const confirmed = await fetch(`${b}${link.pathname}${link.search}`, { method: 'POST' });
    expect(confirmed.status).toBe(200);
    const { userInfo } = await client(c).user.verifyStatus({ email: account.email, verifyTicket });
    expect(userInfo).toBeTruthy();
    account.token = userInfo!.token;

    const onC = client(c, account.token);
    const room = await onC.room.createRoom({ mateId });
    double.next({ kind: 'stream', pieces: ['Waves ', 'again.'] });
    const reply = await chat(onC, room.roomId, 'Hello from C.');
    expect(reply.failure).toBeNull();
    expect(reply.text).toBe('Waves again.');
    expect(reply.events.at(-1)!.type).toBe('reply-end');
    // The room, read through the proxy from whichever server, has the reply.
    const seen = await client(proxy.url, account.token).room.roomInfo({ roomId: room.roomId });
    expect(seen.messages.at(-1)).toMatchObject({ content: 'Waves again.', status: 'complete' });
  });

  it('counts one login limit across A and B', async () => {
    const [a, b] = direct as [string, string];
    const email = `limit-${randomBytes(3).toString('hex')}@example.com`;
    // Ten attempts a minute for one address and account: five on each server.
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await expect(
        client(attempt % 2 ? b : a).user.login({ email, password: 'wrong wrong' }),
      ).rejects.not.toMatchObject({ message: expect.stringMatching(/^Too many attempts/) });
    }
    for (const base of [a, b])
      await expect(
        client(base).user.login({ email, password: 'wrong wrong' }),
      ).rejects.toMatchObject({
        code: 5007,
        message: expect.stringMatching(/^Too many attempts\. Please try again in/),
      });
  });

  it('forgets a session on every server: a logout, a password changed, a setting changed', async () => {
    const [a, b, c] = direct as [string, string, string];
    const login = async () =>
      (await client(a).user.login({ email: account.email, password: 'correct horse' })).token;
    const [leaving, staying, other] = [await login(), await login(), await login()];
    // Each server reads, and keeps, each session.
    for (const base of direct)
      for (const token of [leaving, staying, other]) await client(base, token).user.benefits();
    // Another server hears of a forget through Redis pub/sub: within its delivery (a few
    // milliseconds), not before the next request can reach it, so each check waits up to 2 s.
    const answerOf = (base: string, token: string) =>
      client(base, token)
        .user.benefits()
        .then(
          () => 'served',
          (error: { code?: number }) => error.code,
        );
    const refusedSoon = (base: string, token: string) =>
      expect.poll(() => answerOf(base, token), { timeout: 2000, interval: 20 }).toBe(5002);

    // Logged out through A: refused there at once, and on B and C as soon as they hear of it.
    await client(a, leaving).user.logout();
    expect(await answerOf(a, leaving)).toBe(5002);
    await refusedSoon(b, leaving);
    await refusedSoon(c, leaving);

    // An adult mate: closed to the account until it turns mature content on, through C.
    const adult = await seededMate(database.db, 'Margot Lisle');
    await database.db.updateTable('mates').set({ nsfw: true }).where('id', '=', adult.id).execute();
    await expect(client(a, staying).mate.getMateDetail({ mateId: adult.id })).rejects.toMatchObject(
      { code: 4003 },
    );
    await client(c, staying).user.updateTags({ tags: [], nfsw: true });
    await expect
      .poll(
        () =>
          client(a, staying)
            .mate.getMateDetail({ mateId: adult.id })
            .then(
              (mate) => mate.mateId,
              (error: { code?: number }) => error.code,
            ),
        { timeout: 2000, interval: 20 },
      )
      .toBe(adult.id);
    await client(c, staying).user.updateTags({ tags: [], nfsw: false });
    await database.db
      .updateTable('mates')
      .set({ nsfw: false })
      .where('id', '=', adult.id)
      .execute();

    // The password changed through B: every other session ends, on A and C too.
    await client(b, staying).user.changePassword({
      oldPassword: 'correct horse',
      newPassword: 'battery staple orbit',
    });
    expect(await answerOf(b, other)).toBe(5002);
    await refusedSoon(a, other);
    await refusedSoon(c, other);
    await refusedSoon(c, account.token);
    expect(await client(a, staying).user.benefits()).toBeTruthy();
    // The later parts go on with the session kept.
    account.token = staying;
  });

  it('refuses on B a room busy on A, and stops its reply from C', async () => {
    const [a, b, c] = direct as [string, string, string];
    const room = await client(a, account.token).room.createRoom({ mateId });
    // The model writes a little, then goes quiet: the reply stays in progress on A.
    double.next({ kind: 'stall', pieces: ['Once ', 'upon '] });
    let started!: () => void;
    const writing = new Promise<void>((resolve) => (started = resolve));
    const onA = chat(client(a, account.token), room.roomId, 'Tell me a story.', (event) => {
      if (event.type === 'reply-delta') started();
    });
    await writing;

    const onB = client(b, account.token);
    const refused = await chat(onB, room.roomId, 'Are you there?');
    expect(refused.failure).toMatchObject({ code: 5007, message: BUSY });
    expect(refused.events).toEqual([]);
    const userMessage = (await onB.room.roomInfo({ roomId: room.roomId })).messages.find(
      (message) => message.content === 'Tell me a story.',
    )!;
    await expect(
      onB.room.editMessage({
        roomId: room.roomId,
        messageId: userMessage.messageId,
        content: 'Another story.',
      }),
    ).rejects.toMatchObject({
      code: 5007,
      message: 'Wait for the reply to finish, or stop it, before editing messages.',
    });

    // Deleting the room through C stops the reply A writes (a stop request over pub/sub):
    // without it, A's stream would wait for the silent model.
    await client(c, account.token).room.deleteRoom({ roomId: room.roomId });
    const ended = await onA;
    expect(ended.text).toBe('Once upon ');
    await waitFor(
      () => redis.exists(`${prefix}room-reply:${room.roomId}`),
      (held) => held === 0,
    );
  });

  it('keeps the partial reply of a server killed mid-reply, frees its room when the lock expires, and B and C serve throughout', async () => {
    const [a, b] = direct as [string, string];
    const onA = client(a, account.token);
    const room = await onA.room.createRoom({ mateId });
    // Slow pieces, so that the growing reply is saved (every second) before A dies.
    const pieces = Array.from({ length: 40 }, (_, index) => `word${index} `);
    double.next({ kind: 'stall', pieces, delayMs: 150 });
    const streamed = chat(onA, room.roomId, 'Talk slowly.');
    const saved = await waitFor(
      () =>
        database.db
          .selectFrom('messages')
          .select(['id', 'content', 'status'])
          .where('room_id', '=', room.roomId)
          .where('role', '=', 'mate')
          .where('status', '=', 'partial')
          .where('content', '!=', '')
          .executeTakeFirst(),
      Boolean,
    );

    // B and C keep answering through the proxy while A dies and its room's lock runs out.
    let polling = true;
    let killed = false;
    onTestFinished(() => void (polling = false));
    const answers: number[] = [];
    const poll = (async () => {
      while (polling) {
        // A request A was answering when it died is lost with it; the ones sent after count.
        const afterKill = killed;
        const status = await fetch(`${proxy.url}/api/health`).then(
          (answer) => answer.status,
          () => 0,
        );
        if (afterKill) answers.push(status);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    await killHard(children[0]!);
    killed = true;
    const servedBefore = proxy.served.length;
    const cut = await streamed;
    expect(cut.failure).not.toBeNull();

    // The reply as far as it was saved, read through B: partial, the start of what was streamed.
    const onB = client(b, account.token);
    const kept = (await onB.room.roomInfo({ roomId: room.roomId })).messages.find(
      (message) => message.messageId === saved!.id,
    )!;
    expect(kept.status).toBe('partial');
    expect(kept.content.length).toBeGreaterThan(0);
    expect(cut.text.startsWith(kept.content)).toBe(true);

    // The dead server's lock still holds the room, and B refuses it, until the lock expires.
    const key = `${prefix}room-reply:${room.roomId}`;
    expect(await redis.pttl(key)).toBeGreaterThan(0);
    expect((await chat(onB, room.roomId, 'Still there?')).failure).toMatchObject({
      code: 5007,
      message: BUSY,
    });
    await waitFor(
      () => redis.exists(key),
      (held) => held === 0,
      LOCK_TTL * 1000 + 10_000,
    );
    const viaProxy = client(proxy.url, account.token);
    const again = await chat(viaProxy, room.roomId, 'Back again?');
    expect(again.failure).toBeNull();
    expect(again.events.at(-1)!.type).toBe('reply-end');

    polling = false;
    await poll;
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter((status) => status !== 200)).toEqual([]);
    const after = new Set(proxy.served.slice(servedBefore));
    expect(after.has(direct[0]!)).toBe(false);
    expect([...after].sort()).toEqual([direct[1], direct[2]]);
  });

  it('gives back, from the servers still running, the chat of a reply a killed server left without a word', async () => {
    const [, b, c] = direct as [string, string, string];
    const onB = client(b, account.token);
    const onC = client(c, account.token);
    const room = await onB.room.createRoom({ mateId });
    const chatsBefore = (await onC.user.benefits()).chats;
    // The provider never answers: B dies with the reply charged and still empty.
    double.next({ kind: 'hang' });
    const started = new Promise<void>((resolve) => {
      void chat(onB, room.roomId, 'Anyone there?', (event) => {
        if (event.type === 'reply-start') resolve();
      });
    });
    await started;
    const reply = () =>
      database.db
        .selectFrom('messages')
        .select(['id', 'status', 'content'])
        .where('room_id', '=', room.roomId)
        .where('role', '=', 'mate')
        .orderBy('position', 'desc')
        .executeTakeFirstOrThrow();
    // While B writes it, the other servers' sweeps leave it be.
    await new Promise((resolve) => setTimeout(resolve, LOCK_TTL * 1000 + 1000));
    expect(await reply()).toMatchObject({ status: 'partial', content: '' });
    expect((await onC.user.benefits()).chats).toBe(chatsBefore - 1);

    await killHard(children[1]!);
    // No server starts again: C finds the reply once B's room lock has expired.
    const failed = await waitFor(
      reply,
      (row) => row.status !== 'partial',
      LOCK_TTL * 3000 + 10_000,
    );
    expect(failed).toMatchObject({ status: 'error', content: '' });
    expect((await onC.user.benefits()).chats).toBe(chatsBefore);
    const refunds = await database.db
      .selectFrom('benefit_ledger')
      .select(['chats_delta', 'reason'])
      .where('reference_id', '=', failed.id)
      .orderBy('id')
      .execute();
    expect(refunds).toEqual([
      { chats_delta: -1, reason: 'chat' },
      { chats_delta: 1, reason: 'refund: reply abandoned' },
    ]);
    // The user sees it failed, and can send again.
    const seen = await onC.room.roomInfo({ roomId: room.roomId });
    expect(seen.messages.find((message) => message.messageId === failed.id)?.status).toBe('error');
    double.next({ kind: 'stream', pieces: ['Here ', 'now.'] });
    expect((await chat(onC, room.roomId, 'Hello again?')).text).toBe('Here now.');
  });
});
