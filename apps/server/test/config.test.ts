import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

describe('configuration', () => {
  it('has embedded defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
    expect(config.mailOutboxDir).toBe(path.resolve('./data/outbox'));
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it.each([
    [{ PORT: 'eighty' }, /^Invalid PORT: .*"eighty"/],
    [
      { DATABASE_URL: 'mysql://x' },
      /^Invalid DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/,
    ],
    [{ SMTP_URL: 'http://mail' }, /^Invalid SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/],
    [{ PUBLIC_URL: 'not a url' }, /^Invalid PUBLIC_URL/],
  ])('names the variable of a bad value: %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('stops the start with one clear line', () => {
    const main = path.join(import.meta.dirname, '..', 'src', 'main.ts');
    let stderr = '';
    try {
      execFileSync(process.execPath, ['--import', 'tsx', main], {
        env: { ...process.env, PORT: 'eighty' },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      stderr = (error as { stderr: string }).stderr;
      expect((error as { status: number }).status).toBe(1);
    }
    expect(stderr.trim().split('\n')).toEqual([
      '[mates] Invalid PORT: Invalid input: expected number, received NaN (got "eighty")',
    ]);
  });
});
