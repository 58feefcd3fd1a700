// What the server adds to a streamed reply (#20): time to first token through Mates against
// reading the same provider directly, at 1, 50, 200 and 1,000 concurrent streams; the
// server's CPU and memory per stream; and whether every reply was saved in full. Beside it,
// the same figures through a minimal relay (minimal-proxy.ts: read the request, ask the
// provider, write what it sends; nothing else), which is what any Node server pays here.
// And a second reference, the minimal send (minimal-send.ts): the least a send must do before
// its first byte by #38's own list (a session known from memory, the person's message appended
// and durable, the provider asked; the reply saved at its end). Between the relay and Mates,
// it says how much of Mates' overhead keeping what a person wrote costs, and how much is Mates'
// own layers.
//
// Three processes: the fake provider (fixed-rate-provider.mjs: 200 tokens, 5 ms apart), the
// load client (stream-client.mjs, forked; it opens the streams and times them) and this one,
// which runs the server and the relay and does little else while a level runs, so its CPU
// time is theirs. Direct, relay and Mates rounds alternate. BENCH_LEVELS (e.g. `1,50`),
// BENCH_ROUNDS (rounds of the sequential level, default 10), BENCH_LEVEL_ROUNDS (rounds of
// each concurrent level up to 200 streams, default 5; the table gives their medians),
// BENCH_TOKENS (tokens per reply, default 200) and BENCH_DIALECT (`sqlite`, the default, on a
// file as in production, or `postgres`) shorten or vary a run; BENCH_CPU_PROFILE=
// file.cpuprofile records the server's CPU profile during the Mates rounds only (open it in
// Chrome DevTools); BENCH_LOG_FILE=file keeps the server's log in that file rather than a pipe
// that keeps nothing. BENCH_MEMORY=N gives every room N memories (a summary, two pinned facts,
// the rest facts) that each prompt ranks and takes (#39): run it beside BENCH_MEMORY=0 for the
// send overhead of memory (`pnpm bench` runs it at 100 memories, 1 and 50 streams, after the
// runs without; its results are kept apart).
//
// The goals (#38) are ratios to the relay measured in the same run: first-token overhead at most
// 1.5× the relay's, or the relay's + 5 ms where that is larger; server CPU per stream at most
// 1.5× the relay's. The table says whether each level met them. After the measured rounds, one
// more round of fifty streams runs under V8's profiler, and the places that took the most CPU
// are printed per send (BENCH_PROFILE_STREAMS sets how many; 0 skips it; BENCH_PROFILE_SAVE=
// folder keeps the three profiles there).
import { fork, spawn } from 'node:child_process';
import { profileOf, profiled } from './cpu-profile';
import { topSelfTime, type CpuProfile } from './profile-summary';
import { startMinimalProxy } from './minimal-proxy';
import { startMinimalSend } from './minimal-send';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { loadConfig } from '../src/config';
import { createApp } from '../src/app';
import { connect } from '../src/db/connect';
import { migrateToLatest } from '../src/db/migrate';
import { createRateLimits } from '../src/accounts/rate-limits';
import { createChatService } from '../src/chat/chat-service';
import { createOpenAiModel } from '../src/llm/openai';
import { seedIfEmpty } from '../src/seed/seed';
import { createFolderStore } from '../src/media/folder-store';
import { freshDatabase, memoryMailer } from '../test/harness';
import { createJobQueue } from '../src/jobs/create-job-queue';
import { benchUser } from './bench-user';
import { createLogger, logDestination, silentLogger } from '../src/logging/logger';
import { logPipe } from './log-pipe';
import { createMetrics } from '../src/metrics/metrics';
import { instrumentModel } from '../src/metrics/instrument-model';
import { saveResults, type ResultRow } from './results';
import { newRoomRow } from '../src/chat/room-repository';
import { messageIndexer } from '../src/chat/message-indexer';

const LEVELS = (process.env.BENCH_LEVELS ?? '1,50,200,1000').split(',').map(Number);
const SEQUENTIAL_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const DIALECT = process.env.BENCH_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
const TOKENS = Number(process.env.BENCH_TOKENS ?? 200);
const MEMORIES = Number(process.env.BENCH_MEMORY ?? 0);
const INTERVAL_MS = 5;
/** What the provider writes, and so what each saved reply must hold. */
const EXPECTED = Array.from({ length: TOKENS }, (_, index) => ` t${index}`).join('');

interface StreamTiming {
  ttft: number;
  total: number;
  ok: boolean;
  /** What a stream that did not end well answered (status and first bytes), or its error. */
  failure?: string;
}
interface Target {
  body: unknown;
  headers: Record<string, string>;
}

const percentile = (values: number[], p: number) => {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const round1 = (value: number) => Math.round(value * 10) / 10;
/**
 * Rounds of each concurrent level up to 200 streams (BENCH_LEVEL_ROUNDS, default 5; 1,000
 * streams: 3), whose medians the table gives.
 */
const CONCURRENT_ROUNDS = Number(process.env.BENCH_LEVEL_ROUNDS ?? 5);
/** One round's first-token overheads (p50, ms) and CPU per stream (ms) of each way. */
interface RoundFigures {
  overhead: number;
  relayOverhead: number;
  minimalOverhead: number;
  cpu: number;
  relayCpu: number;
  minimalCpu: number;
}

async function startProvider() {
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname, 'fixed-rate-provider.mjs')],
    {
      env: { ...process.env, TOKENS: String(TOKENS), INTERVAL_MS: String(INTERVAL_MS) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<string>((resolve) =>
    readline.createInterface({ input: child.stdout! }).once('line', resolve),
  );
  // Should the bench fail, the provider goes with it (it would hold the bench's output open).
  process.once('exit', () => child.kill());
  return { url: `http://127.0.0.1:${port}/v1`, stop: () => child.kill() };
}

/** The load client: one forked process that runs each job sent to it. */
function startClient() {
  const child = fork(path.join(import.meta.dirname, 'stream-client.mjs'), { stdio: 'inherit' });
  return {
    run: (job: { mode: 'direct' | 'mates'; url: string; targets: Target[] }) =>
      new Promise<{ results: StreamTiming[]; wall: number }>((resolve) => {
        child.once('message', (answer) =>
          resolve(answer as { results: StreamTiming[]; wall: number }),
        );
        child.send(job);
      }),
    stop: () => child.kill(),
  };
}

async function openDatabase(dataDir: string) {
  if (DIALECT === 'postgres') return freshDatabase('postgres');
  const database = connect({ sqliteFile: path.join(dataDir, 'mates.db') });
  await migrateToLatest(database.db as never, database.dialect);
  return { ...database, drop: database.close };
}

const provider = await startProvider();
const proxy = await startMinimalProxy(provider.url);
const client = startClient();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-chat-bench-'));
const database = await openDatabase(dataDir);
const { db } = database;
await seedIfEmpty(db, { media: createFolderStore(dataDir) });
const config = loadConfig({
  DATA_DIR: dataDir,
  LLM_PROVIDER: 'openai',
  LLM_MAX_TOKENS: String(Math.max(64, TOKENS * 2)),
});
const metrics = createMetrics();
const model = instrumentModel(
  createOpenAiModel({
    baseUrl: provider.url,
    apiKey: undefined,
    model: 'bench',
    contextSize: 8192,
  }),
  metrics,
);
const app = createApp({
  db,
  dialect: database.dialect,
  config,
  mailer: memoryMailer(),
  limits: createRateLimits(),
  images: null,
  speech: null,
  transcription: null,
  chat: createChatService(model),
  fetch: globalThis.fetch,
  // Never started: chat makes no jobs.
  jobs: createJobQueue({ db, dialect: database.dialect, dataDir, log: silentLogger() }),
  // Each request logs its line as in production (JSON, through the same destination), into a
  // pipe (see log-pipe.ts), or into BENCH_LOG_FILE to look into a run.
  log: createLogger(
    { level: 'info', format: 'json' },
    process.env.BENCH_LOG_FILE ? logDestination(process.env.BENCH_LOG_FILE) : logPipe(),
  ),
  metrics,
});
// SQLite's search index is written in batches as on a running server (migration 0040).
const indexer = messageIndexer({ db, dialect: database.dialect, log: silentLogger() });
indexer.start();
const server = createAdaptorServer({ fetch: app.fetch });
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', 4096, resolve));
const sendUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/girl/chat/send`;

// One user and room per stream of each level, made directly in the database.
// A mate every bench user may talk to: public, shown and for all ages (the bench users are not
// adults; an adult mate's room would be read-only to them, and every send refused).
const mate = await db
  .selectFrom('mates')
  .select('id')
  .where('visibility', '=', 'public')
  .where('hidden_at', 'is', null)
  .where('nsfw', '=', false)
  .orderBy('id')
  .limit(1)
  .executeTakeFirstOrThrow();
async function newTargets(name: string, count: number): Promise<Target[]> {
  const list: Target[] = [];
  for (let index = 0; index < count; index += 1) {
    const at = new Date().toISOString();
    const userId = `bench-${name}-${index}`;
    const token = await benchUser(db, userId, { chats: 1_000_000, goldCoins: 0 });
    const roomId = `room-${name}-${index}`;
    await db
      .insertInto('rooms')
      .values(
        newRoomRow({
          id: roomId,
          user_id: userId,
          mate_id: mate.id,
          persona_id: null,
          created_at: at,
          memory_version: MEMORIES > 0 ? 1 : 0,
          updated_at: at,
        }),
      )
      .execute();
    if (MEMORIES > 0)
      await db
        .insertInto('memories')
        .values(
          Array.from({ length: MEMORIES }, (_, memory) => ({
            id: `${roomId}-memory-${memory}`,
            room_id: roomId,
            kind: memory === 0 ? 'summary' : 'fact',
            about: memory % 2 ? 'person' : 'story',
            content:
              memory === 0
                ? 'They met at the harbour at dusk, argued about the old map and agreed to sail north together once the storm had passed.'
                : `Fact ${memory}: the person said hello on day ${memory} and likes tea number ${memory}.`,
            pinned: memory === 1 || memory === 2,
            author: 'mate',
            created_at: at,
            updated_at: at,
          })),
        )
        .execute();
    list.push({ body: { roomId, content: 'Hello' }, headers: { token, language: 'en' } });
  }
  return list;
}
const targets = new Map<number, Target[]>();
for (const level of LEVELS) targets.set(level, await newTargets(String(level), level));
const directTargets = (level: number): Target[] =>
  Array.from({ length: level }, () => ({
    body: { model: 'bench', stream: true, messages: [{ role: 'user', content: 'Hello' }] },
    headers: {},
  }));

/** Complete replies in the level's rooms whose text is exactly the provider's. */
async function savedInFull(level: number): Promise<number> {
  const rows = await db
    .selectFrom('messages')
    .select(['room_id', 'status', 'content'])
    .where('room_id', 'like', `room-${level}-%`)
    .where('role', '=', 'mate')
    .execute();
  const whole = rows.filter((row) => row.status === 'complete' && row.content === EXPECTED);
  // A reply not saved in full is told, so that a run that lost one can be looked into.
  for (const row of rows.filter((one) => !whole.includes(one)).slice(0, 5))
    console.error(
      `streams=${level}: the reply in ${row.room_id} was saved ${row.status}, ${row.content.length} of ${EXPECTED.length} characters`,
    );
  return whole.length;
}

// Warm-up: the first requests run the code they need unoptimised, which no stream of a server
// in use pays for. V8 optimises a function once it has run often enough: ten sends left the
// send path's code cold, and a sequential send waited 0.3 ms for a session read that takes
// 10 µs warm. Four rounds of fifty sends, then.
const warmUp = await newTargets('warm-up', 50);
// The minimal send knows the bench users' sessions as Mates' session cache would.
const minimalSessions = new Map<string, string>();
const knowSessions = (known: Target[]) => {
  for (const { headers, body } of known)
    minimalSessions.set(headers.token!, (body as { roomId: string }).roomId);
};
knowSessions([...targets.values(), warmUp].flat());
const minimalSend = await startMinimalSend(
  provider.url,
  'url' in database && database.url
    ? { url: database.url }
    : { sqliteFile: path.join(dataDir, 'minimal-send.db') },
  minimalSessions,
);
for (let round = 0; round < 4; round += 1)
  await client.run({ mode: 'mates', url: sendUrl, targets: warmUp });
await client.run({
  mode: 'direct',
  url: `${provider.url}/chat/completions`,
  targets: directTargets(10),
});
for (let round = 0; round < 4; round += 1)
  await client.run({ mode: 'direct', url: proxy.url, targets: directTargets(50) });
for (let round = 0; round < 4; round += 1)
  await client.run({ mode: 'mates', url: minimalSend.url, targets: warmUp });
await new Promise((resolve) => setTimeout(resolve, 200));

const rows: ResultRow[] = [];
for (const level of LEVELS) {
  const rounds = level === 1 ? SEQUENTIAL_ROUNDS : level > 200 ? 3 : CONCURRENT_ROUNDS;
  const direct: StreamTiming[] = [];
  const relayed: StreamTiming[] = [];
  const mates: StreamTiming[] = [];
  let cpuMs = 0;
  let relayCpuMs = 0;
  let minimalCpuMs = 0;
  const minimal: StreamTiming[] = [];
  let rssPeak = 0;
  let rssBefore = 0;
  // Each round's own figures: a concurrent level's table gives their medians (see `figure`).
  const perRound: RoundFigures[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const directRound = (
      await client.run({
        mode: 'direct',
        url: `${provider.url}/chat/completions`,
        targets: directTargets(level),
      })
    ).results;
    direct.push(...directRound);
    const relayCpu = process.cpuUsage();
    const relayRound = (
      await client.run({ mode: 'direct', url: proxy.url, targets: directTargets(level) })
    ).results;
    relayed.push(...relayRound);
    const relayUsed = process.cpuUsage(relayCpu);
    relayCpuMs += (relayUsed.user + relayUsed.system) / 1000;
    const minimalCpu = process.cpuUsage();
    const minimalRound = (
      await client.run({ mode: 'mates', url: minimalSend.url, targets: targets.get(level)! })
    ).results;
    minimal.push(...minimalRound);
    const minimalUsed = process.cpuUsage(minimalCpu);
    minimalCpuMs += (minimalUsed.user + minimalUsed.system) / 1000;
    global.gc?.();
    // The resident size alone: the whole of `memoryUsage()` walks V8's heap spaces, and taken
    // every 20 ms during Mates' rounds only it charged Mates a tenth of a millisecond a stream.
    rssBefore = Math.max(rssBefore, process.memoryUsage.rss());
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 20);
    const cpu = process.cpuUsage();
    const job = { mode: 'mates' as const, url: sendUrl, targets: targets.get(level)! };
    const matesRound = (await profiled(() => client.run(job))).results;
    mates.push(...matesRound);
    const used = process.cpuUsage(cpu);
    clearInterval(sampler);
    cpuMs += (used.user + used.system) / 1000;
    const firstTokens = (list: StreamTiming[]) =>
      percentile(
        list.map((t) => t.ttft),
        50,
      );
    perRound.push({
      overhead: firstTokens(matesRound) - firstTokens(directRound),
      relayOverhead: firstTokens(relayRound) - firstTokens(directRound),
      minimalOverhead: firstTokens(minimalRound) - firstTokens(directRound),
      cpu: (used.user + used.system) / 1000 / level,
      relayCpu: (relayUsed.user + relayUsed.system) / 1000 / level,
      minimalCpu: (minimalUsed.user + minimalUsed.system) / 1000 / level,
    });
  }
  for (const [through, list] of [
    ['Mates', mates],
    ['the minimal relay', relayed],
    ['the minimal send', minimal],
  ] as const) {
    const failed = list.find((t) => !t.ok);
    if (failed)
      console.warn(
        `streams=${level}: a stream through ${through} did not end with [DONE]: ${failed.failure}`,
      );
  }
  // The last saves run after the reply's `[DONE]` has gone out.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const streams = level * rounds;
  const ttft = (list: StreamTiming[], p: number) =>
    percentile(
      list.map((t) => t.ttft),
      p,
    );
  const total = (list: StreamTiming[], p: number) =>
    percentile(
      list.map((t) => t.total),
      p,
    );
  // Concurrent levels: the median of the rounds' figures, each round's Mates, relay and minimal
  // send measured one after the other (#38), so that one round slowed by the machine (a core
  // taken by something else for a second) moves no figure. One stream: all rounds' sends
  // pooled, as each round is one send.
  const pooled = level === 1;
  const figure = (name: keyof RoundFigures, whole: number) =>
    pooled
      ? whole
      : percentile(
          perRound.map((one) => one[name]),
          50,
        );
  const overhead = figure('overhead', ttft(mates, 50) - ttft(direct, 50));
  const relayOverhead = figure('relayOverhead', ttft(relayed, 50) - ttft(direct, 50));
  const minimalOverhead = figure('minimalOverhead', ttft(minimal, 50) - ttft(direct, 50));
  // A relay measured faster than the direct reads (noise around zero) counts as no overhead.
  const relayFloor = Math.max(0, relayOverhead);
  const overheadGoal = Math.max(1.5 * relayFloor, relayFloor + 5);
  const cpuPerStream = figure('cpu', cpuMs / streams);
  const relayCpuPerStream = figure('relayCpu', relayCpuMs / streams);
  rows.push({
    streams: String(level),
    'direct first token p50 ms': round1(ttft(direct, 50)),
    'direct first token p99 ms': round1(ttft(direct, 99)),
    'Mates first token p50 ms': round1(ttft(mates, 50)),
    'Mates first token p99 ms': round1(ttft(mates, 99)),
    'overhead p50 ms': round1(overhead),
    'overhead p99 ms': round1(ttft(mates, 99) - ttft(direct, 99)),
    'minimal relay overhead p50 ms': round1(relayOverhead),
    'minimal send overhead p50 ms': round1(minimalOverhead),
    'direct total p50 ms': Math.round(total(direct, 50)),
    'Mates total p50 ms': Math.round(total(mates, 50)),
    'server CPU per stream ms': round1(cpuPerStream),
    'minimal relay CPU per stream ms': round1(relayCpuPerStream),
    'minimal send CPU per stream ms': round1(figure('minimalCpu', minimalCpuMs / streams)),
    // The goals: how Mates compares with the relay, and whether it is within them.
    'overhead ÷ relay': round1(overhead / Math.max(relayOverhead, 0.1)),
    'overhead goal ms': round1(overheadGoal),
    'overhead goal met': overhead <= overheadGoal ? 'yes' : 'no',
    'CPU ÷ relay': round1(cpuPerStream / relayCpuPerStream),
    'CPU goal met':
      level < 50 || level > 200 ? '-' : cpuPerStream <= 1.5 * relayCpuPerStream ? 'yes' : 'no',
    'RSS per stream KB':
      level >= 50 ? Math.round(Math.max(0, rssPeak - rssBefore) / level / 1024) : 0,
    'streams ended': mates.filter((t) => t.ok).length,
    'replies saved in full': await savedInFull(level),
    'replies expected': streams,
  });
}
console.log(
  `Streamed replies (${DIALECT}${MEMORIES > 0 ? `, ${MEMORIES} memories in every room` : ''}): a provider emitting ${TOKENS} tokens ${INTERVAL_MS} ms apart and the load client each in their own process; the server in the bench process on ${os.cpus().length} cores. Overhead is Mates minus direct at the same percentile; the minimal relay (read the request, ask the provider, write what it sends) is what any Node server pays here; the minimal send also keeps the person's message (durable before its first byte) and the reply.`,
);
console.table(rows);
saveResults(
  `${DIALECT === 'sqlite' ? 'chat' : 'chat-postgres'}${MEMORIES > 0 ? '-memory' : ''}`,
  rows,
);

// Where a send's CPU goes: one more round under V8's profiler (a sample every 100 µs), kept
// apart from the measured rounds, which it would slow down.
const PROFILE_STREAMS = Number(process.env.BENCH_PROFILE_STREAMS ?? 50);
if (PROFILE_STREAMS > 0) {
  // The same round through the minimal send and the relay, each under the profiler too: a
  // place's figure means little without what the references pay there.
  const profileTargets = await newTargets('profile', PROFILE_STREAMS);
  knowSessions(profileTargets);
  const profiles = {
    mates: await profileOf(() =>
      client.run({ mode: 'mates', url: sendUrl, targets: profileTargets }),
    ),
    minimal: await profileOf(() =>
      client.run({ mode: 'mates', url: minimalSend.url, targets: profileTargets }),
    ),
    relay: await profileOf(() =>
      client.run({ mode: 'direct', url: proxy.url, targets: directTargets(PROFILE_STREAMS) }),
    ),
  };
  // BENCH_PROFILE_SAVE=folder keeps the three profiles, to open in Chrome DevTools.
  const saveTo = process.env.BENCH_PROFILE_SAVE;
  if (saveTo) {
    fs.mkdirSync(saveTo, { recursive: true });
    for (const [name, { profile }] of Object.entries(profiles))
      fs.writeFileSync(path.join(saveTo, `${DIALECT}-${name}.cpuprofile`), JSON.stringify(profile));
  }
  const perSend = (ms: number | undefined) =>
    Math.round(((ms ?? 0) / PROFILE_STREAMS) * 1000) / 1000;
  const places = (profile: object) =>
    new Map(topSelfTime(profile as CpuProfile, 1000).map(({ place, ms }) => [place, ms]));
  const [mates, minimal, relay] = [profiles.mates, profiles.minimal, profiles.relay].map((p) =>
    places(p.profile),
  );
  const total = (byPlace: Map<string, number>) => [...byPlace.values()].reduce((a, b) => a + b, 0);
  console.log(
    `Where the server's CPU went (${DIALECT}), per send of ${TOKENS} tokens at ${PROFILE_STREAMS} streams: self time of the busiest places (a package, a file of ours, or Node's internals), Mates beside the minimal send and the relay (in all: ${perSend(total(mates!))} / ${perSend(total(minimal!))} / ${perSend(total(relay!))} ms)`,
  );
  console.table(
    [...mates!]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([place, ms]) => ({
        place,
        'Mates ms per send': perSend(ms),
        'minimal send ms per send': perSend(minimal!.get(place)),
        'relay ms per send': perSend(relay!.get(place)),
      })),
  );
}
await new Promise<void>((resolve) => server.close(() => resolve()));
(server as { closeAllConnections?: () => void }).closeAllConnections?.();
await indexer.stop();
client.stop();
await proxy.close();
await minimalSend.close();
provider.stop();
await database.drop();
fs.rmSync(dataDir, { recursive: true, force: true });
