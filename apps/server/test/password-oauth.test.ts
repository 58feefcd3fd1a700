import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '@mates/api-client';
import { en } from '../src/i18n/en';
import { es } from '../src/i18n/es';
import type { memoryMailer } from './harness';
import { createTestApp, DIALECTS, postgresAvailable, signUp, type TestApp } from './harness';
import { startGoogleDouble } from './oauth-doubles';

// An account made with Google (or Discord) has no password: "Change password" cannot ask for
// the current one, and a reset link mailed to its address sets one.
const withPostgres = await postgresAvailable();
const GOOGLE_CLIENT_ID = 'mates-test.apps.googleusercontent.com';

describe.each(DIALECTS)('the password of an account made with Google on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let app: TestApp;
  let google: Awaited<ReturnType<typeof startGoogleDouble>>;
  beforeAll(async () => {
    if (skip) return;
    google = await startGoogleDouble();
    app = await createTestApp(dialect, {
      env: { GOOGLE_CLIENT_ID, GOOGLE_JWKS_URL: google.jwksUrl },
    });
  });
  afterAll(async () => {
    if (skip) return;
    await Promise.all([app.close(), google.close()]);
  });

  it.skipIf(skip)('says it has none, and a mailed link sets one', async () => {
    const email = `pw-g-${dialect}@gmail.com`;
    const credential = await google.sign(
      { sub: `pw-g-${dialect}`, email, email_verified: true },
      { audience: GOOGLE_CLIENT_ID },
    );
    const user = await app.client().user.loginGG({ credential });
    expect(user.hasPassword).toBe(false);
    const client = app.client({ token: user.token });

    // Not "the current password is not right": there is none to be right.
    const refused = await client.user
      .changePassword({ oldPassword: 'anything at all', newPassword: 'a brand new lantern' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).message).toBe(en.notices.account.noPassword);
    const inSpanish = (await app
      .client({ token: user.token, language: 'es' })
      .user.changePassword({ oldPassword: 'x', newPassword: 'a brand new lantern' })
      .catch((error: unknown) => error)) as ApiError;
    expect(inSpanish.message).toBe(es.notices.account.noPassword);

    await app.client().user.forgotPassword({ email });
    const mailer = app.mailer as ReturnType<typeof memoryMailer>;
    let token: string | undefined;
    for (let tries = 0; tries < 100 && !token; tries += 1) {
      const mail = mailer.sent.filter((sent) => sent.to === email).at(-1);
      token = /#\/reset-password\?token=([\w-]+)/.exec(mail?.text ?? '')?.[1];
      if (!token) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await app.client().user.resetPassword({ token: token!, password: 'a brand new lantern' });
    const signedIn = await app.client().user.login({ email, password: 'a brand new lantern' });
    expect(signedIn.hasPassword).toBe(true);
  });

  it.skipIf(skip)('says an account made with an address has one', async () => {
    const { userInfo } = await signUp(app, `pw-e-${dialect}@example.com`);
    expect(userInfo.hasPassword).toBe(true);
  });
});
