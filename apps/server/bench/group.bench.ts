// What a group turn (#40) adds to a streamed reply: a group of 3 mates answering in list order,
// against a one-to-one send to the first of them. Measured: the time to the first token (the
// first speaker's, in a group) less the provider's own first-token time read directly, and,
// within a group turn, the gap from one speaker's `reply-end` to the next speaker's first token
// (what each further speaker adds). One stream at a time and 20 rooms at once.
//
// The pieces of chat.bench.ts: the fake provider (fixed-rate-provider.mjs, tokens 5 ms apart)
// and the load client (stream-client.mjs, asked to time each reply of a stream) in processes of
// their own, the server in this one, logging each request into a pipe. Direct, one-to-one and
// group rounds alternate (their order reversed every other round: the machine is noisy). Each
// send goes to a room of its own, made through the API before the rounds (`/room/createRoom`,
// `/room/createGroup`): every send starts from a greeting alone. Every reply is checked in the
// database afterwards: complete, the provider's whole text, and in a group by its speakers in
// the list's order. Each figure is taken per round (the median of its streams), less the same
// round's direct reading for an overhead, then given as p50 and p90 over the rounds.
// BENCH_ROUNDS (rounds of the sequential level, default 12; half as many at 20), BENCH_TOKENS
// (tokens per reply, default 200) and BENCH_DIALECT (`sqlite`, the default, on a file, or
// `postgres`) shorten or vary a run. Prints a table and saves bench/results/group.json
// (group-postgres.json).
import { fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApiClient } from '@mates/api-client';
import { loadConfig } from '../src/config';
import { createApp } from '../src/app';
import { connect } from '../src/db/connect';
import { migrateToLatest } from '../src/db/migrate';
import { createRateLimits } from '../src/accounts/rate-limits';
import { createChatService } from '../src/chat/chat-service';
import { createOpenAiModel } from '../src/llm/openai';
import { seedIfEmpty } from '../src/seed/seed';
import { createFolderStore } from '../src/media/folder-store';
import { createJobQueue } from '../src/jobs/create-job-queue';
import { createLogger, silentLogger } from '../src/logging/logger';
import { messageIndexer } from '../src/chat/message-indexer';
import { createMetrics } from '../src/metrics/metrics';
import { instrumentModel } from '../src/metrics/instrument-model';
import { freshDatabase, memoryMailer } from '../test/harness';
import { benchUser } from './bench-user';
import { logPipe } from './log-pipe';
import { saveResults, type ResultRow } from './results';

const LEVELS = [1, 20];
const SEQUENTIAL_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
const DIALECT = process.env.BENCH_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
const TOKENS = Number(process.env.BENCH_TOKENS ?? 200);
const INTERVAL_MS = 5;
const MEMBERS = 3;
/** What the provider writes, and so what each saved reply must hold. */
const EXPECTED = Array.from({ length: TOKENS }, (_, index) => ` t${index}`).join('');

/** A reply of a stream as the load client timed it, in ms from the request (null: never came). */
interface ReplyMarks {
  speakerId: string | null;
  start: number | null;
  first: number | null;
  end: number | null;
}
interface StreamTiming {
  ttft: number | null;
  total: number;
  ok: boolean;
  failure?: string;
  replies?: ReplyMarks[];
}
interface Target {
  body: unknown;
  headers: Record<string, string>;
}
type Arm = 'direct' | 'one' | 'group';

const percentile = (values: number[], p: number) => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const round1 = (value: number) => Math.round(value * 10) / 10;

// The provider and the load client, as chat.bench.ts starts them.
const providerProcess = spawn(
  process.execPath,
  [path.join(import.meta.dirname, 'fixed-rate-provider.mjs')],
  {
    env: { ...process.env, TOKENS: String(TOKENS), INTERVAL_MS: String(INTERVAL_MS) },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const client = fork(path.join(import.meta.dirname, 'stream-client.mjs'), { stdio: 'inherit' });
// Should the bench fail, neither is left behind (they would hold its output open).
process.once('exit', () => {
  providerProcess.kill();
  client.kill();
});
const providerUrl = `http://127.0.0.1:${await new Promise<string>((resolve) =>
  readline.createInterface({ input: providerProcess.stdout }).once('line', resolve),
)}/v1`;
const run = (job: { mode: 'direct' | 'mates'; url: string; targets: Target[]; replies?: true }) =>
  new Promise<StreamTiming[]>((resolve) => {
    client.once('message', (answer) => resolve((answer as { results: StreamTiming[] }).results));
    client.send(job);
  });

// The server, as chat.bench.ts makes it: SQLite on a file, or a fresh PostgreSQL database.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-group-bench-'));
async function openDatabase() {
  if (DIALECT === 'postgres') return freshDatabase('postgres');
  const database = connect({ sqliteFile: path.join(dataDir, 'mates.db') });
  await migrateToLatest(database.db as never, database.dialect);
  return { ...database, drop: database.close };
}
const database = await openDatabase();
const { db } = database;
await seedIfEmpty(db, { media: createFolderStore(dataDir) });
const metrics = createMetrics();
const config = loadConfig({
  DATA_DIR: dataDir,
  LLM_PROVIDER: 'openai',
  LLM_MAX_TOKENS: String(Math.max(64, TOKENS * 2)),
});
const app = createApp({
  db,
  dialect: database.dialect,
  config,
  mailer: memoryMailer(),
  limits: createRateLimits(),
  images: null,
  speech: null,
  transcription: null,
  chat: createChatService(
    instrumentModel(
      createOpenAiModel({
        baseUrl: providerUrl,
        apiKey: undefined,
        model: 'bench',
        contextSize: 8192,
      }),
      metrics,
    ),
  ),
  fetch: globalThis.fetch,
  // Never started: chat makes no jobs.
  jobs: createJobQueue({ db, dialect: database.dialect, dataDir, log: silentLogger() }),
  log: createLogger({ level: 'info', format: 'json' }, logPipe()),
  metrics,
});
// SQLite's search index is written in batches as on a running server (migration 0040).
const indexer = messageIndexer({ db, dialect: database.dialect, log: silentLogger() });
indexer.start();
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
await new Promise((resolve) => server.once('listening', resolve));
const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
const sendUrl = `${apiUrl}/girl/chat/send`;

// Three mates every bench user may talk to (public, shown, for all ages), in the group's order;
// a one-to-one room is with the first.
const mateIds = (
  await db
    .selectFrom('mates')
    .select('id')
    .where('visibility', '=', 'public')
    .where('hidden_at', 'is', null)
    .where('nsfw', '=', false)
    .where('first_mes', '!=', '')
    .orderBy('id')
    .limit(MEMBERS)
    .execute()
).map((mate) => mate.id);

// One user per stream of the widest level; one room per send, of each kind.
const tokens: string[] = [];
for (let index = 0; index < Math.max(...LEVELS); index += 1)
  tokens.push(await benchUser(db, `bench-group-${index}`, { chats: 1_000_000, goldCoins: 0 }));
const roomsOf = { one: [] as string[], group: [] as string[] };
async function newTargets(arm: 'one' | 'group', count: number): Promise<Target[]> {
  const targets: Target[] = [];
  for (let index = 0; index < count; index += 1) {
    const token = tokens[index]!;
    const api = createApiClient({
      baseUrl: apiUrl,
      getToken: () => token,
      getLanguage: () => 'en',
    });
    const room =
      arm === 'one'
        ? await api.room.createRoom({ mateId: mateIds[0]! })
        : await api.room.createGroup({ mateIds, turnOrder: 'list' });
    roomsOf[arm].push(room.roomId);
    targets.push({
      body: { roomId: room.roomId, content: 'Hello' },
      headers: { token, language: 'en' },
    });
  }
  return targets;
}
const directTargets = (count: number): Target[] =>
  Array.from({ length: count }, () => ({
    body: { model: 'bench', stream: true, messages: [{ role: 'user', content: 'Hello' }] },
    headers: {},
  }));
/** One round of one arm at `level` streams. */
async function runArm(arm: Arm, level: number): Promise<StreamTiming[]> {
  if (arm === 'direct')
    return run({
      mode: 'direct',
      url: `${providerUrl}/chat/completions`,
      targets: directTargets(level),
    });
  return run({ mode: 'mates', url: sendUrl, targets: await newTargets(arm, level), replies: true });
}

// Warm-up, apart from the measured rooms: the first sends run unoptimised code (see
// chat.bench.ts).
for (let round = 0; round < 3; round += 1)
  for (const arm of ['direct', 'one', 'group'] as const) await runArm(arm, 20);
await new Promise((resolve) => setTimeout(resolve, 200));
const measuredFrom = { one: roomsOf.one.length, group: roomsOf.group.length };

const rows: ResultRow[] = [];
const checks: string[] = [];
for (const level of LEVELS) {
  const rounds = level === 1 ? SEQUENTIAL_ROUNDS : Math.max(2, Math.ceil(SEQUENTIAL_ROUNDS / 2));
  const timings: Record<Arm, StreamTiming[]> = { direct: [], one: [], group: [] };
  /** Each round's medians: first tokens, and each later speaker's from the last `reply-end`. */
  const perRound: Record<'direct' | 'one' | 'group' | 'next', number>[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const order: Arm[] = round % 2 ? ['group', 'one', 'direct'] : ['direct', 'one', 'group'];
    const got = {} as Record<Arm, StreamTiming[]>;
    for (const arm of order) got[arm] = await runArm(arm, level);
    for (const arm of order) timings[arm].push(...got[arm]);
    const firstTokens = (arm: Arm) =>
      percentile(
        got[arm].map((t) => t.ttft ?? NaN),
        50,
      );
    const nextSpeakers = got.group.flatMap(({ replies = [] }) =>
      replies.slice(1).map((reply, i) => (reply.first ?? NaN) - (replies[i]!.end ?? NaN)),
    );
    perRound.push({
      direct: firstTokens('direct'),
      one: firstTokens('one'),
      group: firstTokens('group'),
      next: percentile(nextSpeakers, 50),
    });
  }
  // Figures over the rounds: the one-to-one figure beside the group's. A later speaker's first
  // token, from the last one's `reply-end`, stands beside a one-to-one send's, from its request.
  const figures: [string, (r: (typeof perRound)[number]) => [number, number]][] = [
    ['first token', (r) => [r.one, r.group]],
    ['first token − direct (overhead)', (r) => [r.one - r.direct, r.group - r.direct]],
    ['next speaker: first token after reply-end', (r) => [r.one, r.next]],
    ['next speaker − direct', (r) => [r.one - r.direct, r.next - r.direct]],
  ];
  const ratio = (group: number, one: number) => (one >= 1 ? round1(group / one) : NaN);
  const direct = perRound.map((r) => r.direct);
  rows.push({
    streams: String(level),
    figure: 'provider read directly: first token',
    'one-to-one p50 ms': round1(percentile(direct, 50)),
    'group p50 ms': round1(percentile(direct, 50)),
    'group ÷ one-to-one p50': 1,
    'one-to-one p90 ms': round1(percentile(direct, 90)),
    'group p90 ms': round1(percentile(direct, 90)),
    'group ÷ one-to-one p90': 1,
  });
  for (const [figure, pick] of figures) {
    const one = perRound.map((r) => pick(r)[0]);
    const group = perRound.map((r) => pick(r)[1]);
    const [one50, group50, one90, group90] = [
      percentile(one, 50),
      percentile(group, 50),
      percentile(one, 90),
      percentile(group, 90),
    ];
    rows.push({
      streams: String(level),
      figure,
      'one-to-one p50 ms': round1(one50),
      'group p50 ms': round1(group50),
      'group ÷ one-to-one p50': ratio(group50, one50),
      'one-to-one p90 ms': round1(one90),
      'group p90 ms': round1(group90),
      'group ÷ one-to-one p90': ratio(group90, one90),
    });
  }
  const inOrder = timings.group.filter(
    (t) => t.ok && t.replies?.map((reply) => reply.speakerId).join() === mateIds.join(),
  ).length;
  const ended = (arm: Arm) => timings[arm].filter((t) => t.ok).length;
  checks.push(
    `streams=${level}: ${rounds} rounds; one-to-one ${ended('one')} of ${timings.one.length} streams ended, group ${ended('group')} of ${timings.group.length} (${inOrder} with ${MEMBERS} replies in list order)`,
  );
  for (const t of [...timings.one, ...timings.group].filter((one) => !one.ok).slice(0, 3))
    console.warn(`streams=${level}: a stream did not end with [DONE]: ${t.failure}`);
}

// Every reply in the measured rooms, after the last saves (they run after `[DONE]`): complete,
// the provider's whole text, and in a group one by each member in the list's order.
await new Promise((resolve) => setTimeout(resolve, 300));
for (const arm of ['one', 'group'] as const) {
  const rooms = roomsOf[arm].slice(measuredFrom[arm]);
  const replies = await db
    .selectFrom('messages')
    .select(['room_id', 'status', 'content', 'speaker_id'])
    .where('room_id', 'in', rooms)
    .where('role', '=', 'mate')
    .where('position', '>', 1)
    .orderBy('room_id')
    .orderBy('position')
    .execute();
  const whole = replies.filter((row) => row.status === 'complete' && row.content === EXPECTED);
  for (const row of replies.filter((reply) => !whole.includes(reply)).slice(0, 5))
    console.error(
      `the reply in ${row.room_id} was saved ${row.status}, ${row.content.length} of ${EXPECTED.length} characters`,
    );
  const perRoom = arm === 'one' ? 1 : MEMBERS;
  const ordered =
    arm === 'one'
      ? rooms.length
      : rooms.filter(
          (room) =>
            replies
              .filter((row) => row.room_id === room)
              .map((row) => row.speaker_id)
              .join() === mateIds.join(),
        ).length;
  checks.push(
    `${arm === 'one' ? 'one-to-one' : 'group'} replies saved in full: ${whole.length} of ${rooms.length * perRoom}` +
      (arm === 'group'
        ? `; rooms answered by the ${MEMBERS} members in list order: ${ordered} of ${rooms.length}`
        : ''),
  );
}

console.log(
  `Group turns (${DIALECT}): ${MEMBERS} mates in list order against a one-to-one send to the first; a provider emitting ${TOKENS} tokens ${INTERVAL_MS} ms apart and the load client each in their own process; the server in the bench process on ${os.cpus().length} cores. Each round's median (of its streams; in a group, of every later speaker for "next speaker"), then p50 and p90 over the rounds; "− direct" is less the same round's first token read from the provider directly.`,
);
console.table(rows);
for (const line of checks) console.log(line);
saveResults(DIALECT === 'sqlite' ? 'group' : 'group-postgres', rows);

await new Promise<void>((resolve) => server.close(() => resolve()));
(server as { closeAllConnections?: () => void }).closeAllConnections?.();
await indexer.stop();
client.kill();
providerProcess.kill();
await database.drop();
fs.rmSync(dataDir, { recursive: true, force: true });
