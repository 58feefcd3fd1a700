// Picture queue overhead through the real routes: the time from `POST /room/createImage`
// answering to the picture engine (an AUTOMATIC1111 double in this process, answering at once)
// receiving the txt2img request, with 1 and with 50 people asking at the same moment, on SQLite
// (plainjob) and PostgreSQL (pg-boss) when it answers. IMAGE_CONCURRENCY is 50 here so that
// the figure is the queue's, not the engine's turn-taking. Prints a table.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { ApiClient } from '@mates/api-client';
import { postgresAvailable, startTestServer } from '../test/harness';
import { startAutomatic1111Double } from '../test/image-doubles';
import { benchUser } from './bench-user';

const ROUNDS = { 1: 20, 50: 3 } as const;
const PEOPLE = 50;

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const ms = (value: number) => Math.round(value);

async function run(dialect: 'sqlite' | 'postgres') {
  const double = await startAutomatic1111Double();
  // When each prompt reached the engine (prompts are unique).
  const reached = new Map<string, number>();
  const drawing = double.drawing;
  const push = drawing.push.bind(drawing);
  drawing.push = (...events: string[]) => {
    for (const event of events)
      if (event.startsWith('start ')) reached.set(event.slice(6), performance.now());
    return push(...events);
  };
  const app = await startTestServer(dialect, {
    env: {
      IMAGE_PROVIDER: 'automatic1111',
      IMAGE_BASE_URL: double.url,
      IMAGE_COST: '1',
      IMAGE_CONCURRENCY: String(PEOPLE),
    },
  });
  await app.deps.jobs.start();
  const mate = await app.db.selectFrom('mates').select('id').limit(1).executeTakeFirstOrThrow();
  // One person per simultaneous request (pictures are limited to 10 a minute per person).
  const people: { client: ApiClient; roomId: string }[] = [];
  for (let index = 0; index < PEOPLE; index += 1) {
    const token = await benchUser(app.db, `bench-${index}`, { chats: 0, goldCoins: 1_000 });
    const client = app.client({ token });
    people.push({ client, roomId: (await client.room.createRoom({ mateId: mate.id })).roomId });
  }
  let asked = 0;
  const rows = [];
  for (const batch of [1, 50] as const) {
    const overheads: number[] = [];
    for (let round = 0; round < ROUNDS[batch]; round++) {
      const answers = await Promise.all(
        people.slice(0, batch).map(async ({ client, roomId }) => {
          const prompt = `picture ${(asked += 1)}`;
          const { jobId } = await client.room.createImage({ roomId, prompt });
          return { client, jobId, prompt, answeredAt: performance.now() };
        }),
      );
      for (const { client, jobId } of answers)
        while ((await client.room.checkJobStatus({ jobId })).state !== 'succeeded')
          await new Promise((resolve) => setTimeout(resolve, 20));
      overheads.push(...answers.map((a) => reached.get(a.prompt)! - a.answeredAt));
    }
    rows.push({
      dialect,
      'asked at once': batch,
      pictures: overheads.length,
      'createImage → engine p50 ms': ms(percentile(overheads, 50)),
      'p95 ms': ms(percentile(overheads, 95)),
      'max ms': ms(Math.max(...overheads)),
    });
  }
  await app.close();
  await double.close();
  return rows;
}

const rows = await run('sqlite');
if (await postgresAvailable()) rows.push(...(await run('postgres')));
else console.error('PostgreSQL does not answer: its rows are left out.');
console.log(
  `Pictures: from POST /room/createImage answering to the engine receiving the request, on ${os.cpus().length} cores (server, engine double and clients in one process).`,
);
console.table(rows);
