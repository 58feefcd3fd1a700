import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startMainProcess } from './main-process';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@mates/api-client';
import { connect } from '../src/db/connect';
import { linkOrCreateUser } from '../src/accounts/external-account-service';
import { createSession } from '../src/accounts/sessions';
import { startOpenAiDouble } from './openai-double';
import { chattableMateId, freshDatabase, insertUser, postgresAvailable } from './harness';
import { seedIfEmpty } from '../src/seed/seed';
import { createFolderStore } from '../src/media/folder-store';
import { appendMessages } from '../src/chat/messages';
import { loadConfig } from '../src/config';
import { startServer } from '../src/server';
import { captureLog } from './log-capture';
import { listenPort } from '../../../scripts/listen-port';
import { newRoomRow } from '../src/chat/room-repository';

/** `src/main.ts` in a process of its own, as `pnpm start` runs it; resolves once it listens. */
async function startProcess(env: Record<string, string>): Promise<ChildProcess> {
  return (await startMainProcess(env)).child;
}

describe('a reply left by a killed process', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-recovery-'));
  let double: Awaited<ReturnType<typeof startOpenAiDouble>>;
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    double = await startOpenAiDouble();
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await double.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is marked failed and its chat given back when the server starts again', async () => {
    const port = await listenPort();
    const env = {
      PORT: String(port),
      DATA_DIR: dataDir,
      LLM_PROVIDER: 'openai',
      LLM_BASE_URL: double.baseUrl,
      LLM_API_KEY: 'sk-test',
    };
    child = await startProcess(env);
    // A signed-in user, made in the server's own database file.
    const { db, close } = connect({ sqliteFile: path.join(dataDir, 'mates.db') });
    const { user } = await linkOrCreateUser(
      db,
      {
        provider: 'google',
        subject: 'sub-1',
        email: 'killed@example.com',
        emailVerified: true,
        nickname: 'K',
        avatar: null,
      },
      'en',
      { chats: 5, goldCoins: 0 },
    );
    const token = await createSession(db, user.id);
    const client = createApiClient({
      baseUrl: `http://127.0.0.1:${port}/api`,
      getToken: () => token,
      getLanguage: () => 'en',
    });
    const room = await client.room.createRoom({ mateId: await chattableMateId(db) });

    // The provider never answers; the process dies before the first word is saved.
    double.next({ kind: 'hang' });
    const controller = new AbortController();
    const started = new Promise<void>((resolve) => {
      client.girl
        .chatSend(
          { roomId: room.roomId, content: 'Hello?' },
          {
            signal: controller.signal,
            onData: (event) => {
              if (event.type === 'reply-start') resolve();
            },
          },
        )
        .catch(() => {});
    });
    await started;
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    controller.abort();
    const reply = () =>
      db
        .selectFrom('messages')
        .selectAll()
        .where('room_id', '=', room.roomId)
        .orderBy('position', 'desc')
        .executeTakeFirstOrThrow();
    expect(await reply()).toMatchObject({ status: 'partial', content: '' });
    expect((await client.user.benefits().catch(() => null))?.chats).toBeUndefined();

    child = await startProcess(env);
    expect(await reply()).toMatchObject({ status: 'error', content: '' });
    expect((await client.user.benefits()).chats).toBe(5);
    const ledger = await db
      .selectFrom('benefit_ledger')
      .select(['chats_delta', 'reason'])
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute();
    expect(ledger.slice(-2)).toEqual([
      { chats_delta: -1, reason: 'chat' },
      { chats_delta: 1, reason: 'refund: reply abandoned' },
    ]);
    await close();
  }, 60_000);
});

describe.skipIf(!(await postgresAvailable()))(
  'a server started while Redis does not answer',
  () => {
    it('starts and serves, and says it will look again for the replies a stop left', async () => {
      const database = await freshDatabase('postgres');
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-recovery-'));
      const { db } = database;
      await seedIfEmpty(db, { media: createFolderStore(dataDir) });
      await insertUser(db, { id: 'left-user', email: 'left@example.com' });
      await db
        .insertInto('rooms')
        .values(
          newRoomRow({
            id: 'left-room',
            user_id: 'left-user',
            mate_id: await chattableMateId(db),
            persona_id: null,
            created_at: new Date().toISOString(),
            updated_at: new Date().toISOString(),
          }),
        )
        .execute();
      // An empty reply a server left behind: whether its room is held, only Redis could tell.
      await appendMessages(db, 'left-room', [{ role: 'mate', content: '', status: 'partial' }]);
      const { logger, lines } = captureLog();
      const port = await listenPort();
      const config = loadConfig({
        PORT: String(port),
        DATA_DIR: dataDir,
        DATABASE_URL: database.url!,
        REDIS_URL: `redis://127.0.0.1:${await listenPort()}/0`,
        SPEECH_PROVIDER: 'none',
      });
      const server = await startServer(config, logger);
      try {
        expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
        expect(lines).toContain(
          'could not look for what a stopped server left unfinished; looking again in 30 s',
        );
        const left = await db
          .selectFrom('messages')
          .select('status')
          .where('room_id', '=', 'left-room')
          .executeTakeFirstOrThrow();
        expect(left.status).toBe('partial');
      } finally {
        await server.close();
        await database.drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }, 60_000);
  },
);
