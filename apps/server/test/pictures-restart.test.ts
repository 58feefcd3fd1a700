import fs from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient, type JobStatus } from '@mates/api-client';
import { DIALECTS, postgresAvailable, seededMate } from './harness';
import { jobsDatabase, killHard, startServerProcess, waitFor } from './jobs-helpers';
import { startAutomatic1111Double } from './image-doubles';
import { createSession } from '../src/accounts/sessions';
import { grantBenefits } from '../src/accounts/benefits';

// Issue #15: a server killed while it draws a picture loses nothing: after a restart the job
// ends succeeded (the picture is in the room) or failed with the gold coins given back.
const withPostgres = await postgresAvailable();
const COST = 7;
const children: ChildProcess[] = [];

async function startProcess(env: Record<string, string>): Promise<ChildProcess> {
  const child = await startServerProcess(env);
  children.push(child);
  return child;
}

describe.each(DIALECTS)('a picture across a server restart on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const port = dialect === 'sqlite' ? 4701 : 4711;
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) await killHard(child);
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it.skipIf(skip)(
    'a job whose server was killed mid-drawing ends after the restart, nothing lost',
    async () => {
      const double = await startAutomatic1111Double();
      cleanups.push(() => double.close());
      const database = await jobsDatabase(dialect);
      cleanups.push(() => database.close());
      const env = {
        PORT: String(port),
        DATA_DIR: database.dataDir,
        ...(database.url ? { DATABASE_URL: database.url } : {}),
        JOBS_RUNS_FILE: path.join(database.dataDir, 'runs.txt'),
        JOBS_HOOKS_FILE: path.join(database.dataDir, 'hooks.txt'),
        IMAGE_PROVIDER: 'automatic1111',
        IMAGE_BASE_URL: double.url,
        IMAGE_COST: String(COST),
        // A run whose process died is taken up again after the job's time limit (IMAGE_TIMEOUT + 10 s).
        IMAGE_TIMEOUT: '3',
      };
      const first = await startProcess(env);
      // A seeded creator, with coins and a session written straight into the database.
      const wren = await database.db
        .selectFrom('users')
        .select('id')
        .where('nickname', '=', 'Wren Calloway')
        .executeTakeFirstOrThrow();
      await grantBenefits(
        database.db,
        wren.id,
        { chats: 0, goldCoins: 20 },
        {
          kind: 'grant',
          reason: { text: 'test' },
          reference: null,
        },
      );
      const token = await createSession(database.db, wren.id);
      const client: ApiClient = createApiClient({
        baseUrl: `http://127.0.0.1:${port}/api`,
        getToken: () => token,
        getLanguage: () => 'en',
      });
      const coins = async () => (await client.user.benefits()).goldCoins;
      const kai = await seededMate(database.db, 'Kai Tanaka');
      const { roomId } = await client.room.createRoom({ mateId: kai.id });
      const before = await coins();

      double.queue.push({ kind: 'hang' });
      const ref = await client.room.createImage({ roomId, prompt: 'Kai under the stars' });
      await waitFor(
        () => client.room.checkJobStatus({ jobId: ref.jobId }),
        (status) => status.state === 'running',
        60_000,
      );
      // Killed while the engine draws (the request is at the double), not before it was asked.
      await waitFor(
        () => double.requests.some((request) => request.url === '/sdapi/v1/txt2img'),
        Boolean,
        60_000,
      );
      await killHard(first);

      await startProcess(env);
      const done: JobStatus = await waitFor(
        () => client.room.checkJobStatus({ jobId: ref.jobId }),
        (status) => status.state === 'succeeded' || status.state === 'failed',
        90_000,
      );
      if (done.state === 'succeeded') {
        expect(await coins()).toBe(before - COST);
        const picture = await fetch(`http://127.0.0.1:${port}${done.images[0]!}`);
        expect(picture.status).toBe(200);
        expect(picture.headers.get('content-type')).toBe('image/webp');
      } else {
        expect(await coins()).toBe(before);
      }
      const message = (await client.room.roomInfo({ roomId })).messages.find(
        (m) => m.messageId === ref.messageId,
      );
      expect(message?.image?.state).toBe(done.state);
      expect(fs.existsSync(database.dataDir)).toBe(true);
    },
    180_000,
  );
});
