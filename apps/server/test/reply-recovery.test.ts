import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startMainProcess } from './main-process';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@mates/api-client';
import { connect } from '../src/db/connect';
import { linkOrCreateUser } from '../src/accounts/external-accounts';
import { createSession } from '../src/accounts/sessions';
import { startOpenAiDouble } from './openai-double';
import { chattableMateId } from './harness';
import { listenPort } from '../../../scripts/listen-port';

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
    const user = await linkOrCreateUser(
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
