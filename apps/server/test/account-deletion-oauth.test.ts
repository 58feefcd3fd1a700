import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, SessionExpiredError } from '@mates/api-client';
import { en } from '../src/i18n/en';
import { createTestApp, DIALECTS, postgresAvailable, type TestApp } from './harness';
import { startDiscordDouble, startGoogleDouble } from './oauth-doubles';

// Issue 41: an account without a password is deleted after a fresh sign-in with the Google or
// Discord account linked to it, never with another one's.
const withPostgres = await postgresAvailable();
const GOOGLE_CLIENT_ID = 'mates-test.apps.googleusercontent.com';
const DISCORD = {
  clientId: 'discord-client',
  clientSecret: 'discord-secret',
  redirectUri: 'http://mates.test/user/loginDiscord',
};

async function refusal(call: Promise<unknown>): Promise<string> {
  const error = await call.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return (error as ApiError).message;
}

describe.each(DIALECTS)(
  'deleting an account that signs in with Google or Discord on %s',
  (dialect) => {
    const skip = dialect === 'postgres' && !withPostgres;
    let app: TestApp;
    let google: Awaited<ReturnType<typeof startGoogleDouble>>;
    let discord: Awaited<ReturnType<typeof startDiscordDouble>>;
    beforeAll(async () => {
      if (skip) return;
      google = await startGoogleDouble();
      discord = await startDiscordDouble(DISCORD);
      app = await createTestApp(dialect, {
        env: {
          GOOGLE_CLIENT_ID,
          GOOGLE_JWKS_URL: google.jwksUrl,
          DISCORD_CLIENT_ID: DISCORD.clientId,
          DISCORD_CLIENT_SECRET: DISCORD.clientSecret,
          DISCORD_API_URL: discord.apiUrl,
        },
      });
    });
    afterAll(async () => {
      if (skip) return;
      await Promise.all([app.close(), google.close(), discord.close()]);
    });

    const googleToken = (sub: string, email: string) =>
      google.sign({ sub, email, email_verified: true }, { audience: GOOGLE_CLIENT_ID });

    it.skipIf(skip)('asks for a fresh Google sign-in of the same account', async () => {
      const email = `g-${dialect}@gmail.com`;
      const user = await app
        .client()
        .user.loginGG({ credential: await googleToken(`g-${dialect}`, email) });
      const client = app.client({ token: user.token });
      expect((await client.user.deletionPreview()).proofs).toEqual(['google']);
      expect(
        await refusal(client.user.deleteAccount({ password: 'anything', publicMates: 'keep' })),
      ).toBe(en.notices.privacy.proofNeeded);
      const someoneElse = await googleToken(`other-${dialect}`, `other-${dialect}@gmail.com`);
      expect(
        await refusal(
          client.user.deleteAccount({ googleCredential: someoneElse, publicMates: 'keep' }),
        ),
      ).toBe(en.notices.privacy.otherAccount);
      await client.user.deleteAccount({
        googleCredential: await googleToken(`g-${dialect}`, email),
        publicMates: 'keep',
      });
      await expect(client.user.benefits()).rejects.toBeInstanceOf(SessionExpiredError);
      // Signing in with Google again makes a new account.
      const again = await app
        .client()
        .user.loginGG({ credential: await googleToken(`g-${dialect}`, email) });
      expect(again.uuid).not.toBe(user.uuid);
    });

    it.skipIf(skip)('asks for a fresh Discord sign-in of the same account', async () => {
      const person = {
        id: dialect === 'sqlite' ? '700100' : '700200',
        username: 'dee',
        global_name: 'Dee',
        email: `d-${dialect}@example.com`,
        verified: true,
        avatar: null,
      };
      const user = await app.client().user.loginDiscord({ code: discord.authorize(person) });
      const client = app.client({ token: user.token });
      expect((await client.user.deletionPreview()).proofs).toEqual(['discord']);
      const stranger = { ...person, id: `${person.id}9`, email: `x-${dialect}@example.com` };
      expect(
        await refusal(
          client.user.deleteAccount({
            discordCode: discord.authorize(stranger),
            publicMates: 'delete',
          }),
        ),
      ).toBe(en.notices.privacy.otherAccount);
      expect((await client.user.benefits()).chats).toBeGreaterThan(0);
      await client.user.deleteAccount({
        discordCode: discord.authorize(person),
        publicMates: 'delete',
      });
      await expect(client.user.benefits()).rejects.toBeInstanceOf(SessionExpiredError);
      expect(
        await app.db.selectFrom('users').select('id').where('id', '=', user.uuid).execute(),
      ).toEqual([]);
    });
  },
);
