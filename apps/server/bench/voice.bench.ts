// Voice on the embedded engine (Flite in worker processes), through the server's real routes:
// time to the first audio byte and the real-time factor (synthesis time / audio length) of a
// 300-character reply heard for the first time; and the chat's time to first token, alone and
// while 4 syntheses run, to show that speaking does not hold up streamed replies. The chat's
// model is the fixed-rate provider of chat.bench.ts (20 tokens, 20 ms apart, its own process).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { parseBuffer } from 'music-metadata';
import { createApiClient } from '@mates/api-client';
import { loadConfig } from '../src/config';
import { createApp } from '../src/app';
import { createRateLimits } from '../src/accounts/rate-limits';
import { createChatService } from '../src/chat/chat-service';
import { appendMessage } from '../src/chat/messages';
import { createOpenAiModel } from '../src/llm/openai';
import { seedIfEmpty } from '../src/seed/seed';
import { createFolderStore } from '../src/media/folder-store';
import { createSpeechEngine } from '../src/voice/create-speech';
import { createJobQueue } from '../src/jobs/create-job-queue';
import { freshDatabase, memoryMailer } from '../test/harness';
import { benchUser } from './bench-user';
import { createLogger, silentLogger } from '../src/logging/logger';
import { createMetrics } from '../src/metrics/metrics';
import { newRoomRow } from '../src/chat/room-repository';

const ROUNDS = 12;
const SYNTHESES_BESIDE = 4;
/** A mate's reply of exactly 300 characters, with an action the engine leaves out. */
const REPLY = (
  '*She sets the lantern down on the sill.* The tide comes in twice a day, and twice a day ' +
  'the harbour forgets what it looked like. I have counted the boats since I was nine: forty ' +
  'one on a calm night, thirty on a wild one. Tonight I count thirty-six, and one of them is ' +
  'yours, so tell me where you sailed from.'
).slice(0, 300);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const ms = (values: number[]) =>
  `${percentile(values, 50).toFixed(0)} / ${percentile(values, 95).toFixed(0)}`;

const provider = spawn(
  process.execPath,
  [path.join(import.meta.dirname, 'fixed-rate-provider.mjs')],
  {
    env: { ...process.env, TOKENS: '20', INTERVAL_MS: '20' },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
// Never left behind, even when the bench fails.
process.on('exit', () => provider.kill());
const providerPort = await new Promise<string>((resolve) =>
  readline.createInterface({ input: provider.stdout }).once('line', resolve),
);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-voice-bench-'));
const database = await freshDatabase('sqlite');
await seedIfEmpty(database.db, { media: createFolderStore(dataDir) });
const config = loadConfig({ DATA_DIR: dataDir, LLM_PROVIDER: 'openai', LLM_MAX_TOKENS: '40' });
const speech = createSpeechEngine(config.speech, null, globalThis.fetch, silentLogger());
const app = createApp({
  db: database.db,
  dialect: 'sqlite',
  config,
  mailer: memoryMailer(),
  limits: createRateLimits(),
  images: null,
  speech,
  transcription: null,
  chat: createChatService(
    createOpenAiModel({
      baseUrl: `http://127.0.0.1:${providerPort}/v1`,
      apiKey: undefined,
      model: 'bench',
      contextSize: 8192,
    }),
  ),
  fetch: globalThis.fetch,
  jobs: createJobQueue({ db: database.db, dialect: 'sqlite', dataDir, log: silentLogger() }),
  // Warnings and errors only: a line for each request would be the bench's own cost.
  log: createLogger({ level: 'warn', format: 'json' }),
  metrics: createMetrics(),
});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
await new Promise((resolve) => server.once('listening', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// One listener with coins enough, and one room with a mate, made directly in the database.
const at = new Date().toISOString();
const mate = await database.db.selectFrom('mates').select('id').limit(1).executeTakeFirstOrThrow();
const token = await benchUser(database.db, 'listener', {
  chats: 1_000_000,
  goldCoins: 1_000_000,
});
// The chat's room, and one room per synthesis running beside it (a room's messages are
// written one at a time).
// (Each chat message has a room of its own: a room takes one message at a time, and the last
// reply's room may still be closing when the next message is sent.)
const rooms = [
  ...Array.from({ length: ROUNDS * 2 }, (_, i) => `chat-${i}`),
  ...Array.from({ length: SYNTHESES_BESIDE + 1 }, (_, i) => `voice-${i}`),
];
for (const id of rooms)
  await database.db
    .insertInto('rooms')
    .values(
      newRoomRow({
        id,
        user_id: 'listener',
        mate_id: mate.id,
        persona_id: null,
        created_at: at,
        updated_at: at,
      }),
    )
    .execute();
const client = createApiClient({
  baseUrl: `${origin}/api`,
  getToken: () => token,
  getLanguage: () => 'en',
});

/** Hears a new 300-character reply for the first time: first byte, whole file, audio length. */
async function hearNewReply(roomId = 'voice-0') {
  const message = await appendMessage(database.db, roomId, {
    role: 'mate',
    content: REPLY,
    status: 'complete',
  });
  const start = performance.now();
  const link = await client.speech.link({ messageId: message.id });
  const response = await fetch(new URL(link.url, origin));
  let first = NaN;
  const parts: Uint8Array[] = [];
  for await (const chunk of response.body!) {
    if (parts.length === 0) first = performance.now() - start;
    parts.push(chunk as Uint8Array);
  }
  const total = performance.now() - start;
  const mp3 = Buffer.concat(parts);
  const { format } = await parseBuffer(mp3, { mimeType: 'audio/mpeg', size: mp3.length });
  return { first, total, seconds: format.duration ?? 0 };
}

let chats = 0;
async function firstToken(): Promise<number> {
  const start = performance.now();
  let first = NaN;
  await client.girl.chatSend(
    { roomId: `chat-${chats++}`, content: 'Hello' },
    {
      onData: (event) => {
        if (event.type === 'reply-delta' && Number.isNaN(first)) first = performance.now() - start;
      },
    },
  );
  return first;
}

await hearNewReply(); // The worker processes start and compile Flite once.
const heard = [];
for (let round = 0; round < ROUNDS; round += 1) heard.push(await hearNewReply());

const alone: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) alone.push(await firstToken());
let speaking = true;
let spoken = 0;
const speakers = Array.from({ length: SYNTHESES_BESIDE }, async (_, index) => {
  while (speaking) {
    await hearNewReply(`voice-${index + 1}`);
    spoken += 1;
  }
});
const beside: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) beside.push(await firstToken());
speaking = false;
await Promise.all(speakers);

const seconds = heard[0]!.seconds;
console.log(
  `Voice, embedded engine (Flite in ${config.speech!.threads} worker processes), through /speech/link and /voice/clip on ${os.cpus().length} cores (SQLite). A 300-character reply is ${seconds.toFixed(1)} s of 16 kHz MP3; each is heard for the first time.`,
);
console.table([
  {
    'first audio byte p50/p95 ms': ms(heard.map((h) => h.first)),
    'whole file p50/p95 ms': ms(heard.map((h) => h.total)),
    'real-time factor p50': percentile(
      heard.map((h) => h.total / 1000 / h.seconds),
      50,
    ).toFixed(3),
  },
]);
console.log(
  `Chat time to first token (provider: 20 tokens, 20 ms apart), alone and while ${SYNTHESES_BESIDE} syntheses run (${spoken} made meanwhile):`,
);
console.table([
  { while: 'nothing else', 'TTFT p50/p95 ms': ms(alone) },
  { while: `${SYNTHESES_BESIDE} syntheses`, 'TTFT p50/p95 ms': ms(beside) },
]);

await new Promise<void>((resolve) => server.close(() => resolve()));
await speech?.close();
provider.kill();
await database.drop();
fs.rmSync(dataDir, { recursive: true, force: true });
