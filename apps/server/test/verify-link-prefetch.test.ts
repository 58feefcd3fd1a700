import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, linkIn, memoryMailer, type TestApp } from './harness';

// Issue #12, item 1, found again in review: a mail scanner that opens every link (Safe Links,
// Mimecast) must not verify an attacker's registration of someone else's address.
describe('a verification link fetched by a mail scanner', () => {
  let app: TestApp;
  const mailer = memoryMailer();
  beforeAll(async () => {
    app = await createTestApp('sqlite', { mailer });
  });
  afterAll(async () => {
    await app.close();
  });

  it('does not by itself hand the registering browser a session', async () => {
    const attacker = app.client();
    const { verifyTicket } = await attacker.user.register({
      email: 'victim@corp.example',
      password: 'attacker pass phrase',
    });
    // The victim's mail gateway follows the link with a plain GET; nobody clicked anything.
    const link = new URL(linkIn(mailer.sent.at(-1)!));
    await app.app.request(link.pathname + link.search, { method: 'GET' });
    const status = await attacker.user.verifyStatus({
      email: 'victim@corp.example',
      verifyTicket,
    });
    expect(status.userInfo).toBeNull();
  });

  it('asks the person to confirm with a button, and only that verifies', async () => {
    const email = 'owner@corp.example';
    const owner = app.client();
    const { verifyTicket } = await owner.user.register({ email, password: 'owner pass phrase' });
    const link = new URL(linkIn(mailer.sent.at(-1)!));
    for (const method of ['GET', 'HEAD']) {
      const page = await app.app.request(link.pathname + link.search, { method });
      expect(page.status).toBe(200);
      if (method === 'GET') {
        const html = await page.text();
        expect(html).toContain('Confirm your e-mail address');
        expect(html).toMatch(/<form method="post" action="[^"]*verify\/confirm\?token=[^"]+">/);
        expect(html).toContain('<button type="submit"');
      }
    }
    expect((await owner.user.verifyStatus({ email, verifyTicket })).verified).toBe(false);
    const confirmed = await app.app.request(link.pathname + link.search, { method: 'POST' });
    expect(await confirmed.text()).toContain('Your e-mail address is verified');
    expect((await owner.user.verifyStatus({ email, verifyTicket })).verified).toBe(true);
  });
});
