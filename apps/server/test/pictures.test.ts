import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, JobState, JobStatus } from '@mates/api-client';
import type { ChatTurn, LanguageModel } from '../src/llm/language-model';
import {
  DIALECTS,
  postgresAvailable,
  signUp,
  startTestServer,
  unconfiguredModel,
  seededMate,
  until,
} from './harness';
import { startAutomatic1111Double } from './image-doubles';
import {
  NOT_QUEUED,
  PICTURE_FAILURES,
  recoverUnqueuedPictures,
} from '../src/images/picture-job-service';
import { en } from '../src/i18n/en';
import { es } from '../src/i18n/es';

// Issue #15: pictures in the chat, drawn by a job through the AUTOMATIC1111 double, charged in
// gold coins (given back when they fail or are cancelled), served to the room's owner only.
const withPostgres = await postgresAvailable();
const COST = 7;
const WELCOME_COINS = 20;

const finalStates: JobState[] = ['succeeded', 'failed', 'cancelled'];

/** A model that answers "Hello." and keeps the turns it was given. */
function recordingModel(): LanguageModel & { prompts: ChatTurn[][] } {
  const prompts: ChatTurn[][] = [];
  return {
    ...unconfiguredModel(),
    unavailableReason: () => null,
    prompts,
    async generate(turns, _options, onText) {
      prompts.push(turns);
      onText('Hello.');
      return { finishReason: 'stop', promptTokens: 1, completionTokens: 1 };
    },
  };
}

describe.each(DIALECTS)('pictures in the chat on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let double: Awaited<ReturnType<typeof startAutomatic1111Double>>;
  let app: Awaited<ReturnType<typeof startTestServer>>;
  const model = recordingModel();

  beforeAll(async () => {
    if (skip) return;
    double = await startAutomatic1111Double();
    app = await startTestServer(dialect, {
      model,
      env: {
        IMAGE_PROVIDER: 'automatic1111',
        IMAGE_BASE_URL: double.url,
        IMAGE_COST: String(COST),
        WELCOME_GOLD_COINS: String(WELCOME_COINS),
      },
    });
    await app.deps.jobs.start();
  });
  afterAll(async () => {
    await app?.close();
    await double?.close();
  });

  const roomWith = async (client: ApiClient, name = 'Kai Tanaka') => {
    const mate = await seededMate(app.db, name);
    return (await client.room.createRoom({ mateId: mate.id })).roomId;
  };
  const coins = async (client: ApiClient) => (await client.user.benefits()).goldCoins;
  const ledger = async (client: ApiClient) => {
    const { userId } = await client.user.benefits();
    return (
      await app.db
        .selectFrom('benefit_ledger')
        .select('gold_coins_delta')
        .where('user_id', '=', userId!)
        .where('gold_coins_delta', '!=', 0)
        .orderBy('id')
        .execute()
    ).map((row) => row.gold_coins_delta);
  };
  const finished = (client: ApiClient, jobId: string) =>
    until(
      () => client.room.checkJobStatus({ jobId }),
      (status: JobStatus) => finalStates.includes(status.state),
    );

  it.skipIf(skip)(
    'draws a picture: queued, progress, succeeded, a WebP served to the owner only',
    async () => {
      const { client } = await signUp(app);
      const { client: stranger } = await signUp(app);
      const roomId = await roomWith(client);
      double.queue.push({ kind: 'ok', steps: 3 });
      const ref = await client.room.createImage({
        roomId,
        prompt: 'Kai at the night market, lanterns',
        size: '512x512',
      });
      expect(ref).toEqual({ jobId: expect.any(String), messageId: expect.any(String) });
      expect(await coins(client)).toBe(WELCOME_COINS - COST);

      const running = await until(
        () => client.room.checkJobStatus({ jobId: ref.jobId }),
        (status) => status.progress > 0 || finalStates.includes(status.state),
      );
      expect(running).toMatchObject({ state: 'running', messageId: ref.messageId });
      expect(running.progress).toBeGreaterThan(0);
      expect(running.progress).toBeLessThan(1);

      const done = await finished(client, ref.jobId);
      expect(done).toMatchObject({
        jobId: ref.jobId,
        state: 'succeeded',
        progress: 1,
        error: null,
        messageId: ref.messageId,
      });
      expect(done.images).toHaveLength(1);
      const drawn = double.requests.find((r) => r.url === '/sdapi/v1/txt2img')!;
      expect(drawn.body).toMatchObject({
        prompt: 'Kai at the night market, lanterns',
        width: 512,
        height: 512,
      });

      const served = await app.app.request(done.images[0]!);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      expect(served.headers.get('cache-control')).toContain('private');
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 512, height: 512 });

      // The room shows it as the mate's message with its picture.
      const info = await client.room.roomInfo({ roomId });
      const message = info.messages.find((m) => m.messageId === ref.messageId)!;
      expect(message).toMatchObject({
        role: 'mate',
        content: '',
        status: 'complete',
        image: {
          jobId: ref.jobId,
          state: 'succeeded',
          progress: 1,
          prompt: 'Kai at the night market, lanterns',
          size: '512x512',
          model: null,
          error: null,
          sharedUrl: null,
        },
      });
      expect(message.image!.url).toMatch(/^\/api\/room\/picture\?/);

      // Nobody else learns of it; a changed signature or expiry is refused.
      expect(
        await stranger.room.checkJobStatus({ jobId: ref.jobId }).catch((error: unknown) => error),
      ).toMatchObject({ code: 4004 });
      expect(
        await stranger.room.cancelImage({ jobId: ref.jobId }).catch((error: unknown) => error),
      ).toMatchObject({ code: 4004 });
      const link = new URL(done.images[0]!, 'http://mates.test');
      const forged = new URL(link);
      const signature = link.searchParams.get('signature')!;
      forged.searchParams.set('signature', (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1));
      expect((await app.app.request(forged.pathname + forged.search)).status).toBe(403);
      const later = new URL(link);
      later.searchParams.set('expires', String(Number(link.searchParams.get('expires')) + 60));
      expect((await app.app.request(later.pathname + later.search)).status).toBe(403);
      expect(await ledger(client)).toEqual([WELCOME_COINS, -COST]);
    },
  );

  it.skipIf(skip)('refuses with too few gold coins and writes nothing', async () => {
    const { client } = await signUp(app);
    const roomId = await roomWith(client);
    await app.db
      .updateTable('benefits')
      .set({ gold_coins: COST - 1 })
      .where('user_id', '=', (await client.user.benefits()).userId!)
      .execute();
    const before = (await client.room.roomInfo({ roomId })).messages.length;
    const jobsBefore = await app.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(
      await client.room
        .createImage({ roomId, prompt: 'Kai on a rooftop' })
        .catch((error: unknown) => error),
    ).toMatchObject({ code: 5007, message: en.notices.pictures.notEnoughCoins });
    expect((await client.room.roomInfo({ roomId })).messages).toHaveLength(before);
    const jobsAfter = await app.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(jobsAfter.n)).toBe(Number(jobsBefore.n));
    expect(await coins(client)).toBe(COST - 1);
  });

  it.skipIf(skip)(
    "an engine error fails the picture, says why in the reader's language and gives the coins back once",
    async () => {
      const { client, userInfo } = await signUp(app);
      const roomId = await roomWith(client);
      double.queue.push({
        kind: 'status',
        status: 500,
        body: {
          error: 'OutOfMemoryError',
          detail: '',
          body: '',
          errors: 'CUDA out of memory. Tried to allocate 2.00 GiB',
        },
      });
      const ref = await client.room.createImage({ roomId, prompt: 'Kai in the rain' });
      const done = await finished(client, ref.jobId);
      expect(done).toMatchObject({
        state: 'failed',
        images: [],
        error: PICTURE_FAILURES.failed,
      });
      expect(await coins(client)).toBe(WELCOME_COINS);
      expect(await ledger(client)).toEqual([WELCOME_COINS, -COST, COST]);
      const message = (await client.room.roomInfo({ roomId })).messages.find(
        (m) => m.messageId === ref.messageId,
      )!;
      expect(message.image).toMatchObject({
        state: 'failed',
        url: null,
        error: PICTURE_FAILURES.failed,
      });
      // Read in Spanish, the same failure is said in Spanish, where the room shows it and
      // where its job is asked after.
      const inSpanish = app.client({ token: userInfo.token, language: 'es' });
      const spanish = es.pictures.failures.failed;
      expect(spanish).not.toBe(PICTURE_FAILURES.failed);
      expect(await inSpanish.room.checkJobStatus({ jobId: ref.jobId })).toMatchObject({
        error: spanish,
      });
      const read = (await inSpanish.room.roomInfo({ roomId })).messages.find(
        (m) => m.messageId === ref.messageId,
      )!;
      expect(read.image).toMatchObject({ error: spanish });
      const listed = (await inSpanish.room.roomList()).list;
      expect(listed.find((room) => room.roomId === roomId)?.lastMessage?.image?.error).toBe(
        spanish,
      );
    },
  );

  it.skipIf(skip)('cancelling a running picture gives the coins back, once', async () => {
    const { client } = await signUp(app);
    const roomId = await roomWith(client);
    double.queue.push({ kind: 'hang' });
    const ref = await client.room.createImage({ roomId, prompt: 'Kai, waiting' });
    await until(
      () => client.room.checkJobStatus({ jobId: ref.jobId }),
      (status) => status.state !== 'queued',
    );
    expect(await client.room.cancelImage({ jobId: ref.jobId })).toMatchObject({
      jobId: ref.jobId,
      state: 'cancelled',
      images: [],
      messageId: ref.messageId,
    });
    expect(await client.room.cancelImage({ jobId: ref.jobId })).toMatchObject({
      state: 'cancelled',
    });
    expect(await coins(client)).toBe(WELCOME_COINS);
    expect(await ledger(client)).toEqual([WELCOME_COINS, -COST, COST]);
    const message = (await client.room.roomInfo({ roomId })).messages.find(
      (m) => m.messageId === ref.messageId,
    )!;
    expect(message.image).toMatchObject({ state: 'cancelled', url: null });
  });

  it.skipIf(skip)(
    'a cancel whose refund cannot be written cancels nothing: asked again, it cancels and refunds',
    async () => {
      const { client } = await signUp(app);
      const roomId = await roomWith(client);
      double.queue.push({ kind: 'hang' });
      const ref = await client.room.createImage({ roomId, prompt: 'Kai, in the rain' });
      await until(
        () => client.room.checkJobStatus({ jobId: ref.jobId }),
        (status) => status.state === 'running',
      );
      // The database refuses the refund's ledger row (a full disk, a lost connection, a kill
      // between the two writes): the cancel must not stand without its refund.
      const refund = 'ledger.reasons.refundPictureCancelled';
      if (dialect === 'sqlite')
        await sql`create trigger refuse_refund before insert on benefit_ledger
          when new.reason_key = ${sql.lit(refund)}
          begin select raise(abort, 'the disk is full'); end`.execute(app.db);
      else {
        await sql`create function refuse_refund() returns trigger language plpgsql as $$
          begin raise exception 'the disk is full'; end $$`.execute(app.db);
        await sql`create trigger refuse_refund before insert on benefit_ledger for each row
          when (new.reason_key = ${sql.lit(refund)}) execute function refuse_refund()`.execute(
          app.db,
        );
      }
      try {
        expect(
          await client.room.cancelImage({ jobId: ref.jobId }).catch((error: unknown) => error),
        ).toMatchObject({ code: 5000 });
      } finally {
        await sql`drop trigger refuse_refund${sql.raw(dialect === 'postgres' ? ' on benefit_ledger' : '')}`.execute(
          app.db,
        );
        if (dialect === 'postgres') await sql`drop function refuse_refund()`.execute(app.db);
      }
      expect((await client.room.checkJobStatus({ jobId: ref.jobId })).state).toBe('running');
      expect(await coins(client)).toBe(WELCOME_COINS - COST);
      expect(await client.room.cancelImage({ jobId: ref.jobId })).toMatchObject({
        state: 'cancelled',
      });
      expect(await coins(client)).toBe(WELCOME_COINS);
      expect(await ledger(client)).toEqual([WELCOME_COINS, -COST, COST]);
    },
  );

  it.skipIf(skip)('a picture message cannot be edited; deleting it removes its file', async () => {
    const { client } = await signUp(app);
    const roomId = await roomWith(client);
    const ref = await client.room.createImage({ roomId, prompt: 'Kai by the sea' });
    const done = await finished(client, ref.jobId);
    expect(done.state).toBe('succeeded');
    const row = await app.db
      .selectFrom('messages')
      .select('image_file')
      .where('id', '=', ref.messageId)
      .executeTakeFirstOrThrow();
    const file = path.join(app.deps.config.dataDir, 'pictures', row.image_file!);
    expect(fs.existsSync(file)).toBe(true);
    expect(
      await client.room
        .editMessage({ roomId, messageId: ref.messageId, content: 'words instead' })
        .catch((error: unknown) => error),
    ).toMatchObject({ code: 4000, message: expect.stringContaining('messageId') });
    await client.room.deleteMessage({ roomId, messageId: ref.messageId });
    expect(fs.existsSync(file)).toBe(false);
    expect((await app.app.request(done.images[0]!)).status).toBe(404);
    expect(
      await client.room.checkJobStatus({ jobId: ref.jobId }).catch((error: unknown) => error),
    ).toMatchObject({ code: 4004 });
  });

  it.skipIf(skip)(
    'deleting a picture still being drawn cancels it and gives the coins back',
    async () => {
      const { client } = await signUp(app);
      const roomId = await roomWith(client);
      double.queue.push({ kind: 'hang' });
      const ref = await client.room.createImage({ roomId, prompt: 'Kai, half drawn' });
      await until(
        () => client.room.checkJobStatus({ jobId: ref.jobId }),
        (status) => status.state !== 'queued',
      );
      await client.room.deleteMessage({ roomId, messageId: ref.messageId });
      expect((await app.deps.jobs.status(ref.jobId))?.state).toBe('cancelled');
      expect(await coins(client)).toBe(WELCOME_COINS);
      expect(await ledger(client)).toEqual([WELCOME_COINS, -COST, COST]);
    },
  );

  it.skipIf(skip)(
    'the chat prompt leaves pictures out, and regenerating a reply keeps them',
    async () => {
      const { client } = await signUp(app);
      const roomId = await roomWith(client);
      await client.girl.chatSend({ roomId, content: 'Show me the market' }, { onData: () => {} });
      const ref = await client.room.createImage({ roomId, prompt: 'Kai at the market' });
      expect((await finished(client, ref.jobId)).state).toBe('succeeded');
      model.prompts.length = 0;
      await client.girl.chatSend({ roomId, regenerate: true }, { onData: () => {} });
      const turns = model.prompts[0]!;
      expect(turns.some((turn) => turn.content.includes('Show me the market'))).toBe(true);
      expect(turns.every((turn) => turn.content.trim() !== '')).toBe(true);
      const messages = (await client.room.roomInfo({ roomId })).messages;
      expect(messages.find((m) => m.messageId === ref.messageId)?.image).toMatchObject({
        state: 'succeeded',
      });
      expect(await coins(client)).toBe(WELCOME_COINS - COST);
    },
  );

  it.skipIf(skip)(
    'deleting a room removes its pictures and gives back the coins of unfinished ones',
    async () => {
      const { client } = await signUp(app);
      const roomId = await roomWith(client);
      const drawn = await client.room.createImage({ roomId, prompt: 'Kai, drawn' });
      expect((await finished(client, drawn.jobId)).state).toBe('succeeded');
      const { image_file: file } = await app.db
        .selectFrom('messages')
        .select('image_file')
        .where('id', '=', drawn.messageId)
        .executeTakeFirstOrThrow();
      double.queue.push({ kind: 'hang' });
      const drawing = await client.room.createImage({ roomId, prompt: 'Kai, drawing' });
      await until(
        () => client.room.checkJobStatus({ jobId: drawing.jobId }),
        (status) => status.state !== 'queued',
      );
      await client.room.deleteRoom({ roomId });
      expect(fs.existsSync(path.join(app.deps.config.dataDir, 'pictures', file!))).toBe(false);
      expect((await app.deps.jobs.status(drawing.jobId))?.state).toBe('cancelled');
      expect(await coins(client)).toBe(WELCOME_COINS - COST);
      expect(await ledger(client)).toEqual([WELCOME_COINS, -COST, -COST, COST]);
    },
  );

  it.skipIf(skip)('refuses pictures in another user’s room and bad input', async () => {
    const { client: owner } = await signUp(app);
    const { client: other } = await signUp(app);
    const roomId = await roomWith(owner, 'Lyra Moonwhisper');
    expect(
      await other.room.createImage({ roomId, prompt: 'Lyra' }).catch((error: unknown) => error),
    ).toMatchObject({ code: 4004 });
    expect(
      await owner.room
        .createImage({ roomId, prompt: 'x'.repeat(1001) })
        .catch((error: unknown) => error),
    ).toMatchObject({ code: 4000 });
    expect(
      await owner.room
        .createImage({ roomId, prompt: 'Lyra', model: 'no-such-model' })
        .catch((error: unknown) => error),
    ).toMatchObject({ code: 4000, message: expect.stringContaining('model') });
    expect(await coins(owner)).toBe(WELCOME_COINS);
    expect(await coins(other)).toBe(WELCOME_COINS);
  });

  /** Draws a picture in `roomId` and waits until it ends. */
  const draw = async (client: ApiClient, roomId: string, prompt: string, model?: string) => {
    const ref = await client.room.createImage({ roomId, prompt, ...(model ? { model } : {}) });
    const done = await finished(client, ref.jobId);
    return { ...ref, state: done.state };
  };
  const failure = (call: Promise<unknown>) => call.catch((error: unknown) => error);
  /** The picture's public link, fetched by anyone over HTTP (no session). */
  const fetchShared = (sharedUrl: string) => fetch(new URL(sharedUrl, app.base));
  const shareIdOf = async (messageId: string) =>
    (
      await app.db
        .selectFrom('messages')
        .select('image_share_id')
        .where('id', '=', messageId)
        .executeTakeFirstOrThrow()
    ).image_share_id;

  it.skipIf(skip)(
    "lists a room's finished pictures, newest first, a page at a time, to its owner only",
    async () => {
      const { client } = await signUp(app);
      const { client: stranger } = await signUp(app);
      const roomId = await roomWith(client);
      const otherRoom = await roomWith(client, 'Lyra Moonwhisper');
      await app.db
        .updateTable('benefits')
        .set({ gold_coins: 100 })
        .where('user_id', '=', (await client.user.benefits()).userId!)
        .execute();
      const first = await draw(client, roomId, 'Kai, first');
      double.queue.push({ kind: 'status', status: 500, body: { error: 'OutOfMemoryError' } });
      const failed = await draw(client, roomId, 'Kai, failed');
      const second = await draw(
        client,
        roomId,
        'Kai, second',
        'realisticVision_v51.safetensors [15012c538f]',
      );
      await client.girl.chatSend({ roomId, content: 'Lovely.' }, { onData: () => {} });
      const third = await draw(client, roomId, 'Kai, third');
      await draw(client, otherRoom, 'Lyra, elsewhere');
      double.queue.push({ kind: 'hang' });
      const drawing = await client.room.createImage({ roomId, prompt: 'Kai, still drawing' });
      expect([first.state, failed.state, second.state, third.state]).toEqual([
        'succeeded',
        'failed',
        'succeeded',
        'succeeded',
      ]);

      const all = await client.room.pictures({ roomId });
      expect(all).toMatchObject({ page: 1, pageSize: 20, total: 3, hasMore: false });
      expect(all.list.map((p) => p.messageId)).toEqual([
        third.messageId,
        second.messageId,
        first.messageId,
      ]);
      expect(all.list[1]).toEqual({
        messageId: second.messageId,
        roomId,
        url: expect.stringMatching(/^\/api\/room\/picture\?/),
        prompt: 'Kai, second',
        size: '768x1024',
        model: 'realisticVision_v51.safetensors [15012c538f]',
        createdAt: expect.any(String),
        sharedUrl: null,
      });
      expect(all.list[0]!.model).toBeNull();
      const served = await fetch(new URL(all.list[0]!.url, app.base));
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      // The room's messages say the same of the model.
      const messages = (await client.room.roomInfo({ roomId })).messages;
      expect(messages.find((m) => m.messageId === second.messageId)!.image!.model).toBe(
        'realisticVision_v51.safetensors [15012c538f]',
      );

      const pageOne = await client.room.pictures({ roomId, page: 1, pageSize: 2 });
      expect(pageOne.list.map((p) => p.prompt)).toEqual(['Kai, third', 'Kai, second']);
      expect(pageOne).toMatchObject({ total: 3, hasMore: true, pageSize: 2 });
      const pageTwo = await client.room.pictures({ roomId, page: 2, pageSize: 2 });
      expect(pageTwo.list.map((p) => p.prompt)).toEqual(['Kai, first']);
      expect(pageTwo).toMatchObject({ page: 2, total: 3, hasMore: false });

      expect(await failure(stranger.room.pictures({ roomId }))).toMatchObject({ code: 4004 });
      expect(await failure(client.room.pictures({ roomId: 'no-such-room' }))).toMatchObject({
        code: 4004,
      });
      expect(await failure(client.room.pictures({ roomId, pageSize: 51 }))).toMatchObject({
        code: 4000,
        message: expect.stringContaining('pageSize'),
      });
      // The engine took it up (an unused "hang" would stop the next test's picture).
      await until(
        () => client.room.checkJobStatus({ jobId: drawing.jobId }),
        (status) => status.state !== 'queued',
      );
      await client.room.cancelImage({ jobId: drawing.jobId });
    },
  );

  it.skipIf(skip)(
    'shares a finished picture through a public link until it is unshared or deleted',
    async () => {
      const { client } = await signUp(app);
      const { client: stranger } = await signUp(app);
      const roomId = await roomWith(client);
      const picture = await draw(client, roomId, 'Kai under the cherry trees');
      expect(picture.state).toBe('succeeded');

      const shared = await client.room.sharePicture({
        messageId: picture.messageId,
        shared: true,
      });
      expect(shared).toMatchObject({
        messageId: picture.messageId,
        roomId,
        prompt: 'Kai under the cherry trees',
        url: expect.stringMatching(/^\/api\/room\/picture\?/),
        sharedUrl: expect.stringMatching(/^\/api\/room\/sharedPicture\?id=[A-Za-z0-9_-]{24}$/),
      });
      const link = shared.sharedUrl!;
      const open = await fetchShared(link);
      expect(open.status).toBe(200);
      expect(open.headers.get('content-type')).toBe('image/webp');
      expect(open.headers.get('x-content-type-options')).toBe('nosniff');
      expect(open.headers.get('cache-control')).toContain('public');
      const bytes = Buffer.from(await open.arrayBuffer());
      const signed = await fetch(new URL(shared.url, app.base));
      expect(bytes.equals(Buffer.from(await signed.arrayBuffer()))).toBe(true);
      expect((await sharp(bytes).metadata()).format).toBe('webp');

      // Sharing again keeps the link; the room and the gallery show it.
      expect(
        (await client.room.sharePicture({ messageId: picture.messageId, shared: true })).sharedUrl,
      ).toBe(link);
      const message = (await client.room.roomInfo({ roomId })).messages.find(
        (m) => m.messageId === picture.messageId,
      )!;
      expect(message.image!.sharedUrl).toBe(link);
      expect((await client.room.pictures({ roomId })).list[0]!.sharedUrl).toBe(link);

      // Nobody else shares or unshares it; bad input changes nothing.
      const id = await shareIdOf(picture.messageId);
      for (const attempt of [true, false])
        expect(
          await failure(
            stranger.room.sharePicture({ messageId: picture.messageId, shared: attempt }),
          ),
        ).toMatchObject({ code: 4004 });
      expect(await failure(client.room.sharePicture({ shared: false } as never))).toMatchObject({
        code: 4000,
        message: expect.stringContaining('messageId'),
      });
      expect(
        await failure(
          client.room.sharePicture({ messageId: picture.messageId, shared: 'no' } as never),
        ),
      ).toMatchObject({ code: 4000, message: expect.stringContaining('shared') });
      expect(
        await failure(client.room.sharePicture({ messageId: picture.messageId } as never)),
      ).toMatchObject({ code: 4000, message: expect.stringContaining('shared') });
      expect(await shareIdOf(picture.messageId)).toBe(id);
      expect((await fetchShared(link)).status).toBe(200);

      // A text message is not a picture; one still being drawn cannot be shared yet.
      const greeting = (await client.room.roomInfo({ roomId })).messages[0]!;
      expect(greeting.image).toBeNull();
      expect(
        await failure(client.room.sharePicture({ messageId: greeting.messageId, shared: true })),
      ).toMatchObject({ code: 4000, message: expect.stringContaining('messageId') });
      double.queue.push({ kind: 'hang' });
      const drawing = await client.room.createImage({ roomId, prompt: 'Kai, drawing' });
      expect(
        await failure(client.room.sharePicture({ messageId: drawing.messageId, shared: true })),
      ).toMatchObject({ code: 5007, message: en.notices.pictures.notFinished });
      expect(await shareIdOf(drawing.messageId)).toBeNull();
      await until(
        () => client.room.checkJobStatus({ jobId: drawing.jobId }),
        (status) => status.state !== 'queued',
      );
      await client.room.cancelImage({ jobId: drawing.jobId });

      // Unsharing stops the link at once; sharing again makes a new one.
      const unshared = await client.room.sharePicture({
        messageId: picture.messageId,
        shared: false,
      });
      expect(unshared.sharedUrl).toBeNull();
      expect((await fetchShared(link)).status).toBe(404);
      expect(
        (await client.room.sharePicture({ messageId: picture.messageId, shared: false })).sharedUrl,
      ).toBeNull();
      const again = await client.room.sharePicture({ messageId: picture.messageId, shared: true });
      expect(again.sharedUrl).not.toBe(link);
      expect((await fetchShared(link)).status).toBe(404);
      expect((await fetchShared(again.sharedUrl!)).status).toBe(200);

      // Deleting the message takes the link with it; made-up ids find nothing.
      await client.room.deleteMessage({ roomId, messageId: picture.messageId });
      expect((await fetchShared(again.sharedUrl!)).status).toBe(404);
      expect((await fetchShared('/api/room/sharedPicture?id=' + 'A'.repeat(24))).status).toBe(404);
      expect((await fetchShared('/api/room/sharedPicture?id=../../etc')).status).toBe(404);
      expect((await fetchShared('/api/room/sharedPicture')).status).toBe(404);
    },
  );

  it.skipIf(skip)(
    'a shared picture can be shown on other sites, and stops when moderators hide its mate',
    async () => {
      const { client } = await signUp(app);
      const roomId = await roomWith(client, 'Lyra Moonwhisper');
      const picture = await draw(client, roomId, 'Lyra by the window');
      const { sharedUrl } = await client.room.sharePicture({
        messageId: picture.messageId,
        shared: true,
      });
      const shown = await fetchShared(sharedUrl!);
      expect(shown.status).toBe(200);
      // An <img> on another site may load it (the rest of the server stays same-origin).
      expect(shown.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      const room = await app.db
        .selectFrom('rooms')
        .select('mate_id')
        .where('id', '=', roomId)
        .executeTakeFirstOrThrow();
      await app.db
        .updateTable('mates')
        .set({ hidden_at: new Date().toISOString(), hidden_reason: 'copyright' })
        .where('id', '=', room.mate_id)
        .execute();
      try {
        expect((await fetchShared(sharedUrl!)).status).toBe(404);
        // Nor can it be shared again while hidden.
        expect(
          await failure(client.room.sharePicture({ messageId: picture.messageId, shared: true })),
        ).toMatchObject({ code: 4004 });
      } finally {
        await app.db
          .updateTable('mates')
          .set({ hidden_at: null, hidden_reason: null })
          .where('id', '=', room.mate_id)
          .execute();
      }
      expect((await fetchShared(sharedUrl!)).status).toBe(200);
    },
  );

  it.skipIf(skip)(
    'a picture whose server died before queueing it is failed after a restart, its coins given back once',
    async () => {
      const { client } = await signUp(app);
      const roomId = await roomWith(client);
      const before = await coins(client);
      // What a server killed between writing the picture and queueing its job leaves behind: the
      // message, its charge, and no job — and the same from a minute ago, by a server still alive.
      double.queue.push({ kind: 'hang' }, { kind: 'hang' });
      const lost = await client.room.createImage({ roomId, prompt: 'Kai, lost' });
      await app.deps.jobs.cancel(lost.jobId);
      await app.db.deleteFrom('jobs').where('id', '=', lost.jobId).execute();
      await app.db
        .updateTable('messages')
        .set({ created_at: new Date(Date.now() - 5 * 60_000).toISOString() })
        .where('id', '=', lost.messageId)
        .execute();
      const young = await client.room.createImage({ roomId, prompt: 'Kai, being queued' });
      await app.deps.jobs.cancel(young.jobId);
      // Cancelled before it reached the engine, maybe: its drawing behaviour is not left over.
      double.queue.splice(0);
      await app.db.deleteFrom('jobs').where('id', '=', young.jobId).execute();
      expect(await coins(client)).toBe(before - 2 * COST);

      // Two servers starting at once both look: the coins come back once.
      const recovered = await Promise.all([
        recoverUnqueuedPictures(app.db, new Date(Date.now() - 60_000)),
        recoverUnqueuedPictures(app.db, new Date(Date.now() - 60_000)),
      ]);
      expect(recovered[0] + recovered[1]).toBe(1);
      expect(await coins(client)).toBe(before - COST);
      const status = await client.room.checkJobStatus({ jobId: lost.jobId });
      expect(status).toMatchObject({ state: 'failed', error: NOT_QUEUED, images: [] });
      // The young one is another server's, still being queued: left alone.
      expect((await client.room.checkJobStatus({ jobId: young.jobId })).state).toBe('queued');
      expect((await ledger(client)).slice(-3)).toEqual([-COST, -COST, COST]);
    },
  );

  it.skipIf(skip)('deleting a room takes the links of its shared pictures with it', async () => {
    const { client } = await signUp(app);
    const roomId = await roomWith(client);
    const picture = await draw(client, roomId, 'Kai waving goodbye');
    const { sharedUrl } = await client.room.sharePicture({
      messageId: picture.messageId,
      shared: true,
    });
    expect((await fetchShared(sharedUrl!)).status).toBe(200);
    await client.room.deleteRoom({ roomId });
    expect((await fetchShared(sharedUrl!)).status).toBe(404);
  });
});

describe('pictures and the engine’s concurrency', () => {
  it('draws one picture at a time on AUTOMATIC1111 by default (IMAGE_CONCURRENCY)', async () => {
    const double = await startAutomatic1111Double();
    const app = await startTestServer('sqlite', {
      model: unconfiguredModel(),
      env: {
        IMAGE_PROVIDER: 'automatic1111',
        IMAGE_BASE_URL: double.url,
        IMAGE_COST: '1',
        WELCOME_GOLD_COINS: '10',
      },
    });
    try {
      expect(app.deps.config.image?.concurrency).toBe(1);
      await app.deps.jobs.start();
      const { client } = await signUp(app);
      const mate = await seededMate(app.db, 'Kai Tanaka');
      const { roomId } = await client.room.createRoom({ mateId: mate.id });
      // Each takes a few progress polls to draw: asked together, they would overlap.
      double.queue.push({ kind: 'ok', steps: 3 }, { kind: 'ok', steps: 3 });
      const jobs = await Promise.all(
        ['Kai, first', 'Kai, second'].map((prompt) => client.room.createImage({ roomId, prompt })),
      );
      for (const { jobId } of jobs)
        for (let state: JobState = 'queued'; state !== 'succeeded';) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          state = (await client.room.checkJobStatus({ jobId })).state;
          expect(state).not.toBe('failed');
        }
      // The engine never had two at once: each answered before the next arrived.
      expect(double.drawing).toHaveLength(4);
      expect(double.drawing[1]!.replace('end', 'start')).toBe(double.drawing[0]);
      expect(double.drawing[3]!.replace('end', 'start')).toBe(double.drawing[2]);
    } finally {
      await app.close();
      await double.close();
    }
  });
});
