import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import pg from 'pg';
import type { Kysely } from 'kysely';
import { serve } from '@hono/node-server';
import {
  createApiClient,
  type ApiClient,
  type ChatSendPayload,
  type Mate,
  type SaveMatePayload,
} from '@mates/api-client';
import { loadConfig, type Config } from '../src/config';
import { connect, type Db } from '../src/db/connect';
import { migrateToLatest } from '../src/db/migrate';
import { seedIfEmpty } from '../src/seed/seed';
import { mediaOf } from '../src/media/media-of';
import { applyPackages } from '../src/payments/packages-file';
import { createApp } from '../src/app';
import { createRateLimits } from '../src/accounts/rate-limits';
import type { Mail, Mailer } from '../src/mail/mailer';
import type { Deps } from '../src/http/context';
import { createImageEngine } from '../src/images/create-engine';
import { createSpeechEngine } from '../src/voice/create-speech';
import type { Database, MateTable, RoomTable, UserTable } from '../src/db/schema';
import { createChatService } from '../src/chat/chat-service';
import type { LanguageModel } from '../src/llm/language-model';
import { createOpenAiModel } from '../src/llm/openai';
import { newMateRow, type NewMate } from '../src/catalog/mate-repository';
import { createJobQueue } from '../src/jobs/create-job-queue';
import { createTranscriptionEngine } from '../src/voice/create-transcription';
import { silentLogger, type Logger } from '../src/logging/logger';
import { createEmbeddedModel } from '../src/llm/embedded';
import type { PromptSource } from '../src/chat/prompt';
import { sendTurn } from '../src/chat/send-service';
import { createMetrics } from '../src/metrics/metrics';
import { instrumentModel } from '../src/metrics/instrument-model';
import { watchServer } from '../src/metrics/watch-server';
import { captureLog } from './log-capture';
import type { RedisLink } from '../src/redis/connect-redis';
import { attachCalls, callHubOf } from '../src/voice/call-socket';

/** Where PostgreSQL tests connect; `.ci/run` starts the server this points at. */
export const POSTGRES_ADMIN_URL =
  process.env.MATES_TEST_POSTGRES_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

/** Whether PostgreSQL answers; when it does not, its half of each suite is skipped, saying why. */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({
    connectionString: POSTGRES_ADMIN_URL,
    connectionTimeoutMillis: 2000,
  });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch (error) {
    if (process.env.CI) {
      throw new Error(`PostgreSQL is required in CI: ${(error as Error).message}`, {
        cause: error,
      });
    }
    console.warn(
      `PostgreSQL tests skipped: cannot reach ${POSTGRES_ADMIN_URL} (${(error as Error).message})`,
    );
    return false;
  }
}

/** The dialects to run each suite on. */
export const DIALECTS = ['sqlite', 'postgres'] as const;

/**
 * A fresh database of one dialect, migrated; `drop()` removes it. `log` gets the pool's lines;
 * `url` is PostgreSQL's connection string (absent for SQLite).
 */
export async function freshDatabase(
  dialect: 'sqlite' | 'postgres',
  log?: Logger,
): Promise<Db & { drop: () => Promise<void>; url?: string }> {
  const database = await emptyDatabase(dialect, log);
  await migrateToLatest(database.db as never, database.dialect);
  return database;
}

/** A fresh database of one dialect with no tables yet; `drop()` removes it. */
export async function emptyDatabase(
  dialect: 'sqlite' | 'postgres',
  log?: Logger,
): Promise<Db & { drop: () => Promise<void>; url?: string }> {
  if (dialect === 'sqlite') {
    const db = connect({ sqliteFile: ':memory:' });
    return { ...db, drop: db.close };
  }
  const name = `mates_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const db = connect({ databaseUrl: url.toString(), sqliteFile: '', log });
  return {
    ...db,
    url: url.toString(),
    drop: async () => {
      await db.close();
      const cleanup = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/** A mailer that keeps what it sends, for tests that need no SMTP listener. */
export function memoryMailer(): Mailer & { sent: Mail[] } {
  const sent: Mail[] = [];
  return { sent, send: async (mail) => void sent.push(mail), describe: () => 'memory' };
}

/** A seeded app on a fresh database, with a client that calls it through `app.request`. */
export async function createTestApp(
  dialect: 'sqlite' | 'postgres',
  overrides: {
    env?: Record<string, string>;
    mailer?: Mailer;
    fetch?: typeof fetch;
    model?: LanguageModel;
    /** How often a growing reply is saved (default 1 s). */
    saveEveryMs?: number;
    /** Redis for shared state, as `REDIS_URL` gives a server (the test closes it). */
    redis?: RedisLink;
  } = {},
) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-test-'));
  const config: Config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://mates.test',
    ...overrides.env,
  });
  // What the server logs, kept: `logs` has each line's message, `logRecords` the JSON lines.
  const { logger, lines: logs, records: logRecords, text: logText } = captureLog();
  const database = await freshDatabase(dialect, logger);
  const metrics = createMetrics();
  await seedIfEmpty(database.db, { media: mediaOf(config) });
  if (config.packages) await applyPackages(database.db, config.packages);
  const mailer = overrides.mailer ?? memoryMailer();
  // Built but not started: a test that runs jobs calls `deps.jobs.start()` (pg-boss then
  // installs its schema in this test's database); `close()` stops it.
  const jobs = createJobQueue({
    db: database.db,
    dialect: database.dialect,
    databaseUrl: database.url,
    dataDir,
    log: logger,
    onJobFailed: (kind) => metrics.jobFailures.inc({ kind }),
  });
  const deps: Deps = {
    db: database.db,
    dialect: database.dialect,
    config,
    mailer,
    // Every test request comes from one address; the rate-limit tests put real limits back.
    limits: createRateLimits(1000),
    chat: createChatService(instrumentModel(overrides.model ?? unconfiguredModel(), metrics), {
      saveEveryMs: overrides.saveEveryMs,
    }),
    images: createImageEngine(config.image, overrides.fetch ?? globalThis.fetch, logger),
    speech: createSpeechEngine(
      config.speech,
      config.speechRemote,
      overrides.fetch ?? globalThis.fetch,
      logger,
    ),
    transcription: createTranscriptionEngine(
      config.transcription,
      overrides.fetch ?? globalThis.fetch,
      logger,
    ),
    fetch: overrides.fetch ?? globalThis.fetch,
    jobs,
    log: logger,
    metrics,
    ...(overrides.redis && { redis: overrides.redis }),
  };
  watchServer(metrics, { chat: deps.chat, db: database.db, database });
  const app = createApp(deps);
  /** A client as a browser would hold it: its own token and language. */
  const client = (session: { token?: string; language?: string } = {}): ApiClient =>
    createApiClient({
      baseUrl: 'http://mates.test/api',
      fetch: (input, init) => Promise.resolve(app.request(String(input), init)),
      getToken: () => session.token ?? '',
      getLanguage: () => session.language ?? 'en',
    });
  return {
    app,
    deps,
    db: database.db,
    client,
    logs,
    logRecords,
    logText,
    mailer,
    close: async () => {
      await jobs.stop();
      await deps.speech?.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A seeded mate's row (its id), found by its name, e.g. `'Kai Tanaka'`; throws when there is none. */
export function seededMate(db: Kysely<Database>, name: string): Promise<{ id: string }> {
  return db.selectFrom('mates').select('id').where('name', '=', name).executeTakeFirstOrThrow();
}

/**
 * A seeded mate any new account may chat with: public and not adult (a new account has adult
 * content turned off). Seeded mates come in no set order, so a test that took the first row
 * sometimes got an adult one and "Mate not found.".
 */
export function chattableMateId(db: Kysely<Database>): Promise<string> {
  return db
    .selectFrom('mates')
    .select('id')
    .where('nsfw', '=', false)
    .where('visibility', '=', 'public')
    .orderBy('id')
    .executeTakeFirstOrThrow()
    .then((mate) => mate.id);
}

/** The id of a room's newest message (its last reply, after a send). */
export function newestMessageId(db: Kysely<Database>, roomId: string): Promise<string> {
  return db
    .selectFrom('messages')
    .select('id')
    .where('room_id', '=', roomId)
    .orderBy('position', 'desc')
    .executeTakeFirstOrThrow()
    .then((message) => message.id);
}

/** A user's row and, when asked, one of their rooms' rows: what a service takes, read as stored. */
export async function rowsOf(db: Kysely<Database>, userId: string): Promise<{ user: UserTable }>;
export async function rowsOf(
  db: Kysely<Database>,
  userId: string,
  roomId: string,
): Promise<{ user: UserTable; room: RoomTable }>;
export async function rowsOf(
  db: Kysely<Database>,
  userId: string,
  roomId?: string,
): Promise<{ user: UserTable; room?: RoomTable }> {
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  if (roomId === undefined) return { user };
  const room = await db
    .selectFrom('rooms')
    .selectAll()
    .where('id', '=', roomId)
    .executeTakeFirstOrThrow();
  return { user, room };
}

/** The app of {@link createTestApp}. */
export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** The verification link in a mail's text. */
export function linkIn(mail: { text: string }): string {
  const match = /https?:\/\/\S+\/api\/user\/verify\/confirm\?token=\S+/.exec(mail.text);
  if (!match) throw new Error(`no verification link in: ${mail.text}`);
  return match[0];
}

/** Registers, verifies through the mailed link, and signs in through verify-status. */
export async function signUp(
  app: TestApp,
  email = `u${randomBytes(4).toString('hex')}@example.com`,
) {
  const { verifyTicket } = await app.client().user.register({ email, password: 'correct horse' });
  // Sign-ups may run side by side: read this address's own mail, not the latest one.
  const mail = (app.mailer as ReturnType<typeof memoryMailer>).sent
    .filter((sent) => sent.to === email.toLowerCase())
    .at(-1)!;
  const link = new URL(linkIn(mail));
  // The link's page asks for a press of its button, which posts back to the same address.
  await app.app.request(link.pathname + link.search, { method: 'POST' });
  const { userInfo } = await app.client().user.verifyStatus({ email, verifyTicket });
  if (!userInfo) throw new Error('verification did not sign in');
  return { userInfo, client: app.client({ token: userInfo.token }) };
}

/** A user row written straight to `db` (no mail, no verification), for tests below the API. */
export async function insertUser(
  db: Kysely<Database>,
  user: { id: string; email: string; nickname?: string },
): Promise<void> {
  const at = new Date().toISOString();
  await db
    .insertInto('users')
    .values({
      id: user.id,
      email: user.email,
      password_hash: null,
      nickname: user.nickname ?? user.id,
      bio: '',
      language: 'en',
      nfsw: false,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

/**
 * People who chat in tests below the API (trending, chat counts), by id: their user rows, which
 * a chat is counted for only while they exist (an account deleted mid-reply is not counted).
 */
export async function chatters(db: Kysely<Database>, ids: string[]): Promise<void> {
  for (const id of ids) await insertUser(db, { id, email: `${id}@chatters.test` });
}

/** A drawn picture's message, written straight to `db` at `position` of room `roomId`: its id. */
export async function insertPictureMessage(
  db: Kysely<Database>,
  picture: { roomId: string; position: number; file: string; prompt?: string },
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('messages')
    .values({
      id,
      room_id: picture.roomId,
      position: picture.position,
      role: 'mate',
      content: '',
      status: 'complete',
      created_at: new Date().toISOString(),
      edited_at: null,
      swipes: null,
      swipe_index: 0,
      image_prompt: picture.prompt ?? 'a lighthouse at dusk',
      image_size: '1024x1024',
      image_job_id: null,
      image_file: picture.file,
      image_error: null,
      image_model: null,
      image_share_id: null,
    })
    .execute();
  return id;
}

/** A message's spoken clip, made and paid (nothing), written straight to `db` with its file. */
export async function insertSpeechClip(
  db: Kysely<Database>,
  clip: { messageId: string; userId: string; file: string },
): Promise<void> {
  await db
    .insertInto('speech_clips')
    .values({
      id: randomUUID(),
      message_id: clip.messageId,
      voice: 'alloy',
      text_hash: 'x'.repeat(64),
      file: clip.file,
      mime_type: 'audio/mpeg',
      duration_ms: 1000,
      cost: 0,
      user_id: clip.userId,
      state: 'ready',
      making_until: null,
      created_at: new Date().toISOString(),
    })
    .execute();
}

/** A complete mate row for tests. */
export function mateRow(creatorId: string, overrides: Partial<NewMate> = {}): MateTable {
  return newMateRow({
    id: randomBytes(8).toString('hex'),
    creator_id: creatorId,
    name: 'Test Mate',
    tagline: 'A mate made for a test.',
    description: 'Exists only in tests.',
    personality: 'precise',
    scenario: 'A test run.',
    first_mes: 'Hello, {{user}}.',
    mes_example: '',
    creator_notes: '',
    system_prompt: '',
    alternate_greetings: [],
    tags: ['fantasy'],
    avatar: '/media/avatars/test.svg',
    gender: 'female',
    nsfw: false,
    visibility: 'public',
    ...overrides,
  });
}

/** A language model that answers through an OpenAI-compatible double (test/openai-double.ts). */
export function doubleModel(double: { baseUrl: string }): LanguageModel {
  return createOpenAiModel({
    baseUrl: double.baseUrl,
    apiKey: 'sk-test',
    model: 'mate-model',
    contextSize: 8192,
  });
}

/** A model that says it is not configured: for suites that do not chat. */
export function unconfiguredModel(): LanguageModel {
  return {
    contextSize: 2048,
    countTokens: (text) => Math.ceil(text.length / 4),
    unavailableReason: () => 'No language model is configured in this test.',
    describe: () => 'none',
    generate: () => Promise.reject(new Error('not configured')),
    close: async () => {},
  };
}

/** The tiny real GGUF model the embedded-provider tests run on (`fixtures/models`). */
export const TEST_GGUF =
  process.env.MATES_TEST_GGUF ??
  path.resolve(import.meta.dirname, '../../../fixtures/models/stories260K.gguf');

/** The tiny GGUF loaded by the embedded provider (one thread), ready to generate. */
export async function tinyModel(
  options: { contextSize?: number; parallel?: number } = {},
): Promise<ReturnType<typeof createEmbeddedModel>> {
  const parallel = options.parallel ?? 1;
  const model = createEmbeddedModel({
    model: TEST_GGUF,
    modelsDir: os.tmpdir(),
    threads: 1,
    contextSize: options.contextSize ?? 2048,
    parallel,
    queue: parallel,
    log: silentLogger(),
  });
  await model.ready;
  return model;
}

/**
 * What `fittingTurns` reads of a room held in memory: `history` (its positions are its
 * indexes), its `recent` newest, with the rest of `source`.
 */
export function historyReader(
  source: Omit<PromptSource, 'history' | 'language'>,
  history: PromptSource['history'],
) {
  return async (recent: number) => {
    const from = Math.max(0, history.length - recent);
    return {
      ...source,
      language: 'en',
      history: history.slice(from),
      wholeHistory: from === 0,
      positions: history.map((_, index) => index).slice(from),
    };
  };
}

/** A seeded app listening on 127.0.0.1, with clients that use real HTTP. */
export async function startTestServer(
  dialect: 'sqlite' | 'postgres',
  overrides: Parameters<typeof createTestApp>[1] = {},
) {
  const test = await createTestApp(dialect, overrides);
  const server = serve({ fetch: test.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  // Voice calls open their sockets on the same port.
  attachCalls(server as Server, test.deps);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const httpClient = (session: { token?: string; language?: string } = {}): ApiClient =>
    createApiClient({
      baseUrl: `${base}/api`,
      getToken: () => session.token ?? '',
      getLanguage: () => session.language ?? 'en',
    });
  return {
    ...test,
    base,
    client: httpClient,
    close: async () => {
      await callHubOf(test.deps).closeAll('server');
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await test.close();
    },
  };
}

/** What the mate editor sends back for `mate`, with `changes` made. */
export function saveMatePayload(
  mate: Mate,
  changes: Partial<SaveMatePayload> = {},
): SaveMatePayload {
  return {
    mateId: mate.mateId,
    name: mate.name,
    tagline: mate.tagline,
    description: mate.description,
    personality: mate.personality,
    scenario: mate.scenario,
    first_mes: mate.first_mes,
    mes_example: mate.mes_example,
    creator_notes: mate.creator_notes,
    system_prompt: mate.system_prompt,
    alternate_greetings: mate.alternate_greetings,
    tags: mate.tags,
    gender: mate.gender,
    nsfw: mate.nsfw,
    visibility: mate.visibility,
    ...changes,
  };
}

/**
 * A regeneration of the last reply of `roomId` whose reader is gone when its stream opens (the
 * tab closed, or Stop at once: `openEventStream` aborts then), sent by `userId` straight
 * through the send service, as the route would.
 */
export async function regenerateWithReaderGone(
  deps: Pick<Deps, 'db' | 'chat' | 'config'>,
  userId: string,
  roomId: string,
): Promise<void> {
  const { user } = await rowsOf(deps.db, userId);
  await sendTurn(
    { db: deps.db, chat: deps.chat, config: deps.config },
    {
      user,
      request: { roomId, regenerate: true },
      language: 'en',
      log: silentLogger(),
      started: () => {},
      open: (controller) => {
        controller.abort();
        return { send: () => {}, done: () => {} };
      },
    },
  );
}

/**
 * Sends, and stops (aborts) as the person presses Stop: at the reply's start (before any word,
 * the default) or once its first words have come (`at: 'reply-delta'`).
 */
export async function sendAndStop(
  client: ApiClient,
  payload: ChatSendPayload,
  { at = 'reply-start' }: { at?: 'reply-start' | 'reply-delta' } = {},
): Promise<void> {
  const controller = new AbortController();
  await client.girl
    .chatSend(payload, {
      signal: controller.signal,
      onData: (event) => {
        if (event.type === at) controller.abort();
      },
    })
    .catch((error: unknown) => {
      if ((error as Error).name !== 'AbortError') throw error;
    });
}

/** Asks until `done` holds; fails after `tries` asks (no timing is asserted). */
export async function until<T>(ask: () => Promise<T>, done: (value: T) => boolean, tries = 300) {
  let last: T | undefined;
  for (let i = 0; i < tries; i += 1) {
    last = await ask();
    if (done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`still not there after ${tries} asks: ${JSON.stringify(last)}`);
}
