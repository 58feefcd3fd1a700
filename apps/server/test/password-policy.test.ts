import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { memoryMailer } from './harness';
import { createTestApp, signUp, type TestApp } from './harness';

// The policy reads no database: SQLite is enough.
describe('password policy', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await app.close();
  });
  const sent = () => (app.mailer as ReturnType<typeof memoryMailer>).sent;
  const users = async () =>
    (await app.db.selectFrom('users').select('id').execute()).map((row) => row.id);
  const tooEasy = expect.stringMatching(/^password: is too easy to guess/);

  it('refuses blank, the most common and address-like passwords at sign-up, writing nothing', async () => {
    const before = await users();
    const mails = sent().length;
    const refusals = [
      ['        ', 'password: must not be only spaces'],
      ['12345678', tooEasy],
      ['password', tooEasy],
      ['password1', tooEasy],
      ['carol@example.com', tooEasy],
    ] as const;
    for (const [password, message] of refusals) {
      await expect(
        app.client().user.register({ email: 'carol@example.com', password }),
      ).rejects.toMatchObject({ code: 4000, message });
    }
    expect(await users()).toEqual(before);
    expect(sent()).toHaveLength(mails);
  });

  it('refuses a weak new password and keeps the old one', async () => {
    const { client } = await signUp(app, 'policy@example.com');
    for (const newPassword of ['         ', 'qwertyuiop', 'iloveyou123']) {
      await expect(
        client.user.changePassword({ oldPassword: 'correct horse', newPassword }),
      ).rejects.toMatchObject({ code: 4000, message: expect.stringMatching(/^newPassword: /) });
    }
    await expect(
      app.client().user.login({ email: 'policy@example.com', password: 'correct horse' }),
    ).resolves.toBeTruthy();
  });
});
