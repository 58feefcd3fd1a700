import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Mail, Mailer } from '../src/mail/mailer';
import { createTestApp, signUp, type TestApp } from './harness';
import { startMainProcess } from './main-process';

// Review of issue #36: forgotPassword's background work read `(error as Error).message` in its
// catch, so a rejection with no error (null, undefined) threw again there: an unhandled
// rejection, which ends a Node process. And the process had no word of its own for one.

/** Asks until `done` holds; fails after `tries` asks (no timing is asserted). */
async function until(done: () => boolean, tries = 200) {
  for (let i = 0; i < tries && !done(); i += 1)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(done()).toBe(true);
}

describe('a reset link whose mail fails without an error', () => {
  let app: TestApp;
  let failWith: { reason: unknown } | null = null;
  const sent: Mail[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    const mailer: Mailer & { sent: Mail[] } = {
      sent,
      describe: () => 'failing on demand',
      send: async (mail) => {
        if (failWith) throw failWith.reason;
        sent.push(mail);
      },
    };
    app = await createTestApp('sqlite', { mailer });
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await app.close();
  });
  afterEach(() => {
    failWith = null;
  });

  for (const reason of [undefined, null, 'a bare string']) {
    it(`is logged, and nothing goes unhandled (${String(reason)})`, async () => {
      const email = `reset-${String(reason).replace(/\W/g, '')}@example.com`;
      await signUp(app, email);
      failWith = { reason };
      await expect(app.client().user.forgotPassword({ email })).resolves.toBeNull();
      await until(() =>
        app.logs.some(
          (line) =>
            line.startsWith('the reset link for a forgotten password was not sent') &&
            line.includes(String(reason)),
        ),
      );
      expect(unhandled).toEqual([]);
    });
  }
});

describe('the server process', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-unhandled-'));
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs a rejection nobody handled and keeps answering', async () => {
    const output: string[] = [];
    const started = await startMainProcess(
      {
        PORT: '0',
        DATA_DIR: dataDir,
        LLM_PROVIDER: 'openai',
        LLM_BASE_URL: 'http://127.0.0.1:9/v1',
        LLM_API_KEY: 'sk-test',
        LOG_FORMAT: 'json',
      },
      {
        output,
        nodeArgs: ['--import', path.join(import.meta.dirname, 'unhandled-rejection-hook.mjs')],
      },
    );
    child = started.child;
    child.kill('SIGUSR2');
    await until(() => output.join('').includes('a stray fault nobody awaited'));
    const line = output
      .join('')
      .split('\n')
      .find((text) => text.startsWith('{') && text.includes('a stray fault nobody awaited'));
    expect(JSON.parse(line ?? 'null')).toMatchObject({
      level: 50,
      msg: expect.stringMatching(/unhandled/),
    });
    expect(child.exitCode).toBeNull();
    expect((await fetch(`${started.url}/api/ready`)).status).toBe(200);
  });
});
