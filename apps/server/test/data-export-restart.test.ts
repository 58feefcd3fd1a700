import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient, type DataExport } from '@mates/api-client';
import { DIALECTS, insertUser, postgresAvailable, seededMate } from './harness';
import { jobsDatabase, killHard, startServerProcess, waitFor } from './jobs-helpers';
import { readZip } from './zip-entries';
import { createSession } from '../src/accounts/sessions';
import { newRoomRow } from '../src/chat/room-repository';
import { messageRow } from '../src/chat/message-repository';

// Issue 41: "Download my data" is a durable job: a server killed while it writes the zip takes
// the job up again after a restart, and the zip it hands out is whole.
const withPostgres = await postgresAvailable();
const ROOMS = 400;
const MESSAGES = 10;
const children: ChildProcess[] = [];

describe.each(DIALECTS)('a data export across a server restart on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const port = dialect === 'sqlite' ? 4721 : 4731;
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) await killHard(child);
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it.skipIf(skip)(
    'is written whole after a server killed mid-export starts again',
    async () => {
      const database = await jobsDatabase(dialect);
      cleanups.push(() => database.close());
      const env = {
        PORT: String(port),
        DATA_DIR: database.dataDir,
        ...(database.url ? { DATABASE_URL: database.url } : {}),
        JOBS_RUNS_FILE: `${database.dataDir}/runs.txt`,
        JOBS_HOOKS_FILE: `${database.dataDir}/hooks.txt`,
        // A run whose process died is taken up again after this.
        EXPORT_TIMEOUT: '20',
      };
      children.push(await startServerProcess(env));
      const { db } = database;
      await insertUser(db, { id: 'exporter', email: 'exporter@example.com', nickname: 'Ex' });
      const token = await createSession(db, 'exporter');
      const kai = await seededMate(db, 'Kai Tanaka');
      // Enough chats that writing them takes a while.
      const at = new Date().toISOString();
      const roomIds: string[] = [];
      for (let room = 0; room < ROOMS; room++) {
        const roomId = randomUUID();
        roomIds.push(roomId);
        await db
          .insertInto('rooms')
          .values(newRoomRow({ id: roomId, user_id: 'exporter', mate_id: kai.id }))
          .execute();
        await db
          .insertInto('messages')
          .values(
            Array.from({ length: MESSAGES }, (_, index) =>
              messageRow(
                {
                  role: index % 2 ? 'mate' : 'user',
                  content: `Message ${index} of chat ${room}. `.repeat(20),
                  status: 'complete',
                },
                { id: randomUUID(), roomId, position: index + 1, at },
              ),
            ),
          )
          .execute();
      }
      const client: ApiClient = createApiClient({
        baseUrl: `http://127.0.0.1:${port}/api`,
        getToken: () => token,
        getLanguage: () => 'en',
      });
      const started = await client.user.exportData();
      // Killed while it writes the zip (it said how far it got), not before it began.
      await waitFor(
        async () => (await client.user.exportStatus()).latest,
        (latest) => latest?.state === 'running' && latest.progress > 0,
        60_000,
      );
      await killHard(children.pop()!);

      children.push(await startServerProcess(env));
      const done = (await waitFor(
        async () => (await client.user.exportStatus()).latest,
        (latest) => latest?.state === 'ready' || latest?.state === 'failed',
        90_000,
      )) as DataExport;
      expect(done).toMatchObject({ exportId: started.exportId, state: 'ready' });
      // Its job ends succeeded a moment after the zip is stored, on its second run.
      const job = await waitFor(
        () =>
          db
            .selectFrom('jobs')
            .select(['state', 'attempts'])
            .where('id', '=', started.exportId)
            .executeTakeFirstOrThrow(),
        (row) => row.state !== 'running',
      );
      expect(job).toMatchObject({ state: 'succeeded', attempts: 2 });
      const answer = await fetch(`http://127.0.0.1:${port}${done.downloadUrl}`, {
        headers: { token },
      });
      expect(answer.status).toBe(200);
      const zip = await readZip(Buffer.from(await answer.arrayBuffer()));
      const chats = JSON.parse(zip.get('chats/index.json')!.toString('utf8'));
      expect(chats.map((chat: { roomId: string }) => chat.roomId).sort()).toEqual(
        [...roomIds].sort(),
      );
      for (const chat of chats.slice(-3)) {
        const json = JSON.parse(zip.get(chat.files[0])!.toString('utf8'));
        expect(json.messages).toHaveLength(MESSAGES);
      }
    },
    240_000,
  );
});
