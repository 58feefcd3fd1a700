import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '@mates/api-client';
import { createRateLimits } from '../src/accounts/rate-limits';
import { createTestApp, signUp, type TestApp } from './harness';

// Issue #12, item 6: the failed-login limits hold when the guesses come at once.
describe('password guesses sent in parallel', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await app.close();
  });
  const guess = (ip: string, email: string, password: string) =>
    createApiClient({
      baseUrl: 'http://mates.test/api',
      fetch: (input, init) =>
        Promise.resolve(
          app.app.request(String(input), init, { incoming: { socket: { remoteAddress: ip } } }),
        ),
      getToken: () => '',
      getLanguage: () => 'en',
    })
      .user.login({ email, password })
      .then(
        () => 'ok',
        (error: unknown) => (ApiError.isInstance(error) ? error.message : String(error)),
      );

  it('checks no more passwords on one account than its failure limit allows', async () => {
    await signUp(app, 'burst@example.com');
    Object.assign(app.deps.limits, createRateLimits());
    try {
      // 20 addresses, each within its own per-address allowance (10 a minute), all at once.
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, index) =>
          guess(`198.51.100.${(index % 20) + 1}`, 'burst@example.com', `guess ${index}`),
        ),
      );
      const checked = answers.filter((answer) => answer === 'Wrong e-mail address or password.');
      // loginFailsByAccount allows 30 failures an hour, whatever the addresses.
      expect(checked.length).toBeLessThanOrEqual(30);
    } finally {
      Object.assign(app.deps.limits, createRateLimits(1000));
    }
  });

  it('keeps the owner signing in from an address they used before while guesses lock the account', async () => {
    await signUp(app, 'targeted@example.com');
    Object.assign(app.deps.limits, createRateLimits());
    try {
      expect(await guess('192.0.2.7', 'targeted@example.com', 'correct horse')).toBe('ok');
      // Someone guesses from 20 other addresses until the account refuses every new address.
      await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          guess(`203.0.113.${(index % 20) + 1}`, 'targeted@example.com', `guess ${index}`),
        ),
      );
      const refused = /^Too many attempts\. Please try again in \d+ minutes?\.$/;
      expect(await guess('203.0.113.99', 'targeted@example.com', 'correct horse')).toMatch(refused);
      // The owner, where they signed in before, still gets in.
      expect(await guess('192.0.2.7', 'targeted@example.com', 'correct horse')).toBe('ok');
      // Guessing from that address is bounded on its own: 30 failures an hour.
      const there = await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          guess('192.0.2.7', 'targeted@example.com', `typo ${index}`),
        ),
      );
      const checked = there.filter((answer) => answer === 'Wrong e-mail address or password.');
      expect(checked.length).toBeGreaterThan(0);
      expect(checked.length).toBeLessThanOrEqual(30);
    } finally {
      Object.assign(app.deps.limits, createRateLimits(1000));
    }
  });

  it('lets the right password in after failures below the limit, and forget them', async () => {
    await signUp(app, 'owner@example.com');
    Object.assign(app.deps.limits, createRateLimits());
    try {
      for (let round = 0; round < 3; round += 1)
        expect(await guess('192.0.2.1', 'owner@example.com', 'typo')).toBe(
          'Wrong e-mail address or password.',
        );
      expect(await guess('192.0.2.1', 'owner@example.com', 'correct horse')).toBe('ok');
    } finally {
      Object.assign(app.deps.limits, createRateLimits(1000));
    }
  });
});
