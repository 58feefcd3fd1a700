import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '@mates/api-client';
import { loadConfig } from '../src/config';
import { startServer, type RunningServer } from '../src/server';
import { silentLogger } from '../src/logging/logger';
import { createSession } from '../src/accounts/sessions';
import { grantBenefits } from '../src/accounts/benefits';
import { appendMessage } from '../src/chat/messages';
import { STORAGE_UNAVAILABLE } from '../src/media/media-store';
import { PICTURE_NOT_STORED } from '../src/images/picture-job-service';
import {
  emptyDatabase,
  insertUser,
  mateRow,
  postgresAvailable,
  startTestServer,
  seededMate,
  until,
} from './harness';
import { drawPng, startAutomatic1111Double } from './image-doubles';
import { startS3Double } from './s3-double';

// Issue #18: every stored file (portraits, drawn pictures, voice) goes through one media
// store: the DATA_DIR folder by default, an S3-compatible bucket when S3_BUCKET is set, so a
// file stored through one server is served by every other.
const withPostgres = await postgresAvailable();

/** `/api/ready`'s status and answer. */
async function readiness(base: string) {
  const answer = await fetch(`${base}/api/ready`);
  return { http: answer.status, ...((await answer.json()) as Record<string, unknown>) };
}

/** A photo-like PNG big enough to be a portrait. */
const photo = () =>
  sharp({ create: { width: 400, height: 600, channels: 3, background: '#7a5' } })
    .png()
    .toBuffer();

/** What is under `dir` (relative paths), for "nothing was written here". */
const filesUnder = (dir: string, sub: string) =>
  fs.existsSync(path.join(dir, sub))
    ? fs.readdirSync(path.join(dir, sub), { recursive: true }).map(String)
    : [];

describe('two servers on one PostgreSQL database and one S3 bucket', () => {
  const skip = !withPostgres;
  let s3: Awaited<ReturnType<typeof startS3Double>>;
  let engine: Awaited<ReturnType<typeof startAutomatic1111Double>>;
  let database: Awaited<ReturnType<typeof emptyDatabase>>;
  const dataDirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'mates-media-')));
  let a: RunningServer;
  let b: RunningServer;
  let client: ApiClient;
  let userId: string;
  let token: string;
  /** The test user's client, calling `server`. */
  const clientOf = (server: RunningServer) =>
    createApiClient({
      baseUrl: `${server.url}/api`,
      getToken: () => token,
      getLanguage: () => 'en',
    });

  beforeAll(async () => {
    if (skip) return;
    s3 = await startS3Double();
    engine = await startAutomatic1111Double();
    database = await emptyDatabase('postgres');
    const start = (dataDir: string) =>
      startServer(
        loadConfig({
          DATA_DIR: dataDir,
          PORT: '0',
          DATABASE_URL: database.url,
          PUBLIC_URL: 'http://mates.test',
          LLM_PROVIDER: 'openai',
          LLM_BASE_URL: 'http://127.0.0.1:9/v1',
          LLM_API_KEY: 'sk-test',
          LLM_MODEL: 'mate-model',
          IMAGE_PROVIDER: 'automatic1111',
          IMAGE_BASE_URL: engine.url,
          ...s3.env(),
        }),
        silentLogger(),
        { jobs: { pollMs: 100 } },
      );
    // Both start at once on the empty database and bucket: one seeds, the other waits.
    [a, b] = (await Promise.all(dataDirs.map(start))) as [RunningServer, RunningServer];
    userId = 'media-user';
    await insertUser(a.deps.db, { id: userId, email: 'media@example.com' });
    await grantBenefits(
      a.deps.db,
      userId,
      { chats: 5, goldCoins: 50 },
      { kind: 'grant', reason: { text: 'test' }, reference: null },
    );
    token = await createSession(a.deps.db, userId);
    client = clientOf(a);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
    await engine?.close();
    await s3?.close();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const from = (server: RunningServer, url: string, headers: Record<string, string> = {}) =>
    fetch(new URL(url, server.url), { headers });

  it.skipIf(skip)('seeds portraits into the bucket once, and both servers serve them', async () => {
    const mate = await a.deps.db
      .selectFrom('mates')
      .select('avatar')
      .where('name', '=', 'Kai Tanaka')
      .executeTakeFirstOrThrow();
    const avatars = await s3.keys('media/avatars/');
    expect(avatars).toContain(mate.avatar.replace(/^\//, ''));
    const mates = await a.deps.db.selectFrom('mates').select('id').execute();
    const users = await a.deps.db.selectFrom('users').select('id').execute();
    // One portrait per seeded mate and creator: the server that waited stored none.
    expect(avatars).toHaveLength(mates.length + users.length - 1);

    const fromA = await from(a, mate.avatar);
    const fromB = await from(b, mate.avatar);
    for (const answer of [fromA, fromB]) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('image/svg+xml');
      expect(answer.headers.get('cache-control')).toMatch(/^public/);
      expect(answer.headers.get('accept-ranges')).toBe('bytes');
    }
    const svg = await fromA.text();
    expect(svg).toMatch(/^<svg/);
    expect(await fromB.text()).toBe(svg);
    expect(fromB.headers.get('content-length')).toBe(String(Buffer.byteLength(svg)));
    // The bucket's ETag is the same whichever server answers: a cached copy is asked again once.
    const etag = fromA.headers.get('etag')!;
    expect(fromB.headers.get('etag')).toBe(etag);
    expect((await from(b, mate.avatar, { 'if-none-match': etag })).status).toBe(304);

    const part = await from(b, mate.avatar, { range: 'bytes=0-3' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-3/${Buffer.byteLength(svg)}`);
    expect(await part.text()).toBe('<svg');
    const head = await fetch(new URL(mate.avatar, b.url), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(svg)));

    // Nothing went to either server's own disk.
    for (const dir of dataDirs) expect(filesUnder(dir, 'media')).toEqual([]);
  });

  it.skipIf(skip)('a portrait uploaded through A is served by B', async () => {
    const mate = mateRow(userId, { visibility: 'private' });
    await a.deps.db.insertInto('mates').values(mate).execute();
    const updated = await client.mate.setPortrait({
      mateId: mate.id,
      image: (await photo()).toString('base64'),
    });
    expect(updated.avatar).toMatch(/^\/media\/avatars\/[\w-]+\.webp$/);
    expect(await s3.keys(updated.avatar.slice(1))).toEqual([updated.avatar.slice(1)]);

    const served = await from(b, updated.avatar);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    const picture = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(picture).toMatchObject({ format: 'webp', width: 512, height: 768 });
    for (const dir of dataDirs) expect(filesUnder(dir, 'media')).toEqual([]);

    // Replaced through A: the old address stops answering on B too.
    const again = await client.mate.setPortrait({
      mateId: mate.id,
      image: (await photo()).toString('base64'),
    });
    expect((await from(b, again.avatar)).status).toBe(200);
    const gone = await from(b, updated.avatar);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toBe('Not found');
  });

  const roomWithKai = async () => {
    const mate = await seededMate(a.deps.db, 'Kai Tanaka');
    return (await client.room.createRoom({ mateId: mate.id })).roomId;
  };

  it.skipIf(skip)(
    'a picture drawn by either server is kept in the bucket and served by both',
    async () => {
      const roomId = await roomWithKai();
      engine.queue.push({ kind: 'ok' });
      const ref = await client.room.createImage({ roomId, prompt: 'Kai by the harbour' });
      const done = await until(
        () => client.room.checkJobStatus({ jobId: ref.jobId }),
        (status) => ['succeeded', 'failed', 'cancelled'].includes(status.state),
      );
      expect(done.state).toBe('succeeded');
      const row = await a.deps.db
        .selectFrom('messages')
        .select('image_file')
        .where('id', '=', ref.messageId)
        .executeTakeFirstOrThrow();
      expect(await s3.keys('pictures/')).toContain(`pictures/${row.image_file}`);

      // The link signed by A opens on B (one LINK_SECRET), from the bucket.
      const url = done.images[0]!;
      const [onA, onB] = [await from(a, url), await from(b, url)];
      expect(onA.status).toBe(200);
      expect(onB.status).toBe(200);
      expect(onB.headers.get('content-type')).toBe('image/webp');
      expect(onB.headers.get('cache-control')).toMatch(/^private/);
      const bytes = Buffer.from(await onB.arrayBuffer());
      expect(bytes.equals(Buffer.from(await onA.arrayBuffer()))).toBe(true);
      expect((await sharp(bytes).metadata()).format).toBe('webp');
      // Pictures are private: never under the public /media path.
      expect((await from(b, `/media/../pictures/${row.image_file}`)).status).toBe(404);
      expect((await from(b, `/media/%2e%2e/pictures/${row.image_file}`)).status).toBe(404);

      for (const dir of dataDirs) expect(filesUnder(dir, 'pictures')).toEqual([]);

      // Deleted through B (the session is in the shared database): the object goes, for A too.
      await clientOf(b).room.deleteMessage({ roomId, messageId: ref.messageId });
      expect(await s3.keys('pictures/')).not.toContain(`pictures/${row.image_file}`);
      expect((await from(a, url)).status).toBe(404);
    },
  );

  it.skipIf(skip)(
    'a voice clip made on A is kept in the bucket and served by B with Range',
    async () => {
      const roomId = await roomWithKai();
      const message = await appendMessage(a.deps.db, roomId, {
        role: 'mate',
        content: 'The harbour lights are coming on one by one.',
        status: 'complete',
      });
      const link = await client.speech.link({ messageId: message.id });
      // A makes it as it is first asked for, and keeps it.
      const made = new Uint8Array(await (await from(a, link.url)).arrayBuffer());
      const clip = await a.deps.db
        .selectFrom('speech_clips')
        .selectAll()
        .where('message_id', '=', message.id)
        .executeTakeFirstOrThrow();
      expect(clip).toMatchObject({ state: 'ready', mime_type: 'audio/mpeg' });
      expect(await s3.keys('speech/')).toEqual([`speech/${clip.file}`]);

      const whole = await from(b, link.url);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-type')).toBe('audio/mpeg');
      expect(new Uint8Array(await whole.arrayBuffer())).toEqual(made);
      const part = await from(b, link.url, { range: 'bytes=100-199' });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-199/${made.length}`);
      expect(new Uint8Array(await part.arrayBuffer())).toEqual(made.subarray(100, 200));
      for (const dir of dataDirs) expect(filesUnder(dir, 'speech')).toEqual([]);
    },
  );

  it.skipIf(!withPostgres)(
    'a clip first played through A and B at the same time is made once, by one of them',
    async () => {
      const roomId = await roomWithKai();
      const message = await appendMessage(a.deps.db, roomId, {
        role: 'mate',
        content: 'Two lanterns, one for each of us.',
        status: 'complete',
      });
      const link = await client.speech.link({ messageId: message.id });
      const calls: string[] = [];
      const restore = [a, b].map((server, index) => {
        const engine = server.deps.speech!;
        const real = engine.synthesize;
        engine.synthesize = async (...args) => {
          calls.push('AB'[index]!);
          // Slow enough that the other server is asked meanwhile.
          await new Promise((resolve) => setTimeout(resolve, 600));
          return real(...args);
        };
        return () => void (engine.synthesize = real);
      });
      try {
        const [fromA, fromB] = await Promise.all(
          [a, b].map(async (server) => {
            const answer = await from(server, link.url);
            expect(answer.status).toBe(200);
            return new Uint8Array(await answer.arrayBuffer());
          }),
        );
        expect(calls).toHaveLength(1);
        expect(fromB).toEqual(fromA);
        const clip = await a.deps.db
          .selectFrom('speech_clips')
          .selectAll()
          .where('message_id', '=', message.id)
          .executeTakeFirstOrThrow();
        expect(await s3.keys(`speech/${clip.file}`)).toEqual([`speech/${clip.file}`]);
      } finally {
        for (const undo of restore) undo();
      }
    },
  );
});

describe('when the bucket cannot be reached', () => {
  let s3: Awaited<ReturnType<typeof startS3Double>>;
  let engine: Awaited<ReturnType<typeof startAutomatic1111Double>>;
  let app: Awaited<ReturnType<typeof startTestServer>>;

  beforeAll(async () => {
    s3 = await startS3Double();
    engine = await startAutomatic1111Double();
    app = await startTestServer('sqlite', {
      env: { ...s3.env(), IMAGE_PROVIDER: 'automatic1111', IMAGE_BASE_URL: engine.url },
    });
    await app.deps.jobs.start();
  });
  afterAll(async () => {
    await app?.close();
    await engine?.close();
    await s3?.close();
  });

  it('answers a clear error, changes nothing, and goes on serving', async () => {
    const owner = 'outage-user';
    await insertUser(app.db, { id: owner, email: 'outage@example.com' });
    await grantBenefits(
      app.db,
      owner,
      { chats: 5, goldCoins: 20 },
      { kind: 'grant', reason: { text: 'test' }, reference: null },
    );
    const token = await createSession(app.db, owner);
    const client = app.client({ token });
    const mate = mateRow(owner, { visibility: 'private' });
    await app.db.insertInto('mates').values(mate).execute();
    const seeded = await app.db
      .selectFrom('mates')
      .select('avatar')
      .where('name', '=', 'Kai Tanaka')
      .executeTakeFirstOrThrow();
    expect((await fetch(app.base + seeded.avatar)).status).toBe(200);
    expect(await readiness(app.base)).toMatchObject({ http: 200, storage: 'up' });

    await s3.stop();
    // Reported, and logged once with the bucket's name; the server stays in rotation.
    expect(await readiness(app.base)).toMatchObject({ http: 200, storage: 'down' });
    expect(await readiness(app.base)).toMatchObject({ http: 200, storage: 'down' });
    expect(app.logs.filter((line) => line.startsWith('stored files cannot be reached'))).toEqual([
      `stored files cannot be reached (S3 bucket ${s3.bucket} at ${s3.endpoint})`,
    ]);
    await expect(
      client.mate.setPortrait({ mateId: mate.id, image: (await photo()).toString('base64') }),
    ).rejects.toMatchObject({ code: 5007, message: STORAGE_UNAVAILABLE });
    const row = await app.db
      .selectFrom('mates')
      .select('avatar')
      .where('id', '=', mate.id)
      .executeTakeFirstOrThrow();
    expect(row.avatar).toBe(mate.avatar);

    const media = await fetch(app.base + seeded.avatar);
    expect(media.status).toBe(503);
    expect(await media.text()).toBe(STORAGE_UNAVAILABLE);
    expect(app.logs.some((line) => line.includes(`bucket ${s3.bucket}`))).toBe(true);

    // A picture drawn while the bucket is down fails, says why in words, and gives coins back.
    const kai = await seededMate(app.db, 'Kai Tanaka');
    const { roomId } = await client.room.createRoom({ mateId: kai.id });
    engine.queue.push({ kind: 'ok' });
    const ref = await client.room.createImage({ roomId, prompt: 'Kai in the rain' });
    const failed = await until(
      () => client.room.checkJobStatus({ jobId: ref.jobId }),
      (status) => ['succeeded', 'failed', 'cancelled'].includes(status.state),
    );
    expect(failed).toMatchObject({ state: 'failed', error: PICTURE_NOT_STORED });
    expect((await client.user.benefits()).goldCoins).toBe(20);

    // A voice preview cannot be kept either: said as such, not as the voice engine's fault.
    await expect(client.voice.textToAudio({ text: 'Hello there.' })).rejects.toMatchObject({
      code: 5007,
      message: STORAGE_UNAVAILABLE,
    });

    // Everything that needs no stored file goes on.
    expect((await fetch(`${app.base}/api/health`)).status).toBe(200);
    const page = await client.mate.recommend();
    expect(page.list.length).toBeGreaterThan(0);
  });
});

describe('stored files in the DATA_DIR folder (the default)', () => {
  let app: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    app = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('serves portraits with their type, length, validators and ranges; nothing else', async () => {
    const { avatar } = await app.db
      .selectFrom('mates')
      .select('avatar')
      .where('name', '=', 'Kai Tanaka')
      .executeTakeFirstOrThrow();
    const file = path.join(app.deps.config.mediaDir, avatar.slice('/media/'.length));
    const size = fs.statSync(file).size;
    const whole = await fetch(app.base + avatar);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('image/svg+xml');
    expect(whole.headers.get('content-length')).toBe(String(size));
    expect(await whole.text()).toBe(fs.readFileSync(file, 'utf8'));
    const etag = whole.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"/);
    expect((await fetch(app.base + avatar, { headers: { 'if-none-match': etag } })).status).toBe(
      304,
    );
    const tail = await fetch(app.base + avatar, { headers: { range: 'bytes=-6' } });
    expect(tail.status).toBe(206);
    expect(await tail.text()).toBe('</svg>');
    const beyond = await fetch(app.base + avatar, { headers: { range: `bytes=${size + 1}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${size}`);

    // A missing file, a folder, and anything outside media/ are 404s, never the web app.
    for (const url of [
      '/media/avatars/no-such-face.svg',
      '/media/avatars',
      '/media/',
      '/media/%2e%2e/mates.db',
      '/media/..%2fpicture-secret',
      '/media/.hidden',
    ]) {
      const answer = await fetch(app.base + url);
      expect([url, answer.status]).toEqual([url, 404]);
      expect(answer.headers.get('content-type')).not.toMatch(/html/);
    }
    expect((await fetch(app.base + avatar, { method: 'POST' })).status).toBe(404);
  });

  it('keeps drawn pictures and voice in DATA_DIR/pictures and DATA_DIR/speech, as before', async () => {
    const png = await drawPng(8, 8);
    const { createPictureStore } = await import('../src/images/picture-store');
    const { mediaOf } = await import('../src/media/media-of');
    const pictures = createPictureStore(mediaOf(app.deps.config));
    const key = await pictures.put(png);
    expect(fs.readFileSync(path.join(app.deps.config.dataDir, 'pictures', key))).toEqual(png);
    expect(await pictures.get(key)).toEqual(png);
    await pictures.remove(key);
    expect(await pictures.get(key)).toBeNull();
  });

  it('reports in /api/ready whether the folder takes files, and says so once in the log', async () => {
    const { dataDir } = app.deps.config;
    const before = fs.readdirSync(dataDir);
    expect(await readiness(app.base)).toMatchObject({ http: 200, storage: 'up' });
    // The probe leaves nothing behind.
    expect(fs.readdirSync(dataDir)).toEqual(before);

    // The folder is gone (an unmounted volume): a file stands where it was.
    const away = `${dataDir}.away`;
    fs.renameSync(dataDir, away);
    fs.writeFileSync(dataDir, 'not a folder');
    try {
      expect(await readiness(app.base)).toMatchObject({ http: 200, storage: 'down' });
      expect(await readiness(app.base)).toMatchObject({ http: 200, storage: 'down' });
    } finally {
      fs.rmSync(dataDir);
      fs.renameSync(away, dataDir);
    }
    expect(await readiness(app.base)).toMatchObject({ http: 200, storage: 'up' });
    expect(app.logs.filter((line) => line.startsWith('stored files'))).toEqual([
      `stored files cannot be reached (folder ${dataDir})`,
      `stored files can be reached again (folder ${dataDir})`,
    ]);
  });
});
