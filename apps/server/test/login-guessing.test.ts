import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as argon2 from '@node-rs/argon2';
import { ApiError, createApiClient } from '@mates/api-client';
import { createRateLimits } from '../src/accounts/rate-limits';
import { DIALECTS, createTestApp, postgresAvailable, signUp, type TestApp } from './harness';

// The real argon2, watched: an unknown address must cost the same work as a wrong password.
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof argon2>();
  return { ...real, verify: vi.fn(real.verify) };
});

const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('password guessing on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let app: TestApp;
  beforeAll(async () => {
    if (!skip) app = await createTestApp(dialect);
  });
  afterAll(async () => {
    if (!skip) await app.close();
  });
  /** A client whose calls come from `ip`, as the Node adapter reports the socket's address. */
  const from = (ip: string) =>
    createApiClient({
      baseUrl: 'http://mates.test/api',
      fetch: (input, init) =>
        Promise.resolve(
          app.app.request(String(input), init, { incoming: { socket: { remoteAddress: ip } } }),
        ),
      getToken: () => '',
      getLanguage: () => 'en',
    });
  /** The message each guess got: `ok`, the server's message. */
  const guess = (ip: string, email: string, password: string) =>
    from(ip)
      .user.login({ email, password })
      .then(
        () => 'ok',
        (error: unknown) => (ApiError.isInstance(error) ? error.message : String(error)),
      );
  const limited = /^Too many attempts\. Please try again in \d+ (second|minute)s?\.$/;

  it.skipIf(skip)('limits guesses on one account from many addresses', async () => {
    await signUp(app, 'target@example.com');
    Object.assign(app.deps.limits, createRateLimits());
    try {
      const answers: string[] = [];
      for (let round = 0; round < 10; round += 1) {
        for (let ip = 1; ip <= 20; ip += 1) {
          answers.push(await guess(`198.51.100.${ip}`, 'target@example.com', `guess ${round}`));
        }
      }
      expect(answers.filter((answer) => limited.test(answer)).length).toBeGreaterThan(150);
      // The right password from yet another address is refused too while the account cools down.
      expect(await guess('198.51.100.99', 'target@example.com', 'correct horse')).toMatch(limited);
    } finally {
      Object.assign(app.deps.limits, createRateLimits(1000));
    }
  });

  it.skipIf(skip)('limits one address guessing across many accounts', async () => {
    Object.assign(app.deps.limits, createRateLimits());
    try {
      const answers: string[] = [];
      for (let account = 0; account < 30; account += 1) {
        for (let round = 0; round < 5; round += 1) {
          answers.push(
            await guess('203.0.113.7', `victim${account}@example.com`, `guess ${round}`),
          );
        }
      }
      expect(answers.filter((answer) => limited.test(answer)).length).toBeGreaterThan(0);
      expect(answers.at(-1)).toMatch(limited);
      // Another address is not held back by this one.
      expect(await guess('203.0.113.8', 'victim0@example.com', 'guess')).toBe(
        'Wrong e-mail address or password.',
      );
    } finally {
      Object.assign(app.deps.limits, createRateLimits(1000));
    }
  });

  it.skipIf(skip)('checks a password hash for unknown addresses too', async () => {
    const verify = vi.mocked(argon2.verify);
    verify.mockClear();
    expect(await guess('192.0.2.1', 'nobody-here@example.com', 'some password')).toBe(
      'Wrong e-mail address or password.',
    );
    expect(verify).toHaveBeenCalledTimes(1);
  });
});
