import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
    [
      { ADMIN_EMAILS: 'admin@example.com, not-an-address' },
      /^Invalid ADMIN_EMAILS: must be e-mail addresses separated by commas/,
    ],
  ])('names the variable of a bad value: %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each([
    [{ IMAGE_PROVIDER: 'midjourney' }, /^Invalid IMAGE_PROVIDER: .*"midjourney"/],
    [
      { IMAGE_BASE_URL: 'http://127.0.0.1:7860' },
      /^Invalid IMAGE_PROVIDER: IMAGE_BASE_URL is set but IMAGE_PROVIDER is not/,
    ],
    [
      { IMAGE_PROVIDER: 'comfyui', IMAGE_BASE_URL: 'comfy box' },
      /^Invalid IMAGE_BASE_URL: .*"comfy box"/,
    ],
    [{ IMAGE_PROVIDER: 'automatic1111', IMAGE_COST: 'free' }, /^Invalid IMAGE_COST: .*"free"/],
    [{ IMAGE_PROVIDER: 'automatic1111', IMAGE_COST: '-1' }, /^Invalid IMAGE_COST/],
    [{ IMAGE_PROVIDER: 'automatic1111', IMAGE_TIMEOUT: '0' }, /^Invalid IMAGE_TIMEOUT: .*"0"/],
    [{ IMAGE_PROVIDER: 'openai' }, /^Invalid IMAGE_API_KEY: OpenAI needs a key/],
    [
      { IMAGE_PROVIDER: 'openai', IMAGE_BASE_URL: 'http://localai:8080/v1' },
      /^Invalid IMAGE_MODEL: an OpenAI-compatible server other than OpenAI needs/,
    ],
  ])('stops on a bad picture setting, naming it: %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads the picture engine: absent means not set up; defaults per engine', () => {
    expect(loadConfig({}).image).toBeNull();
    expect(loadConfig({ IMAGE_PROVIDER: 'automatic1111' }).image).toEqual({
      provider: 'automatic1111',
      baseUrl: 'http://127.0.0.1:7860',
      model: undefined,
      apiKey: undefined,
      cost: 5,
      timeoutMs: 300_000,
    });
    expect(
      loadConfig({
        IMAGE_PROVIDER: 'comfyui',
        IMAGE_BASE_URL: 'http://gpu-box:8188/',
        IMAGE_MODEL: 'sd_xl_base_1.0.safetensors',
        IMAGE_COST: '12',
        IMAGE_TIMEOUT: '2.5',
      }).image,
    ).toEqual({
      provider: 'comfyui',
      baseUrl: 'http://gpu-box:8188',
      model: 'sd_xl_base_1.0.safetensors',
      apiKey: undefined,
      cost: 12,
      timeoutMs: 2500,
    });
    expect(loadConfig({ IMAGE_PROVIDER: 'openai', IMAGE_API_KEY: 'sk-x' }).image).toMatchObject({
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-image-1',
    });
  });

  it('reads the speech engine: embedded by default at 1 gold coin a message; none turns it off', () => {
    expect(loadConfig({}).speech).toEqual({ provider: 'embedded', cost: 1, threads: 2 });
    expect(loadConfig({ SPEECH_COST: '0', SPEECH_THREADS: '4' }).speech).toEqual({
      provider: 'embedded',
      cost: 0,
      threads: 4,
    });
    expect(loadConfig({ SPEECH_PROVIDER: 'none' }).speech).toBeNull();
    expect(() => loadConfig({ SPEECH_PROVIDER: 'festival' })).toThrow(/^Invalid SPEECH_PROVIDER/);
    expect(() => loadConfig({ SPEECH_COST: 'free' })).toThrow(/^Invalid SPEECH_COST: .*"free"/);
  });

  it('reads ADMIN_EMAILS as lowercased addresses, blanks between commas ignored', () => {
    expect(loadConfig({}).adminEmails.size).toBe(0);
    expect([
      ...loadConfig({ ADMIN_EMAILS: ' Ana@Example.com,, bo@example.org ' }).adminEmails,
    ]).toEqual(['ana@example.com', 'bo@example.org']);
  });

  it('stops the start with one clear line', () => {
    const main = path.join(import.meta.dirname, '..', 'src', 'main.ts');
    let stderr = '';
    try {
      execFileSync(process.execPath, ['--conditions=@mates/source', '--import', 'tsx', main], {
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

  describe('a DATA_DIR it cannot use', () => {
    let scratch: string;
    beforeEach(() => void (scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-config-'))));
    afterEach(() => fs.rmSync(scratch, { recursive: true, force: true }));

    it('is named in one line with what to do', () => {
      // A path under a regular file cannot be created, even by root (tests run as root,
      // whom a chmod 555 would not stop).
      fs.writeFileSync(path.join(scratch, 'a-file'), '');
      const dataDir = path.join(scratch, 'a-file', 'data');
      const { status, stderr } = startMain({ PORT: '0', DATA_DIR: dataDir });
      expect(status).toBe(1);
      expect(stderr.trim().split('\n')).toEqual([
        `[mates] Cannot use DATA_DIR ${dataDir}: a part of the path is a file, not a directory. Set DATA_DIR to a directory this process may write to (it holds the SQLite database, media and mail).`,
      ]);
    });

    it('names the SQLite file that cannot be opened', () => {
      fs.mkdirSync(path.join(scratch, 'mates.db'));
      const { status, stderr } = startMain({ PORT: '0', DATA_DIR: scratch });
      expect(status).toBe(1);
      expect(stderr.trim().split('\n')).toEqual([
        `[mates] Cannot open the SQLite database ${path.join(scratch, 'mates.db')}: unable to open database file. Make it a database file this process may read and write, or set DATA_DIR to another directory.`,
      ]);
    });
  });
});

/** Runs the server's entry point with `env` added; answers its exit status and stderr. */
function startMain(env: Record<string, string>) {
  const main = path.join(import.meta.dirname, '..', 'src', 'main.ts');
  const { DATABASE_URL: _unused, ...inherited } = process.env;
  try {
    execFileSync(process.execPath, ['--conditions=@mates/source', '--import', 'tsx', main], {
      env: { ...inherited, ...env },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    return { status: 0, stderr: '' };
  } catch (error) {
    const { status, stderr } = error as { status: number; stderr: string };
    return { status, stderr };
  }
}
