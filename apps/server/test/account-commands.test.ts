import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/open-database';
import { migrateToLatest } from '../src/db/migrate';
import { insertUser } from './harness';
import { readZip } from './zip-entries';

// Issue 41: an operator exports and deletes an account on its owner's request.
const CLI = path.join(import.meta.dirname, '..', 'src', 'cli');

function command(name: string, dataDir: string, args: string[]) {
  try {
    const stdout = execFileSync(
      process.execPath,
      ['--conditions=@mates/source', '--import', 'tsx', path.join(CLI, `${name}.ts`), ...args],
      {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    return { status: 0, stdout, stderr: '' };
  } catch (error) {
    const failed = error as { status: number; stdout: string; stderr: string };
    return { status: failed.status, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the export-account and delete-account commands', () => {
  let dataDir: string;
  const database = () => openDatabase(loadConfig({ DATA_DIR: dataDir }));
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-account-commands-'));
    const { db, dialect, close } = database();
    await migrateToLatest(db as never, dialect);
    await insertUser(db, { id: 'u-grace', email: 'grace@example.com', nickname: 'Grace' });
    const at = new Date().toISOString();
    await db
      .insertInto('personas')
      .values({
        id: 'p-grace',
        user_id: 'u-grace',
        name: 'Admiral',
        description: 'Writes compilers.',
        avatar: null,
        is_default: 0,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await close();
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('exports an account by e-mail into a zip, and refuses to overwrite a file', async () => {
    const file = path.join(dataDir, 'grace.zip');
    const run = command('export-account', dataDir, ['--email', 'GRACE@example.com', file]);
    expect(run).toMatchObject({ status: 0 });
    expect(run.stdout).toMatch(/\[mates\] grace@example\.com: wrote .*grace\.zip \(\d+\.\d MB\)/);
    const zip = await readZip(fs.readFileSync(file));
    const account = JSON.parse(zip.get('account.json')!.toString('utf8'));
    expect(account.account.email).toBe('grace@example.com');
    expect(account.personas).toEqual([expect.objectContaining({ name: 'Admiral' })]);
    expect(
      command('export-account', dataDir, ['--email', 'grace@example.com', file]),
    ).toMatchObject({ status: 1, stderr: `[mates] ${file} exists already: name a new file\n` });
    expect(
      command('export-account', dataDir, ['--email', 'nobody@example.com', `${file}.2`]),
    ).toMatchObject({
      status: 1,
      stderr: '[mates] no account has the e-mail address nobody@example.com\n',
    });
  });

  it('deletes an account by e-mail only with --yes', async () => {
    const refused = command('delete-account', dataDir, ['--email', 'grace@example.com']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      /^\[mates\] add --yes to delete the account of grace@example\.com/,
    );
    const count = async () => {
      const { db, close } = database();
      try {
        return (await db.selectFrom('users').select('id').where('id', '=', 'u-grace').execute())
          .length;
      } finally {
        await close();
      }
    };
    expect(await count()).toBe(1);
    const run = command('delete-account', dataDir, ['--email', 'grace@example.com', '--yes']);
    expect(run).toMatchObject({ status: 0 });
    expect(run.stdout).toContain('[mates] grace@example.com: the account is deleted');
    expect(await count()).toBe(0);
    const { db, close } = database();
    try {
      expect(
        await db.selectFrom('personas').select('id').where('user_id', '=', 'u-grace').execute(),
      ).toEqual([]);
    } finally {
      await close();
    }
    // The address was told, through the outbox.
    const outbox = path.join(dataDir, 'outbox');
    const mails = fs
      .readdirSync(outbox)
      .map((name) => fs.readFileSync(path.join(outbox, name), 'utf8'));
    expect(mails.some((mail) => mail.includes('Your Mates account was deleted'))).toBe(true);
    expect(
      command('delete-account', dataDir, ['--email', 'grace@example.com', '--yes']),
    ).toMatchObject({
      status: 1,
      stderr: '[mates] no account has the e-mail address grace@example.com\n',
    });
  });
});
