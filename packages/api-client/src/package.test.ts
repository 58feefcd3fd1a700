import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The package's own directory: Node resolves `@mates/api-client` there by self-reference,
// through package.json `exports`, exactly as a consumer's node_modules would.
const packageDir = fileURLToPath(new URL('..', import.meta.url));

function node(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: packageDir, encoding: 'utf8' }).trim();
}

describe('the built package (run `pnpm build` first; `pnpm test` does)', () => {
  it('has been built', () => {
    expect(existsSync(`${packageDir}/dist/index.cjs`)).toBe(true);
  });

  it('loads with require() and works', () => {
    const out = node([
      '-e',
      `const m = require('@mates/api-client');
       const c = m.createApiClient({ baseUrl: '/api', getToken: () => '', getLanguage: () => 'en' });
       const e = new m.SessionExpiredError({ method: 'GET', path: '/x', status: 200 });
       console.log([typeof c.user.verifyStatus, m.ENDPOINT_PATHS.length, e.message, m.ApiError.isInstance(e)].join('|'));`,
    ]);
    expect(out).toBe('function|48|login expired|true');
  });

  it('loads with an ESM import and works', () => {
    const out = node([
      '--input-type=module',
      '-e',
      `import { createDataLineParser } from '@mates/api-client';
       const seen = [];
       const p = createDataLineParser({ onData: (d) => seen.push(d), onDone: () => seen.push('done') });
       p.feed('data: {"a":1}\\n'); p.end();
       console.log(JSON.stringify(seen));`,
    ]);
    expect(out).toBe('[{"a":1},"done"]');
  });

  it('exposes the msw subpath to both module systems', () => {
    const cjs = node(['-e', `console.log(typeof require('@mates/api-client/msw').createHandlers)`]);
    const esm = node([
      '--input-type=module',
      '-e',
      `const m = await import('@mates/api-client/msw'); console.log(m.createHandlers().length)`,
    ]);
    expect(cjs).toBe('function');
    expect(esm).toBe('48');
  });
});
