import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { createApiClient } from '@mates/api-client';
import { linkOrCreateUser } from '../src/accounts/external-account-service';
import { createSession } from '../src/accounts/sessions';
import { connect } from '../src/db/connect';
import { listenPort } from '../../../scripts/listen-port';
import { chattableMateId } from './harness';
import { startMainProcess } from './main-process';
import { startOpenAiDouble } from './openai-double';

/**
 * A server a test kills: `src/main.ts` in a process of its own on SQLite, in a data folder of
 * its own, answering through the OpenAI-compatible double (`model`). `start()` runs it (again
 * after a kill, on the same port and files); `kill()` ends it at once (SIGKILL) and waits for
 * it; `signedIn(name)` makes a person with 5 chats in the server's own database file, their
 * client and a room with a seeded mate. `close()` ends all of it; call it in `afterAll`.
 */
export async function killableServer(name: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `mates-${name}-`));
  const model = await startOpenAiDouble();
  const port = await listenPort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    PORT: String(port),
    DATA_DIR: dataDir,
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: model.baseUrl,
    LLM_API_KEY: 'sk-test',
  };
  let child: ChildProcess | undefined;
  const databases: { close: () => Promise<void> }[] = [];
  return {
    base,
    model,
    async start() {
      child = (await startMainProcess(env)).child;
    },
    async kill() {
      const running = child;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    },
    /** A person signed in on the running server, with their client and a room (`start` first). */
    async signedIn(subject: string) {
      const database = connect({ sqliteFile: path.join(dataDir, 'mates.db') });
      databases.push(database);
      const { db } = database;
      const { user } = await linkOrCreateUser(
        db,
        {
          provider: 'google',
          subject,
          email: `${subject}@example.com`,
          emailVerified: true,
          nickname: 'K',
          avatar: null,
        },
        'en',
        { chats: 5, goldCoins: 0 },
      );
      const token = await createSession(db, user.id);
      const client = createApiClient({
        baseUrl: `${base}/api`,
        getToken: () => token,
        getLanguage: () => 'en',
      });
      const room = await client.room.createRoom({ mateId: await chattableMateId(db) });
      return { db, user, token, client, room };
    },
    async close() {
      child?.kill('SIGKILL');
      await Promise.all(databases.map((database) => database.close()));
      await model.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
