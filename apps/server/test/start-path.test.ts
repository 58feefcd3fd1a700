import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { startMainProcess } from './main-process';

/**
 * Libraries a server needs only for a feature it may not use, or not use yet: each costs
 * megabytes resident once loaded, so none may be on the start path (#20, idle memory).
 */
const LOADED_ON_USE = [
  'stripe',
  'openai',
  'pg',
  'pg-boss',
  'nodemailer',
  'jose',
  'ws',
  'ioredis',
  'sharp',
  '@resvg/resvg-js',
  '@dicebear/core',
  '@aws-sdk/client-s3',
  'node-llama-cpp',
  'music-metadata',
  'mdast-util-from-markdown',
  '@zxcvbn-ts/core',
  '@zxcvbn-ts/language-common',
  'pino-pretty',
  'cli-progress',
  'wavefile',
  'onnxruntime-node',
  'llama-tokenizer-js',
];

/** The packages (`name` or `@scope/name`) among the files a trace lists. */
function packagesIn(trace: string): Set<string> {
  const names = new Set<string>();
  for (const line of fs.readFileSync(trace, 'utf8').split('\n')) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(line);
    if (match) names.add(match[1]!);
  }
  return names;
}

describe('a server started on its defaults with a hosted model', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mates-start-path-'));
  const trace = path.join(dataDir, 'modules.txt');
  const children: ChildProcess[] = [];
  const env = {
    PORT: '0',
    DATA_DIR: dataDir,
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: 'http://127.0.0.1:9/v1',
    LLM_API_KEY: 'sk-test',
    LOG_FORMAT: 'json',
  };
  const stop = async (child: ChildProcess) => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('loads no library of a feature it has not used, even after answering a browse', async () => {
    // The first start seeds the catalog (drawing portraits); the trace is of a later start.
    const first = await startMainProcess(env);
    children.push(first.child);
    await stop(first.child);

    const { child, url } = await startMainProcess(
      { ...env, MATES_MODULE_TRACE: trace },
      { nodeArgs: ['--import', path.join(import.meta.dirname, 'module-trace.mjs')] },
    );
    children.push(child);
    expect((await fetch(`${url}/api/ready`)).status).toBe(200);
    const browse = await fetch(`${url}/api/mate/recommend?pageNum=1&pageSize=12`);
    expect(browse.status).toBe(200);
    await stop(child);

    const loaded = packagesIn(trace);
    // The trace sees both kinds of module: Kysely is ESM, better-sqlite3 CommonJS.
    expect(loaded).toContain('kysely');
    expect(loaded).toContain('better-sqlite3');
    expect(LOADED_ON_USE.filter((name) => loaded.has(name))).toEqual([]);
  });
});
