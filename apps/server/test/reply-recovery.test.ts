import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chattableMateId, freshDatabase, insertUser, postgresAvailable } from './harness';
import { seedIfEmpty } from '../src/seed/seed';
import { createFolderStore } from '../src/media/folder-store';
import { appendMessages } from '../src/chat/messages';
import { loadConfig } from '../src/config';
import { startServer } from '../src/server';
import { captureLog } from './log-capture';
import { listenPort } from '../../../scripts/listen-port';
import { newRoomRow } from '../src/chat/room-repository';
import { killableServer } from './killable-server';

describe('a reply left by a killed process', () => {
  let server: Awaited<ReturnType<typeof killableServer>>;
  beforeAll(async () => {
    server = await killableServer('recovery');
  });
  afterAll(() => server.close());

  it('is marked failed and its chat given back when the server starts again', async () => {
    await server.start();
    const { db, user, client, room } = await server.signedIn('sub-1');

    // The provider never answers; the process dies before the first word is saved.
    server.model.next({ kind: 'hang' });
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
    await server.kill();
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

    await server.start();
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
