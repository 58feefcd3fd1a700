import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Mate, MateSummary, Paged } from '@mates/api-client';
import {
  DIALECTS,
  createTestApp,
  mateRow,
  postgresAvailable,
  signUp,
  startTestServer,
  type TestApp,
  seededMate,
} from './harness';

const withPostgres = await postgresAvailable();

// #20: the catalog's listings are answered ahead of the app's middlewares (http/shared-calls.ts).
// Whoever asks must not be able to tell: the same answers, headers, log lines and metrics as
// the ordinary route of the same call, which still answers every refusal and failure.

/** Headers that differ from one answer to the next whatever answers them. */
const PER_ANSWER = new Set(['x-request-id', 'date', 'content-length', 'connection', 'keep-alive']);

const headersOf = (response: Response) =>
  Object.fromEntries([...response.headers].filter(([name]) => !PER_ANSWER.has(name)));

describe.each(DIALECTS)('catalog calls answered ahead of the middlewares, on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let app: TestApp;
  let lyra: string;
  beforeAll(async () => {
    if (skip) return;
    app = await createTestApp(dialect);
    lyra = (await seededMate(app.db, 'Lyra Moonwhisper')).id;
  });
  afterAll(async () => {
    if (!skip) await app.close();
  });
  const paths = () => [
    '/api/mate/recommend?pageSize=20',
    '/api/mate/recommend?tags=fantasy,cozy&pageSize=5',
    '/api/mate/search?keyword=lyra',
    '/api/mate/hotWords',
    '/api/mate/trendingRank',
    `/api/mate/getMateDetail?mateId=${lyra}`,
  ];

  it.skipIf(skip)('answers as the ordinary route does, headers and all', async () => {
    for (const path of paths()) {
      const ahead = await app.app.request(path);
      // A HEAD request is left to the ordinary route, which answers it as its GET, bodiless.
      const ordinary = await app.app.request(path, { method: 'HEAD' });
      expect(ahead.status, path).toBe(200);
      expect(ordinary.status, path).toBe(200);
      // The ETag is a digest of the body: equal ETags, equal bytes.
      expect(headersOf(ahead), path).toEqual(headersOf(ordinary));
      expect(headersOf(ahead).etag, path).toMatch(/^"[\w-]+"$/);
      expect(headersOf(ahead)['content-security-policy'], path).toContain("default-src 'self'");
      expect(headersOf(ahead)['x-frame-options'], path).toBe('DENY');
    }
  });

  it.skipIf(skip)('gives each answer its request id, the caller’s when it is plain', async () => {
    const own = await app.app.request('/api/mate/hotWords', {
      headers: { 'x-request-id': 'proxy-7f3a=' },
    });
    expect(own.headers.get('x-request-id')).toBe('proxy-7f3a=');
    for (const bad of ['two words', 'x'.repeat(129), '"quoted"']) {
      const replaced = await app.app.request('/api/mate/hotWords', {
        headers: { 'x-request-id': bad },
      });
      expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it.skipIf(skip)('writes one log line per answer and times it by route', async () => {
    const { userInfo, client } = await signUp(app);
    const before = app.logRecords.length;
    await client.mate.recommend({ pageSize: 3 });
    const lines = app.logRecords.slice(before).filter((line) => line.route !== undefined);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        userId: userInfo.uuid,
        method: 'GET',
        route: '/api/mate/recommend',
        path: '/api/mate/recommend',
        status: 200,
        reqId: expect.any(String),
        ms: expect.any(Number),
        msg: 'GET /api/mate/recommend 200',
      }),
    ]);
    const metrics = await app.deps.metrics.registry.metrics();
    expect(metrics).toMatch(
      /mates_http_request_duration_seconds_count\{[^}]*route="\/api\/mate\/recommend"[^}]*code="200"[^}]*\} [1-9]/,
    );
  });

  it.skipIf(skip)('reads the session: who may see adult mates sees them', async () => {
    const { client } = await signUp(app);
    const adultIds = async (ask: typeof client) => {
      const page: Paged<MateSummary> = await ask.mate.recommend({ pageSize: 50 });
      return page.list.filter((mate) => mate.nsfw).map((mate) => mate.mateId);
    };
    expect(await adultIds(client)).toEqual([]);
    expect(await adultIds(app.client())).toEqual([]);
    await client.user.updateTags({ tags: [], nfsw: true });
    expect((await adultIds(client)).length).toBeGreaterThan(0);
  });

  it.skipIf(skip)('tells a creator more about their own mate than anyone else', async () => {
    const { userInfo, client } = await signUp(app);
    const own = mateRow(userInfo.uuid);
    await app.db.insertInto('mates').values(own).execute();
    await app.db
      .updateTable('mates')
      .set({
        hidden_at: new Date().toISOString(),
        hidden_reason: 'other',
        hidden_note: 'Reads like an advertisement.',
      })
      .where('id', '=', own.id)
      .execute();
    // Why moderators hid it is told to its creator (and administrators) only.
    const mate: Mate = await client.mate.getMateDetail({ mateId: own.id });
    expect(mate.moderation?.note).toBe('Reads like an advertisement.');
    await expect(app.client().mate.getMateDetail({ mateId: own.id })).rejects.toMatchObject({
      code: 4004,
    });
    // Not a shared answer: no ETag that another caller's copy could match.
    const response = await app.app.request(`/api/mate/getMateDetail?mateId=${own.id}`, {
      headers: { token: userInfo.token },
    });
    expect(response.headers.get('etag')).toBeNull();
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it.skipIf(skip)(
    'leaves refusals to the ordinary route: its envelope, language and log line',
    async () => {
      const nsfw = await app.db
        .selectFrom('mates')
        .select('id')
        .where('nsfw', '=', true as never)
        .executeTakeFirstOrThrow();
      const cases: [string, number][] = [
        ['/api/mate/recommend?pageSize=0', 4000],
        ['/api/mate/getMateDetail?mateId=nobody', 4004],
        [`/api/mate/getMateDetail?mateId=${nsfw.id}`, 4003],
      ];
      for (const [path, code] of cases) {
        const before = app.logRecords.length;
        const response = await app.app.request(path, { headers: { language: 'zh' } });
        const envelope = (await response.json()) as Envelope<null>;
        expect(envelope.c, path).toBe(code);
        expect(envelope.m, path).not.toBe('');
        expect(response.headers.get('x-frame-options'), path).toBe('DENY');
        const lines = app.logRecords.slice(before).filter((line) => line.route !== undefined);
        expect(lines, path).toHaveLength(1);
      }
    },
  );
});

describe('catalog calls ahead of the middlewares, over HTTP', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(() => server.close());

  /** A GET with Node's own client: the status, headers and body bytes as they came. */
  const get = (path: string, headers: Record<string, string>) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
      (resolve, reject) => {
        http
          .get(`${server.base}${path}`, { headers }, (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () =>
              resolve({
                status: response.statusCode!,
                headers: response.headers,
                body: Buffer.concat(chunks),
              }),
            );
          })
          .once('error', reject);
      },
    );

  it('sends the whole answer, its length, and 304 to a caller that holds it', async () => {
    const path = '/api/mate/recommend?pageSize=20';
    const first = await get(path, {});
    expect(first.status).toBe(200);
    expect(Number(first.headers['content-length'])).toBe(first.body.byteLength);
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.headers['content-encoding']).toBeUndefined();
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    const envelope = JSON.parse(first.body.toString()) as Envelope<Paged<MateSummary>>;
    expect(envelope.d.list).toHaveLength(20);
    const again = await get(path, { 'if-none-match': first.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.byteLength).toBe(0);
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });
});
