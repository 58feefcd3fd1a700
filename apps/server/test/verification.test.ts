import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '@mates/api-client';
import type { memoryMailer } from './harness';
import {
  DIALECTS,
  createTestApp,
  linkIn,
  postgresAvailable,
  signUp,
  type TestApp,
} from './harness';

const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('e-mail verification on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let app: TestApp;
  beforeAll(async () => {
    if (!skip) app = await createTestApp(dialect);
  });
  afterAll(async () => {
    if (!skip) await app.close();
  });
  const mailsTo = (email: string) =>
    (app.mailer as ReturnType<typeof memoryMailer>).sent.filter((mail) => mail.to === email);
  const open = async (mail: { text: string }) => {
    const link = new URL(linkIn(mail));
    return app.app.request(link.pathname + link.search, { method: 'POST' });
  };
  const nothing = { verified: false, userInfo: null };

  it.skipIf(skip)(
    "gives an attacker's earlier ticket nothing once the owner registers again and verifies",
    async () => {
      const email = 'dave@example.com';
      const attacker = await app.client().user.register({ email, password: 'attacker horse' });
      const owner = await app.client().user.register({ email, password: 'owner horse' });
      const [attackerMail, ownerMail] = mailsTo(email);
      // The owner opens the link of their own registration; the attacker's link died with it.
      expect((await open(ownerMail!)).status).toBe(200);
      expect((await open(attackerMail!)).status).toBe(404);

      expect(
        await app.client().user.verifyStatus({ email, verifyTicket: attacker.verifyTicket }),
      ).toEqual(nothing);
      await expect(
        app.client().user.login({ email, password: 'attacker horse' }),
      ).rejects.toMatchObject({ code: 5007, message: 'Wrong e-mail address or password.' });

      const { userInfo } = await app
        .client()
        .user.verifyStatus({ email, verifyTicket: owner.verifyTicket });
      expect(userInfo).toMatchObject({ email });
      await expect(app.client().user.login({ email, password: 'owner horse' })).resolves.toEqual(
        expect.objectContaining({ uuid: userInfo!.uuid }),
      );
    },
  );

  it.skipIf(skip)(
    "gives an attacker's sign-up nothing once the owner resets the password through the mail",
    async () => {
      // The attacker registers the owner's address first and keeps the ticket. The owner, who
      // cannot log in, resets the password: that mail proves the address is theirs. Before,
      // the account stayed unverified, login said "open the link we sent you", and the only
      // link was the attacker's sign-up mail, whose ticket then signed the attacker in.
      const email = 'erin@example.com';
      const attacker = await app.client().user.register({ email, password: 'attacker horse' });
      const [signUpMail] = mailsTo(email);
      expect(await app.client().user.forgotPassword({ email })).toBeNull();
      let resetMail: { text: string } | undefined;
      for (let tries = 0; tries < 100 && !resetMail; tries += 1) {
        resetMail = mailsTo(email).find((mail) => /reset-password/.test(mail.text));
        if (!resetMail) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const token = decodeURIComponent(/token=([\w%-]+)/.exec(resetMail!.text)![1]!);
      expect(
        await app.client().user.resetPassword({ token, password: 'owner lantern horse' }),
      ).toBeNull();

      // The owner is in, with the password they chose.
      const owner = await app.client().user.login({ email, password: 'owner lantern horse' });
      expect(owner.email).toBe(email);
      // Verified by the reset, with the welcome a verified sign-up gets, once.
      const ownerClient = app.client({ token: owner.token });
      expect(await ownerClient.user.benefits()).toMatchObject({ chats: 50, goldCoins: 20 });
      expect((await ownerClient.user.ledger({ page: 1, pageSize: 10 })).list).toHaveLength(1);
      // The sign-up link and ticket are dead: the attacker gets no session.
      expect((await open(signUpMail!)).status).toBe(404);
      expect(
        await app.client().user.verifyStatus({ email, verifyTicket: attacker.verifyTicket }),
      ).toEqual(nothing);
      await expect(
        app.client().user.login({ email, password: 'attacker horse' }),
      ).rejects.toMatchObject({ code: 5007 });
    },
  );

  it.skipIf(skip)('answers a redeemed or expired ticket like an unknown one', async () => {
    const email = 'expiring@example.com';
    const { verifyTicket } = await app.client().user.register({ email, password: 'owner horse' });
    await open(mailsTo(email).at(-1)!);
    await app.db
      .updateTable('email_verifications')
      .set({ expires_at: '2000-01-01T00:00:00.000Z' })
      .where('email', '=', email)
      .execute();
    expect(await app.client().user.verifyStatus({ email, verifyTicket })).toEqual(nothing);

    const again = 'redeemed@example.com';
    const second = await app.client().user.register({ email: again, password: 'owner horse' });
    await open(mailsTo(again).at(-1)!);
    const first = await app.client().user.verifyStatus({ email: again, ...second });
    expect(first.userInfo).not.toBeNull();
    expect(await app.client().user.verifyStatus({ email: again, ...second })).toEqual(nothing);
  });

  it.skipIf(skip)(
    'answers register and verify-status alike for verified, unverified and unknown addresses',
    async () => {
      const { userInfo } = await signUp(app, 'known@example.com');
      await app.client().user.register({ email: 'pending@example.com', password: 'owner horse' });
      const mails = mailsTo('known@example.com').length;

      const answer = await app
        .client()
        .user.register({ email: 'known@example.com', password: 'attacker horse' });
      expect(answer).toEqual({ verifyTicket: expect.stringMatching(/^[\w-]{43}$/) });
      // The owner hears of it; the caller learns nothing and changes nothing.
      const notice = mailsTo('known@example.com').at(-1)!;
      expect(mailsTo('known@example.com')).toHaveLength(mails + 1);
      expect(notice.subject).toBe('Someone tried to sign up to Mates with your address');
      expect(notice.text).not.toMatch(/verify\/confirm/);
      await expect(
        app.client().user.login({ email: 'known@example.com', password: 'attacker horse' }),
      ).rejects.toMatchObject({ code: 5007 });
      await expect(
        app.client().user.login({ email: 'known@example.com', password: 'correct horse' }),
      ).resolves.toMatchObject({ uuid: userInfo.uuid });

      for (const email of ['known@example.com', 'pending@example.com', 'nobody@example.com']) {
        expect(await app.client().user.verifyStatus({ email })).toEqual(nothing);
        expect(
          await app.client().user.verifyStatus({ email, verifyTicket: answer.verifyTicket }),
        ).toEqual(nothing);
      }
    },
  );

  it.skipIf(skip)(
    'ends five parallel registrations of one address in one consistent state',
    async () => {
      const email = 'parallel@example.com';
      const passwords = [0, 1, 2, 3, 4].map((i) => `parallel horse ${i}`);
      const results = await Promise.allSettled(
        passwords.map((password) => app.client().user.register({ email, password })),
      );
      for (const result of results) {
        if (result.status === 'rejected') {
          const error: unknown = result.reason;
          expect(ApiError.isInstance(error) && [4009, 5007].includes(error.code)).toBe(true);
        }
      }
      const users = await app.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .execute();
      expect(users).toHaveLength(1);
      const live = await app.db
        .selectFrom('email_verifications')
        .select('id')
        .where('email', '=', email)
        .execute();
      expect(live).toHaveLength(1);

      // Exactly one mailed link works, and its registration's ticket and password sign in.
      const pages = await Promise.all(mailsTo(email).map(open));
      expect(pages.filter((page) => page.status === 200)).toHaveLength(1);
      const signedIn: number[] = [];
      for (const [index, result] of results.entries()) {
        if (result.status !== 'fulfilled') continue;
        const status = await app.client().user.verifyStatus({ email, ...result.value });
        if (status.userInfo) signedIn.push(index);
      }
      expect(signedIn).toHaveLength(1);
      await expect(
        app.client().user.login({ email, password: passwords[signedIn[0]!]! }),
      ).resolves.toMatchObject({ uuid: users[0]!.id });
    },
  );
});
