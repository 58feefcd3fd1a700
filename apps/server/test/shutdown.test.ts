import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiClient, type ChatStreamEvent } from '@mates/api-client';
import { loadConfig } from '../src/config';
import { startServer } from '../src/server';
import { createSession } from '../src/accounts/sessions';
import { grantBenefits } from '../src/accounts/benefits';
import { startOpenAiDouble } from './openai-double';
import { insertUser, seededMate } from './harness';
import { silentLogger } from '../src/logging/logger';

// Issue #18: a stop (SIGTERM) while a reply streams ends it saved as far as it got, tells the
// reader why, and closes; before, the server waited for the generation to end on its own.
describe('stopping the server while a reply is being written', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-shutdown-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('saves the partial reply, sends an error event, and closes', async () => {
    const double = await startOpenAiDouble();
    // The provider sends two pieces, then goes silent with the connection open.
    double.next({ kind: 'stall', pieces: ['The tide ', 'turns'] });
    const running = await startServer(
      loadConfig({
        DATA_DIR: dataDir,
        PORT: '0',
        PUBLIC_URL: 'http://mates.test',
        LLM_PROVIDER: 'openai',
        LLM_BASE_URL: double.baseUrl,
        LLM_API_KEY: 'sk-test',
        LLM_MODEL: 'mate-model',
        SPEECH_PROVIDER: 'none',
        SHUTDOWN_TIMEOUT: '60',
      }),
      silentLogger(),
    );
    const { db } = running.deps;
    await insertUser(db, { id: 'u1', email: 'ada@example.com', nickname: 'Ada' });
    await grantBenefits(
      db,
      'u1',
      { chats: 5, goldCoins: 0 },
      { kind: 'grant', reason: { text: 'test' }, reference: null },
    );
    const token = await createSession(db, 'u1');
    const client = createApiClient({
      baseUrl: `${running.url}/api`,
      getToken: () => token,
      getLanguage: () => 'en',
    });
    const mate = await seededMate(db, 'Kai Tanaka');
    const room = await client.room.createRoom({ mateId: mate.id });

    const events: ChatStreamEvent[] = [];
    let closing: Promise<void> | null = null;
    await client.girl.chatSend(
      { roomId: room.roomId, content: 'Tell me about the sea.' },
      {
        onData: (event) => {
          events.push(event);
          const text = events.flatMap((e) => (e.type === 'reply-delta' ? [e.text] : [])).join('');
          if (text === 'The tide turns' && !closing) closing = running.close();
        },
      },
    );
    await closing;

    const end = events.at(-1)!;
    expect(end).toMatchObject({
      type: 'error',
      message: 'The server is restarting. What arrived is kept; send again in a moment.',
    });
    const saved = await (async () => {
      // The database is closed with the server: read the file again.
      const { openDatabase } = await import('../src/db/open-database');
      const again = openDatabase(loadConfig({ DATA_DIR: dataDir }));
      try {
        return await again.db
          .selectFrom('messages')
          .select(['content', 'status'])
          .where('room_id', '=', room.roomId)
          .where('role', '=', 'mate')
          .orderBy('position', 'desc')
          .executeTakeFirstOrThrow();
      } finally {
        await again.close();
      }
    })();
    expect(saved).toEqual({ content: 'The tide turns', status: 'partial' });
    await double.close();
  });
});
