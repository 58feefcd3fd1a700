import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@mates/api-client';
import { connect } from '../src/db/connect';
import { migrateTo, migrateToLatest, migrationNames } from '../src/db/migrate';
import { createSession } from '../src/accounts/sessions';
import { insertUser, seededMate } from './harness';
import { runCommand } from './cli-helpers';
import { startMainProcess } from './main-process';

// Issue #18: `backup` copies the SQLite database while the server writes to it (SQLite's
// online backup API); `restore` puts a backup back with the server stopped.
const SPAWNS = { timeout: 180_000 };
const ALL = migrationNames();

const rooms = (file: string): number => {
  const db = new SqliteDatabase(file, { readonly: true });
  try {
    return (db.prepare('select count(*) as n from rooms').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

/** `src/main.ts` on `dataDir` in a process of its own; resolves with its address once it listens. */
async function startServerProcess(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  return startMainProcess({
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    MIGRATE: '',
    PORT: '0',
    // Nothing here talks to a model: an OpenAI-compatible one that is never called.
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: 'http://127.0.0.1:47499/v1',
    LLM_API_KEY: 'sk-test',
    LLM_MODEL: 'unused',
    SPEECH_PROVIDER: 'none',
  });
}

describe('backup and restore of the SQLite database', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-backup-'));
  const dataDir = path.join(dir, 'data');
  const live = path.join(dataDir, 'mates.db');
  const env = { DATA_DIR: dataDir };
  const children: ChildProcess[] = [];
  afterAll(() => {
    // A test that failed midway leaves no server behind.
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    'backs up while a server process writes, then restores with the server stopped',
    SPAWNS,
    async () => {
      const { child, url } = await startServerProcess(dataDir);
      children.push(child);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // The test's own connection: a user and session, and some bulk so that copying takes a
      // while (the server's tables hold little on their own).
      const database = connect({ sqliteFile: live });
      await insertUser(database.db, { id: 'u1', email: 'ada@example.com', nickname: 'Ada' });
      const token = await createSession(database.db, 'u1');
      const mate = await seededMate(database.db, 'Kai Tanaka');
      const sqlite = new SqliteDatabase(live);
      sqlite.exec('create table bulk (data blob)');
      const fill = sqlite.prepare('insert into bulk values (randomblob(65536))');
      sqlite.transaction(() => {
        for (let i = 0; i < 300; i++) fill.run();
      })();
      sqlite.close();

      // The server writes a room (and its greeting) per call, without pause, until told to stop.
      const client = createApiClient({
        baseUrl: `${url}/api`,
        getToken: () => token,
        getLanguage: () => 'en',
      });
      let written = 0;
      let stop = false;
      const failures: unknown[] = [];
      const writer = (async () => {
        while (!stop) {
          try {
            await client.room.createRoom({ mateId: mate.id });
            written++;
          } catch (error) {
            failures.push(error);
            return;
          }
        }
      })();
      const waitForWrites = async (count: number) => {
        while (written < count && failures.length === 0)
          await new Promise((resolve) => setTimeout(resolve, 10));
      };

      await waitForWrites(5);
      const before = written;
      const backupFile = path.join(dir, 'backup.db');
      const backup = await runCommand('cli/backup.ts', env, [backupFile]);
      const after = written;
      await waitForWrites(after + 5);
      stop = true;
      await writer;

      expect(failures).toEqual([]);
      expect(backup).toMatchObject({ status: 0, stderr: '' });
      expect(backup.stdout).toMatch(
        new RegExp(
          `^\\[mates\\] backed up ${live} to ${backupFile} \\(\\d+\\.\\d MB, \\d+ pages\\)\\n$`,
        ),
      );
      // One self-contained, intact file holding the rooms as they were at some moment of the copy.
      const copy = new SqliteDatabase(backupFile, { readonly: true });
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
      copy.close();
      expect(fs.existsSync(`${backupFile}-wal`)).toBe(false);
      const saved = rooms(backupFile);
      expect(saved).toBeGreaterThanOrEqual(before);
      expect(saved).toBeLessThanOrEqual(after);

      // While anything has the database open, restore refuses and changes nothing.
      const refused = await runCommand('cli/restore.ts', env, [backupFile]);
      expect(refused).toEqual({
        status: 1,
        stdout: '',
        stderr: `[mates] The database ${live} is in use by a running server or command; stop it, then try again\n`,
      });

      child.kill('SIGTERM');
      await exited;
      await database.close();
      const latest = rooms(live);
      expect(latest).toBe(written);

      const restore = await runCommand('cli/restore.ts', env, [backupFile]);
      expect(restore).toMatchObject({ status: 0, stderr: '' });
      const [restored, kept] = restore.stdout.trimEnd().split('\n');
      expect(restored).toMatch(
        new RegExp(
          `^\\[mates\\] restored ${backupFile} into ${live} \\(\\d+\\.\\d MB, \\d+ pages\\)$`,
        ),
      );
      const keptAs = /^\[mates\] the database it replaced is kept as (\S+)$/.exec(kept!)?.[1];
      expect(keptAs).toMatch(new RegExp(`^${live}\\.before-restore-`));
      expect(rooms(live)).toBe(saved);
      expect(rooms(keptAs!)).toBe(latest);

      // The restored database serves again.
      const again = await startServerProcess(dataDir);
      children.push(again.child);
      const back = await fetch(`${again.url}/api/ready`);
      again.child.kill('SIGTERM');
      expect(back.status).toBe(200);
      await new Promise((resolve) => again.child.once('exit', resolve));
    },
  );

  it('refuses what it cannot restore, saying why, and changes nothing', SPAWNS, async () => {
    const junk = path.join(dir, 'junk.db');
    fs.writeFileSync(junk, 'not a database at all, just some text that is long enough');
    const other = path.join(dir, 'other.db');
    const otherDb = new SqliteDatabase(other);
    otherDb.exec('create table notes (text)');
    otherDb.close();
    const newer = path.join(dir, 'newer.db');
    const newerDb = connect({ sqliteFile: newer });
    await migrateToLatest(newerDb.db as never, 'sqlite');
    await newerDb.close();
    const addFuture = new SqliteDatabase(newer);
    addFuture
      .prepare('insert into kysely_migration (name, timestamp) values (?, ?)')
      .run('2099-01-01-0001-future', new Date().toISOString());
    addFuture.close();
    const listing = () => fs.readdirSync(dataDir).sort();
    const before = listing();

    const cases: [string[], Record<string, string>, string][] = [
      [[junk], {}, `[mates] The backup ${junk} is not an intact SQLite database (SQLITE_NOTADB)`],
      [[other], {}, `[mates] The backup ${other} is not a Mates database (it has no migrations)`],
      [
        [newer],
        {},
        `[mates] The backup ${newer} comes from a newer version of Mates (its migration 2099-01-01-0001-future is unknown here); restore it with that version`,
      ],
      [
        [path.join(dir, 'missing.db')],
        {},
        `[mates] There is no backup at ${path.join(dir, 'missing.db')}`,
      ],
      [
        [junk],
        { DATABASE_URL: 'postgres://postgres@127.0.0.1:47409/mates' },
        '[mates] restore replaces the SQLite database, and this server uses PostgreSQL (DATABASE_URL): restore it with pg_restore as docs/deploy.md shows',
      ],
    ];
    for (const [args, extra, message] of cases) {
      expect(await runCommand('cli/restore.ts', { ...env, ...extra }, args)).toEqual({
        status: 1,
        stdout: '',
        stderr: `${message}\n`,
      });
    }
    expect(listing()).toEqual(before);

    expect(
      await runCommand('cli/backup.ts', env, [path.join(dir, 'no-such-folder', 'b.db')]),
    ).toMatchObject({
      status: 1,
      stderr: `[mates] The folder of ${path.join(dir, 'no-such-folder', 'b.db')} does not exist; create it first\n`,
    });
    expect(await runCommand('cli/backup.ts', env, [dir])).toMatchObject({
      status: 1,
      stderr: `[mates] ${dir} is a folder; name the file to write in it\n`,
    });
    expect(await runCommand('cli/backup.ts', env, [live])).toMatchObject({
      status: 1,
      stderr: `[mates] ${live} is the database itself; name another file\n`,
    });
    expect(
      await runCommand('cli/backup.ts', { DATA_DIR: path.join(dir, 'empty') }, [
        path.join(dir, 'b.db'),
      ]),
    ).toMatchObject({
      status: 1,
      stderr: `[mates] There is no database at ${path.join(dir, 'empty', 'mates.db')}\n`,
    });
  });

  it(
    'restores a backup of an older version and says its migrations are to run',
    SPAWNS,
    async () => {
      const oldDir = path.join(dir, 'old');
      fs.mkdirSync(oldDir);
      const old = connect({ sqliteFile: path.join(oldDir, 'mates.db') });
      await migrateTo(old.db as never, 'sqlite', ALL.at(-2)!);
      await old.close();
      const backupFile = path.join(dir, 'old-backup.db');
      expect((await runCommand('cli/backup.ts', { DATA_DIR: oldDir }, [backupFile])).status).toBe(
        0,
      );

      const freshDir = path.join(dir, 'fresh');
      const restore = await runCommand('cli/restore.ts', { DATA_DIR: freshDir }, [backupFile]);
      expect(restore).toMatchObject({ status: 0, stderr: '' });
      expect(restore.stdout).toContain(
        '[mates] the backup is from an older version: 1 migration(s) to run; the next start runs them\n',
      );
      expect(restore.stdout).not.toContain('kept as');
      expect(await runCommand('cli/migrate.ts', { DATA_DIR: freshDir }, ['--check'])).toMatchObject(
        { status: 1, stdout: expect.stringContaining(`1 migration(s) to run:\n  ${ALL.at(-1)}`) },
      );
    },
  );
});
