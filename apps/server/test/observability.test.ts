import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ChatStreamEvent } from '@mates/api-client';
import { ConfigError, loadConfig } from '../src/config';
import { startServer } from '../src/server';
import { prettyLogs } from '../src/logging/logger';
import {
  createTestApp,
  postgresAvailable,
  signUp,
  type startTestServer,
  seededMate,
} from './harness';
import { startOnOpenAiDouble } from './openai-server';
import { startOpenAiDouble } from './openai-double';
import { captureLog } from './log-capture';

// Issue #18: structured logs (pino) with a request id and the user, never a secret; and
// Prometheus metrics (prom-client) that a scraper can read, never the web app's page.

type Server = Awaited<ReturnType<typeof startTestServer>>;
const withPostgres = await postgresAvailable();

/** The value of a sample line of Prometheus text: `name{labels} value`, matched by its start. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  const line = text
    .split('\n')
    .find(
      (row) =>
        (row.startsWith(`${name}{`) || row.startsWith(`${name} `)) &&
        Object.entries(labels).every(([key, value]) => row.includes(`${key}="${value}"`)),
    );
  return line === undefined ? null : Number(line.slice(line.lastIndexOf(' ') + 1));
}

async function send(client: ApiClient, roomId: string, content: string) {
  const events: ChatStreamEvent[] = [];
  await client.girl.chatSend({ roomId, content }, { onData: (event) => void events.push(event) });
  return events;
}

async function newRoom(server: Server) {
  const user = await signUp(server);
  const mate = await seededMate(server.db, 'Kai Tanaka');
  return { ...user, room: await user.client.room.createRoom({ mateId: mate.id }) };
}

describe('logs and metrics of a server', () => {
  let chat: Awaited<ReturnType<typeof startOnOpenAiDouble>>;
  let server: Server;
  beforeAll(async () => {
    chat = await startOnOpenAiDouble();
    server = chat.server;
  });
  afterAll(() => chat.close());

  const metrics = async () => {
    const response = await fetch(`${server.base}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  it("echoes the caller's X-Request-Id, and logs the request with it and the user", async () => {
    const { userInfo } = await signUp(server);
    const response = await fetch(`${server.base}/api/user/benefits`, {
      headers: { token: userInfo.token, 'X-Request-Id': 'trace-4f2a_77' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('trace-4f2a_77');
    const line = server.logRecords.find((record) => record.reqId === 'trace-4f2a_77');
    expect(line).toMatchObject({
      reqId: 'trace-4f2a_77',
      userId: userInfo.uuid,
      method: 'GET',
      route: '/api/user/benefits',
      path: '/api/user/benefits',
      status: 200,
      level: 30,
    });
    expect(typeof line!.ms).toBe('number');
  });

  it('gives a request without a usable id a new one, sent back and logged', async () => {
    for (const sent of [undefined, 'has spaces and <tags>', 'x'.repeat(200)]) {
      const response = await fetch(`${server.base}/api/extra/tags`, {
        headers: sent ? { 'X-Request-Id': sent } : {},
      });
      const id = response.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(server.logRecords.find((record) => record.reqId === id)).toMatchObject({
        route: '/api/extra/tags',
        status: 200,
      });
    }
    // An anonymous call names no user.
    expect(
      server.logRecords.findLast((record) => record.route === '/api/extra/tags'),
    ).not.toHaveProperty('userId');
  });

  it('never writes a password, a session token, a key or a token from a query string', async () => {
    const email = `secret-${Date.now()}@example.com`;
    // Registers with "correct horse", and verifies through the mailed link (its token in the query).
    const { userInfo } = await signUp(server, email);
    const again = await server.client().user.login({ email, password: 'correct horse' });
    await fetch(`${server.base}/api/user/benefits?token=query-secret-9137`, {
      headers: {
        token: again.token,
        authorization: 'Bearer sk-live-header-secret-5521',
        cookie: 'session=cookie-secret-8812',
        'stripe-signature': 't=1,v1=stripe-signature-secret-3301',
      },
    });
    const mail = server.mailer as unknown as { sent: { to: string; text: string }[] };
    const link = mail.sent.find((sent) => sent.to === email)!.text.match(/token=([\w-]+)/)![1]!;
    const written = server.logText();
    expect(written).toContain(`"userId":"${userInfo.uuid}"`);
    for (const secret of [
      'correct horse',
      userInfo.token,
      again.token,
      link,
      'query-secret-9137',
      'sk-live-header-secret-5521',
      'cookie-secret-8812',
      'stripe-signature-secret-3301',
    ]) {
      expect(written).not.toContain(secret);
    }
  });

  it('counts requests by route pattern and status code', async () => {
    await fetch(`${server.base}/api/extra/tags`);
    await fetch(`${server.base}/api/no/such/call`);
    const text = await metrics();
    const count = (route: string, code: string) =>
      sample(text, 'mates_http_request_duration_seconds_count', { route, code, method: 'GET' });
    expect(count('/api/extra/tags', '200')).toBeGreaterThanOrEqual(1);
    // An unknown path is counted under the pattern that answered it, not as a new series.
    expect(count('/api/*', '200')).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('/api/no/such/call');
    // Node's own metrics, with the same prefix.
    expect(sample(text, 'mates_process_cpu_user_seconds_total')).not.toBeNull();
    expect(sample(text, 'mates_nodejs_heap_size_total_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'mates_sqlite_database_bytes')).toBeGreaterThan(0);
  });

  it('measures a chat reply: the stream open while it is written, its first token and its speed', async () => {
    const { client, room } = await newRoom(server);
    // Two pieces, then silence with the connection open: the reply is still being written.
    chat.double.next({ kind: 'stall', pieces: ['The tide ', 'turns'] });
    const controller = new AbortController();
    let whileOpen = '';
    let asked = false;
    await client.girl
      .chatSend(
        { roomId: room.roomId, content: 'Hello' },
        {
          signal: controller.signal,
          onData: (event) => {
            // At the first words (the two pieces may come as one delta).
            if (event.type === 'reply-delta' && !asked) {
              asked = true;
              void metrics().then((text) => {
                whileOpen = text;
                controller.abort();
              });
            }
          },
        },
      )
      .catch(() => {});
    expect(sample(whileOpen, 'mates_chat_streams_open')).toBe(1);
    expect(sample(whileOpen, 'mates_model_generations', { state: 'running' })).toBe(1);
    expect(sample(whileOpen, 'mates_model_time_to_first_token_seconds_count')).toBe(1);
    // Once the reader left, the reply ends (saved as far as it got) and the stream closes.
    await server.deps.chat.whenIdle();
    const after = await send(client, room.roomId, 'And now?');
    expect(after.at(-1)).toMatchObject({ type: 'reply-end' });
    const text = await metrics();
    expect(sample(text, 'mates_chat_streams_open')).toBe(0);
    expect(sample(text, 'mates_model_generations', { state: 'running' })).toBe(0);
    expect(sample(text, 'mates_model_queue_depth')).toBe(0);
    expect(sample(text, 'mates_model_time_to_first_token_seconds_count')).toBe(2);
    expect(sample(text, 'mates_model_tokens_per_second_count')).toBeGreaterThanOrEqual(1);
    const stream = server.logRecords.find(
      (record) => record.route === '/api/girl/chat/send' && record.status === 200,
    );
    expect(stream?.reqId).toEqual(expect.any(String));
  });

  it("counts the prompt's tokens read anew and taken from the provider's cache, where it says", async () => {
    const { client, room } = await newRoom(server);
    const before = await metrics();
    const read = sample(before, 'mates_model_prompt_tokens_total', { source: 'read' }) ?? 0;
    const cached = sample(before, 'mates_model_prompt_tokens_total', { source: 'cache' }) ?? 0;
    // Of 42 prompt tokens, 30 held from the last message (OpenAI's prompt_tokens_details).
    chat.double.next({ kind: 'stream', pieces: ['Welcome', ' back.'], cachedTokens: 30 });
    expect((await send(client, room.roomId, 'Hi')).at(-1)).toMatchObject({ type: 'reply-end' });
    // A provider that does not say what it cached adds to neither.
    chat.double.next({ kind: 'stream', pieces: ['Again.'] });
    expect((await send(client, room.roomId, 'Hi')).at(-1)).toMatchObject({ type: 'reply-end' });
    const after = await metrics();
    expect(sample(after, 'mates_model_prompt_tokens_total', { source: 'cache' })).toBe(cached + 30);
    expect(sample(after, 'mates_model_prompt_tokens_total', { source: 'read' })).toBe(read + 12);
  });

  it("counts the model's busy refusals", async () => {
    const { client, room } = await newRoom(server);
    const before = sample(await metrics(), 'mates_model_busy_refusals_total');
    expect(before).toBe(0);
    chat.double.next({ kind: 'status', status: 429, body: { error: { message: 'slow down' } } });
    const events = await send(client, room.roomId, 'Hi');
    expect(events.at(-1)).toMatchObject({ type: 'error' });
    expect(sample(await metrics(), 'mates_model_busy_refusals_total')).toBe(1);
    // The provider's detail is the operator's, with the request's id.
    const line = server.logRecords.find((record) => record.msg.includes('slow down'));
    expect(line).toMatchObject({ level: 40, reqId: expect.any(String) });
  });
});

describe('errors, jobs and the database in the metrics and logs', () => {
  it('logs an error the app handled with the request id, and counts it under its route', async () => {
    const app = await createTestApp('sqlite');
    try {
      // The table is gone: the call fails in a way nobody planned for.
      await sql`alter table tags rename to tags_gone`.execute(app.db);
      const response = await app.app.request('/api/extra/tags', {
        headers: { 'X-Request-Id': 'broken-1' },
      });
      expect(await response.json()).toMatchObject({ c: 5000 });
      expect(response.headers.get('x-request-id')).toBe('broken-1');
      const error = app.logRecords.find((record) => record.msg.startsWith('error in GET'));
      expect(error).toMatchObject({ reqId: 'broken-1', level: 50 });
      expect(error!.err).toMatchObject({ message: expect.stringMatching(/no such table: tags/) });
      const text = await (await app.app.request('/metrics')).text();
      expect(
        sample(text, 'mates_http_request_duration_seconds_count', {
          route: '/api/extra/tags',
          code: '200',
        }),
      ).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('counts failed jobs by kind, and the jobs queued or running', async () => {
    const app = await createTestApp('sqlite');
    try {
      app.deps.jobs.define('test.fails', async () => {
        throw new Error('the engine broke');
      });
      await app.deps.jobs.start();
      const id = await app.deps.jobs.enqueue('test.fails', {});
      while ((await app.deps.jobs.status(id))?.state !== 'failed') {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const text = await (await app.app.request('/metrics')).text();
      expect(sample(text, 'mates_job_failures_total', { kind: 'test.fails' })).toBe(1);
      // None left queued or running (a kind never seen so has no series yet).
      expect(sample(text, 'mates_jobs', { kind: 'test.fails', state: 'queued' }) ?? 0).toBe(0);
      expect(sample(text, 'mates_jobs', { kind: 'test.fails', state: 'running' }) ?? 0).toBe(0);
      expect(text).toContain('# TYPE mates_jobs gauge');
    } finally {
      await app.close();
    }
  });

  it.skipIf(!withPostgres)("reports PostgreSQL's pool: open, idle and waiting", async () => {
    const app = await createTestApp('postgres');
    try {
      const text = await (await app.app.request('/metrics')).text();
      expect(sample(text, 'mates_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
      expect(sample(text, 'mates_db_pool_connections', { state: 'idle' })).not.toBeNull();
      // The scrape's own reads may be waiting for a connection while the pool opens one.
      expect(sample(text, 'mates_db_pool_connections', { state: 'waiting' })).not.toBeNull();
      expect(text).not.toContain('mates_sqlite_database_bytes');
    } finally {
      await app.close();
    }
  });
});

describe('where the metrics are answered', () => {
  it('never answers the web app at the metrics path: 404 when they are off or elsewhere', async () => {
    const settings: Record<string, string>[] = [{ METRICS_PATH: 'off' }, { METRICS_PORT: '47150' }];
    for (const env of settings) {
      const app = await createTestApp('sqlite', { env });
      try {
        const response = await app.app.request('/metrics');
        expect(response.status).toBe(404);
        expect(response.headers.get('content-type')).not.toMatch(/html/);
      } finally {
        await app.close();
      }
    }
    const moved = await createTestApp('sqlite', { env: { METRICS_PATH: '/internal/prom' } });
    try {
      expect((await moved.app.request('/internal/prom')).status).toBe(200);
      expect((await moved.app.request('/metrics')).headers.get('content-type')).toMatch(/html/);
    } finally {
      await moved.close();
    }
  });

  it('serves them on a port of their own with METRICS_PORT, and only them', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-metrics-'));
    const double = await startOpenAiDouble();
    const log = captureLog();
    const running = await startServer(
      loadConfig({
        DATA_DIR: dataDir,
        PORT: '0',
        METRICS_PORT: '0',
        LLM_PROVIDER: 'openai',
        LLM_BASE_URL: double.baseUrl,
        LLM_API_KEY: 'sk-test',
        LLM_MODEL: 'mate-model',
        SPEECH_PROVIDER: 'none',
      }),
      log.logger,
    );
    try {
      expect(running.metricsUrl).toMatch(/^http:\/\/localhost:\d+\/metrics$/);
      await fetch(`${running.url}/api/extra/tags`);
      const scrape = await fetch(running.metricsUrl!);
      expect(scrape.status).toBe(200);
      expect(
        sample(await scrape.text(), 'mates_http_request_duration_seconds_count', {
          route: '/api/extra/tags',
        }),
      ).toBe(1);
      const elsewhere = await fetch(running.metricsUrl!.replace(/\/metrics$/, '/'));
      expect(elsewhere.status).toBe(404);
      expect((await fetch(`${running.url}/metrics`)).status).toBe(404);
      expect(log.lines).toContain(`metrics: ${running.metricsUrl} (Prometheus)`);
      expect(log.lines.some((line) => line.startsWith('language model: OpenAI-compatible'))).toBe(
        true,
      );
    } finally {
      await running.close();
      await double.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('logging and metrics settings', () => {
  it('reads LOG_LEVEL, LOG_FORMAT, METRICS_PATH and METRICS_PORT, refusing nonsense plainly', () => {
    expect(loadConfig({}).log).toEqual({ level: 'info', format: 'auto' });
    expect(loadConfig({}).metrics).toEqual({ path: '/metrics', port: undefined });
    expect(loadConfig({ LOG_LEVEL: 'debug', LOG_FORMAT: 'json' }).log).toEqual({
      level: 'debug',
      format: 'json',
    });
    expect(loadConfig({ METRICS_PATH: 'off' }).metrics).toBeNull();
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ path: '/metrics', port: 9464 });
    const refused = (env: Record<string, string>) => () => loadConfig(env);
    expect(refused({ LOG_LEVEL: 'loud' })).toThrow(ConfigError);
    expect(refused({ LOG_FORMAT: 'xml' })).toThrow(/^Invalid LOG_FORMAT/);
    expect(refused({ METRICS_PATH: 'metrics' })).toThrow(/^Invalid METRICS_PATH: must be a path/);
    expect(refused({ METRICS_PATH: '/' })).toThrow(/^Invalid METRICS_PATH/);
    expect(refused({ METRICS_PORT: '3000' })).toThrow(
      /^Invalid METRICS_PORT: it is the server's own PORT/,
    );
    expect(refused({ METRICS_PATH: 'off', METRICS_PORT: '9464' })).toThrow(/^Invalid METRICS_PORT/);
  });

  it('writes for people only in development on a terminal, unless told', () => {
    expect(prettyLogs('auto', { nodeEnv: undefined, tty: true })).toBe(true);
    expect(prettyLogs('auto', { nodeEnv: 'production', tty: true })).toBe(false);
    expect(prettyLogs('auto', { nodeEnv: 'development', tty: false })).toBe(false);
    expect(prettyLogs('pretty', { nodeEnv: 'production', tty: false })).toBe(true);
    expect(prettyLogs('json', { nodeEnv: undefined, tty: true })).toBe(false);
  });

  // Lines are written in batches (logDestination): none may wait for others to come, and none
  // may be lost when the process ends at once.
  it('writes a line that comes alone, and every line of a process that exits at once', async () => {
    const logger = path.resolve(import.meta.dirname, '../src/logging/logger.ts');
    const script = `
      import { createLogger } from ${JSON.stringify(logger)};
      const log = createLogger({ level: 'info', format: 'json' });
      log.info('alone');
      process.stdin.once('data', () => {
        for (let line = 0; line < 2000; line++) log.info({ line }, 'one of many');
        process.exit(0);
      });`;
    const child = spawn(
      process.execPath,
      ['--conditions=@mates/source', '--import', 'tsx', '--input-type=module', '-e', script],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (piece: string) => (output += piece));
    // Once its output is closed too: all it wrote has been read.
    const exited = new Promise((resolve) => child.once('close', resolve));
    // Nothing else is logged meanwhile: the line must go out on its own.
    await vi.waitFor(() => expect(output).toContain('"msg":"alone"'), { timeout: 10_000 });
    child.stdin.end('go');
    expect(await exited).toBe(0);
    const lines = output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string });
    expect(lines.map((line) => line.msg)).toEqual(['alone', ...Array(2000).fill('one of many')]);
  });
});
