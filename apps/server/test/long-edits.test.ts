import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, type ApiClient } from '@mates/api-client';
import { loadConfig } from '../src/config';
import { startServer, type RunningServer } from '../src/server';
import { createSession } from '../src/accounts/sessions';
import { startOpenAiDouble } from './openai-double';
import { insertUser, seededMate } from './harness';
import { silentLogger } from '../src/logging/logger';

// Found from outside: `/room/editMessage` is a GET (SPEC), its text in the query string. Encoded,
// a character beyond ASCII takes 6 to 9 bytes there, and Node refuses a request whose head
// passes 16 KiB with a bare 431: an edit of 2,000 Chinese characters, well within the
// 8,000-character limit a sent message has, could not be saved. The server listens with room
// for the longest edit allowed.
describe('editing a message as long as a sent one may be, in any script', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-long-edits-'));
  let running: RunningServer;
  let double: Awaited<ReturnType<typeof startOpenAiDouble>>;
  let client: ApiClient;
  beforeAll(async () => {
    double = await startOpenAiDouble();
    running = await startServer(
      loadConfig({
        DATA_DIR: dataDir,
        PORT: '0',
        PUBLIC_URL: 'http://mates.test',
        LLM_PROVIDER: 'openai',
        LLM_BASE_URL: double.baseUrl,
        LLM_API_KEY: 'sk-test',
        LLM_MODEL: 'mate-model',
        SPEECH_PROVIDER: 'none',
      }),
      silentLogger(),
    );
    await insertUser(running.deps.db, { id: 'u1', email: 'mei@example.com', nickname: 'Mei' });
    const token = await createSession(running.deps.db, 'u1');
    client = createApiClient({
      baseUrl: `${running.url}/api`,
      getToken: () => token,
      getLanguage: () => 'en',
    });
  });
  afterAll(async () => {
    await running.close();
    await double.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('saves an edit of 8,000 Chinese characters, and refuses one more with an envelope', async () => {
    const mate = await seededMate(running.deps.db, 'Kai Tanaka');
    const { roomId } = await client.room.createRoom({ mateId: mate.id });
    const [greeting] = (await client.room.roomInfo({ roomId })).messages;
    // 8,000 characters of three UTF-8 bytes: 72,000 bytes of query once encoded.
    const longest = '海'.repeat(8000);
    const edited = await client.room.editMessage({
      roomId,
      messageId: greeting!.messageId,
      content: longest,
    });
    expect(edited.content).toBe(longest);
    expect((await client.room.roomInfo({ roomId })).messages[0]!.content).toBe(longest);

    const refused = await client.room
      .editMessage({ roomId, messageId: greeting!.messageId, content: `${longest}海` })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe(4000);
    expect((await client.room.roomInfo({ roomId })).messages[0]!.content).toBe(longest);
  });
});
