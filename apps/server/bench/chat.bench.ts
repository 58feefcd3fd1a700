// Server overhead on a streamed reply: time to first token and time between tokens through
// the Mates server, against reading the same provider stream directly; at 1, 50 and 500
// concurrent streams; and memory per open stream. The provider (fixed-rate-provider.mjs)
// runs in its own process and emits 20 tokens, one every 20 ms.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createParser } from 'eventsource-parser';
import { createApiClient } from '@mates/api-client';
import { loadConfig } from '../src/config';
import { createApp } from '../src/app';
import { createRateLimits } from '../src/accounts/rate-limits';
import { createChatService } from '../src/chat/chat-service';
import { createOpenAiModel } from '../src/llm/openai';
import { seedIfEmpty } from '../src/seed/seed';
import { createFolderStore } from '../src/media/folder-store';
import { freshDatabase, memoryMailer } from '../test/harness';
import { createJobQueue } from '../src/jobs/create-job-queue';
import { benchUser } from './bench-user';
import { createLogger, silentLogger } from '../src/logging/logger';
import { createMetrics } from '../src/metrics/metrics';

const LEVELS = [1, 50, 500];
const TOKENS = 20;

interface Timing {
  ttft: number;
  gaps: number[];
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

async function startProvider() {
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname, 'fixed-rate-provider.mjs')],
    {
      env: { ...process.env, TOKENS: String(TOKENS), INTERVAL_MS: '20' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<string>((resolve) =>
    readline.createInterface({ input: child.stdout! }).once('line', resolve),
  );
  return { url: `http://127.0.0.1:${port}/v1`, stop: () => child.kill() };
}

async function direct(providerUrl: string): Promise<Timing> {
  const start = performance.now();
  const times: number[] = [];
  const response = await fetch(`${providerUrl}/chat/completions`, { method: 'POST', body: '{}' });
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent(event) {
      if (
        event.data !== '[DONE]' &&
        (JSON.parse(event.data) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta
          .content
      ) {
        times.push(performance.now());
      }
    },
  });
  for await (const chunk of response.body!)
    parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
  return {
    ttft: times[0]! - start,
    gaps: times.slice(1).map((time, index) => time - times[index]!),
  };
}

async function throughServer(
  client: ReturnType<typeof createApiClient>,
  roomId: string,
): Promise<Timing> {
  const start = performance.now();
  const times: number[] = [];
  await client.girl.chatSend(
    { roomId, content: 'Hello' },
    { onData: (event) => event.type === 'reply-delta' && times.push(performance.now()) },
  );
  return {
    ttft: times[0]! - start,
    gaps: times.slice(1).map((time, index) => time - times[index]!),
  };
}

async function measure(level: number, run: () => Promise<Timing>) {
  const rounds = Math.max(1, Math.ceil(60 / level));
  const timings: Timing[] = [];
  for (let round = 0; round < rounds; round += 1)
    timings.push(...(await Promise.all(Array.from({ length: level }, run))));
  return { ttft: timings.map((t) => t.ttft), gaps: timings.flatMap((t) => t.gaps) };
}

const provider = await startProvider();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-chat-bench-'));
const database = await freshDatabase('sqlite');
await seedIfEmpty(database.db, { media: createFolderStore(dataDir) });
const config = loadConfig({
  DATA_DIR: dataDir,
  LLM_PROVIDER: 'openai',
  LLM_MAX_TOKENS: String(TOKENS * 2),
});
const model = createOpenAiModel({
  baseUrl: provider.url,
  apiKey: undefined,
  model: 'bench',
  contextSize: 8192,
  fetch: globalThis.fetch,
});
const app = createApp({
  db: database.db,
  dialect: 'sqlite',
  config,
  mailer: memoryMailer(),
  limits: createRateLimits(),
  images: null,
  speech: null,
  transcription: null,
  chat: createChatService(model),
  fetch: globalThis.fetch,
  // Never started: chat makes no jobs.
  jobs: createJobQueue({ db: database.db, dialect: 'sqlite', dataDir, log: silentLogger() }),
  // Warnings and errors only: a line for each request would be the bench's own cost.
  log: createLogger({ level: 'warn', format: 'json' }),
  metrics: createMetrics(),
});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;

// One user and room per concurrent stream, made directly in the database.
const mate = await database.db.selectFrom('mates').select('id').limit(1).executeTakeFirstOrThrow();
const sessions: { client: ReturnType<typeof createApiClient>; roomId: string }[] = [];
for (let index = 0; index < Math.max(...LEVELS); index += 1) {
  const at = new Date().toISOString();
  const userId = `bench-${index}`;
  const token = await benchUser(database.db, userId, { chats: 1_000_000, goldCoins: 0 });
  await database.db
    .insertInto('rooms')
    .values({
      id: `room-${index}`,
      user_id: userId,
      mate_id: mate.id,
      persona_id: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  sessions.push({
    client: createApiClient({ baseUrl: base, getToken: () => token, getLanguage: () => 'en' }),
    roomId: `room-${index}`,
  });
}

const rows = [];
for (const level of LEVELS) {
  const baseline = await measure(level, () => direct(provider.url));
  let next = 0;
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapDuring = heapBefore;
  const sampler = setInterval(
    () => (heapDuring = Math.max(heapDuring, process.memoryUsage().heapUsed)),
    50,
  );
  const served = await measure(level, () => {
    const session = sessions[next++ % level]!;
    return throughServer(session.client, session.roomId);
  });
  clearInterval(sampler);
  rows.push({
    streams: level,
    'direct TTFT p50/p99 ms': `${percentile(baseline.ttft, 50).toFixed(1)} / ${percentile(baseline.ttft, 99).toFixed(1)}`,
    'server TTFT p50/p99 ms': `${percentile(served.ttft, 50).toFixed(1)} / ${percentile(served.ttft, 99).toFixed(1)}`,
    'TTFT overhead p50 ms': (percentile(served.ttft, 50) - percentile(baseline.ttft, 50)).toFixed(
      1,
    ),
    'direct gap p50/p99 ms': `${percentile(baseline.gaps, 50).toFixed(1)} / ${percentile(baseline.gaps, 99).toFixed(1)}`,
    'server gap p50/p99 ms': `${percentile(served.gaps, 50).toFixed(1)} / ${percentile(served.gaps, 99).toFixed(1)}`,
    'heap per stream KB': level >= 50 ? ((heapDuring - heapBefore) / level / 1024).toFixed(0) : '—',
  });
}
console.log(
  `Streamed replies: a provider emitting ${TOKENS} tokens 20 ms apart, in its own process; the server and its clients share one process on ${os.cpus().length} cores (SQLite). Heap per stream counts the server and its client together.`,
);
console.table(rows);
await new Promise<void>((resolve) => server.close(() => resolve()));
provider.stop();
await database.drop();
fs.rmSync(dataDir, { recursive: true, force: true });
