import { afterEach, describe, expect, it } from 'vitest';
import { createRateLimits } from '../src/accounts/rate-limits';
import { createTestApp, type TestApp } from './harness';

// Behind a reverse proxy every request comes from the proxy's address: per-address limits
// must count the address the proxy reports, and only when the proxy is trusted.
describe('the caller address behind a proxy', () => {
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.close();
  });

  /** Registers a new address as a request from `socket`, forwarded for `forwardedFor`. */
  const register = async (socket: string, forwardedFor: string, n: number) => {
    const res = await app!.app.request(
      '/api/user/register',
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': forwardedFor,
        },
        body: JSON.stringify({
          email: `p${n}-${forwardedFor.replace(/\W/g, '-')}@example.com`,
          password: 'correct horse battery',
        }),
      },
      {
        incoming: {
          socket: { remoteAddress: socket },
          headers: { 'x-forwarded-for': forwardedFor },
        },
      },
    );
    return (await res.json()) as { c: number };
  };

  const tenFrom = async (forwardedFor: string) => {
    for (let n = 0; n < 10; n += 1)
      expect((await register('127.0.0.1', forwardedFor, n)).c).toBe(200);
    return (await register('127.0.0.1', forwardedFor, 10)).c;
  };

  it('counts each forwarded address on its own when TRUST_PROXY trusts the proxy', async () => {
    app = await createTestApp('sqlite', { env: { TRUST_PROXY: 'loopback' } });
    Object.assign(app.deps.limits, createRateLimits());
    expect(await tenFrom('203.0.113.7')).toBe(5007);
    expect((await register('127.0.0.1', '198.51.100.9', 0)).c).toBe(200);
    // One IPv6 network (/64) is one caller: its many addresses share one allowance.
    expect(await tenFrom('2001:db8:1:2::1')).toBe(5007);
    expect((await register('127.0.0.1', '2001:db8:1:2:ffff::9', 11)).c).toBe(5007);
  });

  it('ignores X-Forwarded-For from a caller it does not trust', async () => {
    app = await createTestApp('sqlite');
    Object.assign(app.deps.limits, createRateLimits());
    expect(await tenFrom('203.0.113.7')).toBe(5007);
    // A forged header does not buy a fresh allowance.
    expect((await register('127.0.0.1', '198.51.100.9', 0)).c).toBe(5007);
  });

  it('refuses a TRUST_PROXY it cannot read, naming it', async () => {
    await expect(
      createTestApp('sqlite', { env: { TRUST_PROXY: 'not-an-address' } }),
    ).rejects.toThrow(/Invalid TRUST_PROXY/);
  });
});
