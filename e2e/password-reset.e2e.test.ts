import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { ApiError, createApiClient } from '@mates/api-client';
import { launchBrowser, signedInPage, startServer, type E2eServer } from './harness';

// Issue #19: a forgotten password, from the sign-in popup to signing in with the new one.
let browser: Browser;
let server: E2eServer;
beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
  await browser?.close();
});

describe('a forgotten password', () => {
  test('is reset from a mailed link, which signs out the old session and works once', async () => {
    const email = `forgetful-${Date.now()}@example.com`;
    const user = await server.signedInUser(email);
    const page = await signedInPage(browser, server, null, '/');
    await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.waitForURL(/#\/reset-password$/);
    await page.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByRole('main').getByRole('textbox', { name: 'Email address' }).fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText('Check your mail').waitFor();

    // The link from the mail, in the outbox.
    const link = await server.resetLink(email);
    await page.goto(link);
    await page.getByLabel('New password').fill('a brand new lantern');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('Your password is changed').waitFor();

    // The session that existed before is over; the new password signs in, in the popup.
    const old = createApiClient({
      baseUrl: `${server.url}/api`,
      getToken: () => user.token,
      getLanguage: () => 'en',
    });
    const refused = await old.user.benefits().catch((error: unknown) => error);
    expect(ApiError.isInstance(refused) && refused.code).toBe(5002);
    await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
    const popup = page.getByRole('dialog', { name: 'Sign in to Mates' });
    await popup.getByLabel('Email address').fill(email);
    await popup.getByLabel('Password', { exact: true }).fill('a brand new lantern');
    await popup.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('link', { name: 'Your profile' }).waitFor({ timeout: 15_000 });

    // Once only.
    const again = await signedInPage(browser, server, null);
    await again.goto(link);
    await again.getByLabel('New password').fill('yet another lantern');
    await again.getByRole('button', { name: 'Set the new password' }).click();
    await again
      .getByText('This reset link has expired or was already used. Ask for a new one.')
      .first()
      .waitFor();
    await again.context().close();
    await page.context().close();
  });
});
