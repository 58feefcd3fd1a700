import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/open-database';
import { migrateToLatest } from '../src/db/migrate';
import { insertUser } from './harness';

// Issue #17: without payments, an operator gives benefits by e-mail, written in the ledger.
const GRANT = path.join(import.meta.dirname, '..', 'src', 'cli', 'grant.ts');

function grant(dataDir: string, args: string[]) {
  try {
    const stdout = execFileSync(
      process.execPath,
      ['--conditions=@mates/source', '--import', 'tsx', GRANT, ...args],
      {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
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

describe('the grant command', () => {
  let dataDir: string;
  const database = () => openDatabase(loadConfig({ DATA_DIR: dataDir }));
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-grant-'));
    const { db, dialect, close } = database();
    await migrateToLatest(db as never, dialect);
    await insertUser(db, { id: 'u1', email: 'ada@example.com', nickname: 'Ada' });
    await close();
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const ledger = async () => {
    const { db, close } = database();
    try {
      return await db
        .selectFrom('benefit_ledger')
        .select([
          'kind',
          'reason',
          'chats_delta',
          'gold_coins_delta',
          'chats_after',
          'gold_coins_after',
        ])
        .where('user_id', '=', 'u1')
        .orderBy('id')
        .execute();
    } finally {
      await close();
    }
  };

  it('gives chats and gold coins by e-mail, recorded with the reason', async () => {
    const run = grant(dataDir, [
      '--email',
      'ADA@example.com',
      '--chats',
      '10',
      '--gold-coins',
      '5',
      '--reason',
      'support ticket 42',
    ]);
    expect(run).toMatchObject({ status: 0 });
    expect(run.stdout).toContain(
      'ada@example.com: +10 chats, +5 gold coins (support ticket 42); now 10 chats and 5 gold coins',
    );
    expect(await ledger()).toEqual([
      {
        kind: 'grant',
        reason: 'support ticket 42',
        chats_delta: 10,
        gold_coins_delta: 5,
        chats_after: 10,
        gold_coins_after: 5,
      },
    ]);
  });

  it('takes back without going below zero', async () => {
    const run = grant(dataDir, [
      '--email',
      'ada@example.com',
      '--gold-coins=-8',
      '--reason',
      'chargeback',
    ]);
    expect(run.status).toBe(0);
    expect((await ledger()).at(-1)).toEqual({
      kind: 'adjustment',
      reason: 'chargeback',
      chats_delta: 0,
      gold_coins_delta: -5,
      chats_after: 10,
      gold_coins_after: 0,
    });
  });

  it('says what is wrong, in one line, and changes nothing', async () => {
    const before = (await ledger()).length;
    expect(grant(dataDir, ['--email', 'nobody@example.com', '--chats', '1'])).toMatchObject({
      status: 1,
      stderr: '[mates] no account has the e-mail address nobody@example.com\n',
    });
    expect(grant(dataDir, ['--email', 'ada@example.com', '--chats', 'lots'])).toMatchObject({
      status: 1,
      stderr: '[mates] --chats must be a whole number (got "lots")\n',
    });
    expect(grant(dataDir, ['--chats', '1']).stderr).toMatch(/^\[mates\] --email is required/);
    expect(grant(dataDir, ['--email', 'ada@example.com', '--color', 'red']).stderr).toMatch(
      /^\[mates\] Unknown option '--color'/,
    );
    expect((await ledger()).length).toBe(before);
  });
});
