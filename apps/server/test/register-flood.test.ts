import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '@mates/api-client';
import { createRateLimits } from '../src/accounts/rate-limits';
import { createTestApp, memoryMailer, type TestApp } from './harness';

// Issue #12, item 6: registering one address from many IPs floods its owner's inbox
// and keeps replacing the link they are about to open.
describe('registrations of one address from many addresses', () => {
  let app: TestApp;
  const mailer = memoryMailer();
  beforeAll(async () => {
    app = await createTestApp('sqlite', { mailer });
  });
  afterAll(async () => {
    await app.close();
  });
  const register = (ip: string, email: string) =>
    createApiClient({
      baseUrl: 'http://mates.test/api',
      fetch: (input, init) =>
        Promise.resolve(
          app.app.request(String(input), init, { incoming: { socket: { remoteAddress: ip } } }),
        ),
      getToken: () => '',
      getLanguage: () => 'en',
    })
      .user.register({ email, password: 'a long pass phrase' })
      .then(
        () => 'ok',
        (error: unknown) => (ApiError.isInstance(error) ? error.message : String(error)),
      );

  it('are limited per address, so its owner gets a handful of mails, not hundreds', async () => {
    Object.assign(app.deps.limits, createRateLimits());
    try {
      const answers: string[] = [];
      for (let ip = 1; ip <= 50; ip += 1)
        answers.push(await register(`198.51.100.${ip}`, 'inbox@example.com'));
      expect(answers.at(-1)).toMatch(/^Too many attempts\./);
      expect(mailer.sent.filter((mail) => mail.to === 'inbox@example.com').length).toBeLessThan(10);
      // Another address is not held back by this one.
      expect(await register('198.51.100.1', 'other@example.com')).toBe('ok');
    } finally {
      Object.assign(app.deps.limits, createRateLimits(1000));
    }
  });
});
