import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPair } from 'jose';
import { SessionExpiredError } from '@mates/api-client';
import type { memoryMailer } from './harness';
import {
  DIALECTS,
  createTestApp,
  linkIn,
  postgresAvailable,
  signUp,
  type TestApp,
} from './harness';
import { startDiscordDouble, startGoogleDouble, type DiscordUser } from './oauth-doubles';

const withPostgres = await postgresAvailable();
const GOOGLE_CLIENT_ID = 'mates-test.apps.googleusercontent.com';
const nelly: DiscordUser = {
  id: '80351110224678912',
  username: 'nelly',
  global_name: 'Nelly',
  email: 'nelly@example.com',
  verified: true,
  avatar: null,
};
const DISCORD = {
  clientId: '1234567890',
  clientSecret: 'shh',
  redirectUri: 'http://mates.test/user/loginDiscord',
};

describe.each(DIALECTS)('Google and Discord sign-in on %s', (dialect) => {
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
        ...discordEnv(),
        // Accounts that Google or Discord vouch for administer when their address is listed.
        ADMIN_EMAILS: 'gina@gmail.com,NELLY@example.com',
      },
    });
  });
  const discordEnv = () => ({
    DISCORD_CLIENT_ID: DISCORD.clientId,
    DISCORD_CLIENT_SECRET: DISCORD.clientSecret,
    DISCORD_API_URL: discord.apiUrl,
  });
  afterAll(async () => {
    if (skip) return;
    await Promise.all([app.close(), google.close(), discord.close()]);
  });

  it.skipIf(skip)('tells the app both client ids and the redirect, never the secret', async () => {
    const config = await app.client().extra.publicConfig();
    expect(config).toEqual({
      productName: 'Mates',
      googleClientId: GOOGLE_CLIENT_ID,
      discord: { clientId: DISCORD.clientId, redirectUri: DISCORD.redirectUri },
    });
    expect(JSON.stringify(config)).not.toContain(DISCORD.clientSecret);
  });

  it.skipIf(skip)('signs in with a Google ID token, creating a verified account once', async () => {
    const credential = await google.sign(
      {
        sub: 'g-100',
        email: 'Gina@Gmail.com',
        email_verified: true,
        name: 'Gina G',
        picture: 'https://lh3.example/p.png',
      },
      { audience: GOOGLE_CLIENT_ID },
    );
    const first = await app.client().user.loginGG({ credential });
    expect(first).toMatchObject({ email: 'gina@gmail.com', avatar: null, isAdmin: true });
    // Not Google's name and photo (usually the person's own): a generated name, until they
    // choose one.
    expect(first.nickname).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+ \d{3}$/);
    await expect(app.client({ token: first.token }).user.benefits()).resolves.toMatchObject({
      chats: 50,
    });
    const again = await app.client().user.loginGG({ credential });
    expect(again.uuid).toBe(first.uuid);
    expect(again.token).not.toBe(first.token);
  });

  it.skipIf(skip)(
    'links Google to an existing account with the same address, taking the account from whoever set its password',
    async () => {
      // Whoever registered the address chose the password; its owner may only have pressed the
      // link of a sign-up they never made. Google proves the owner: the password and every
      // session made with it end, and the owner is told by mail how to choose a password again.
      const existing = await signUp(app, 'linked@example.com');
      const { roomId } = await existing.client.room.createRoom({
        mateId: (await existing.client.mate.recommend()).list[0]!.mateId,
      });
      const credential = await google.sign(
        { sub: 'g-200', email: 'linked@example.com', email_verified: true },
        { audience: GOOGLE_CLIENT_ID },
      );
      const linked = await app.client().user.loginGG({ credential });
      expect(linked).toMatchObject({ uuid: existing.userInfo.uuid, isAdmin: false });
      // Nothing of the account is lost.
      const owner = app.client({ token: linked.token });
      expect((await owner.room.roomInfo({ roomId })).room.roomId).toBe(roomId);
      await expect(existing.client.user.benefits()).rejects.toBeInstanceOf(SessionExpiredError);
      await expect(
        app.client().user.login({ email: 'linked@example.com', password: 'correct horse' }),
      ).rejects.toMatchObject({ code: 5007, message: 'Wrong e-mail address or password.' });
      const sent = (app.mailer as ReturnType<typeof memoryMailer>).sent.filter(
        (mail) => mail.to === 'linked@example.com',
      );
      expect(sent.at(-1)).toMatchObject({
        subject: 'You signed in to Mates with Google',
        text: expect.stringContaining('"Forgot your password?"'),
      });
      // Nor does a registration's ticket that was never redeemed sign anyone in.
      const ticketed = 'ticketed@example.com';
      const kept = await app
        .client()
        .user.register({ email: ticketed, password: 'attacker horse' });
      const mail = (app.mailer as ReturnType<typeof memoryMailer>).sent
        .filter((sent) => sent.to === ticketed)
        .at(-1)!;
      const confirm = new URL(linkIn(mail));
      await app.app.request(confirm.pathname + confirm.search, { method: 'POST' });
      const ownerCredential = await google.sign(
        { sub: 'g-201', email: ticketed, email_verified: true },
        { audience: GOOGLE_CLIENT_ID },
      );
      await app.client().user.loginGG({ credential: ownerCredential });
      expect(await app.client().user.verifyStatus({ email: ticketed, ...kept })).toEqual({
        verified: false,
        userInfo: null,
      });
      // Once linked, signing in again ends nothing and mails nothing.
      const again = await app.client().user.loginGG({ credential });
      await expect(owner.user.benefits()).resolves.toMatchObject({ chats: 50 });
      expect(again.uuid).toBe(linked.uuid);
      expect(
        (app.mailer as ReturnType<typeof memoryMailer>).sent.filter(
          (mail) => mail.to === 'linked@example.com',
        ),
      ).toHaveLength(sent.length);
    },
  );

  it.skipIf(skip)('grants the welcome once to a pending sign-up signed into at once', async () => {
    const email = 'pending-race@example.com';
    await app.client().user.register({ email, password: 'someone horse' });
    const credential = await google.sign(
      { sub: 'g-270', email, email_verified: true },
      { audience: GOOGLE_CLIENT_ID },
    );
    const signedIn = await Promise.all(
      Array.from({ length: 8 }, () => app.client().user.loginGG({ credential })),
    );
    expect(new Set(signedIn.map((info) => info.uuid)).size).toBe(1);
    await expect(app.client({ token: signedIn[0]!.token }).user.benefits()).resolves.toMatchObject({
      chats: 50,
    });
  });

  it.skipIf(skip)(
    "drops a pending sign-up's password and ticket when Google vouches for the address",
    async () => {
      const email = 'pending-g@example.com';
      const attacker = await app.client().user.register({ email, password: 'attacker horse' });
      const credential = await google.sign(
        { sub: 'g-250', email, email_verified: true },
        { audience: GOOGLE_CLIENT_ID },
      );
      const owner = await app.client().user.loginGG({ credential });
      await expect(
        app.client().user.login({ email, password: 'attacker horse' }),
      ).rejects.toMatchObject({ code: 5007, message: 'Wrong e-mail address or password.' });
      const mail = (app.mailer as ReturnType<typeof memoryMailer>).sent.at(-1)!;
      const link = new URL(linkIn(mail));
      expect((await app.app.request(link.pathname + link.search, { method: 'POST' })).status).toBe(
        404,
      );
      expect(await app.client().user.verifyStatus({ email, ...attacker })).toEqual({
        verified: false,
        userInfo: null,
      });
      await expect(app.client({ token: owner.token }).user.benefits()).resolves.toMatchObject({
        chats: 50,
      });
    },
  );

  it.skipIf(skip)(
    'refuses tokens for another audience, from another issuer, or signed by another key',
    async () => {
      const { privateKey: strangerKey } = await generateKeyPair('RS256');
      const bad = [
        await google.sign(
          { sub: 'g-300', email: 'x@example.com', email_verified: true },
          { audience: 'someone-else' },
        ),
        await google.sign(
          { sub: 'g-300', email: 'x@example.com', email_verified: true },
          { audience: GOOGLE_CLIENT_ID, issuer: 'https://evil.example' },
        ),
        await google.sign(
          { sub: 'g-300', email: 'x@example.com', email_verified: true },
          { audience: GOOGLE_CLIENT_ID, key: strangerKey },
        ),
        'not.a.jwt',
      ];
      for (const credential of bad) {
        await expect(app.client().user.loginGG({ credential })).rejects.toMatchObject({
          code: 5007,
          message: 'Google could not confirm this sign-in. Please try again.',
        });
      }
      expect(
        await app.db.selectFrom('users').select('id').where('google_sub', '=', 'g-300').execute(),
      ).toEqual([]);
    },
  );

  it.skipIf(skip)('refuses a Google account without a verified address', async () => {
    const credential = await google.sign(
      { sub: 'g-400', email: 'u@example.com', email_verified: false },
      { audience: GOOGLE_CLIENT_ID },
    );
    await expect(app.client().user.loginGG({ credential })).rejects.toMatchObject({ code: 5007 });
  });

  it.skipIf(skip)(
    'signs in with a Discord code: exchanges it, reads the user, creates the account',
    async () => {
      const code = discord.authorize({
        id: '80351110224678912',
        username: 'nelly',
        global_name: 'Nelly',
        email: 'nelly@example.com',
        verified: true,
        avatar: '8342729096ea3675442027381ff50dfe',
      });
      const info = await app.client({ language: 'es' }).user.loginDiscord({ code });
      expect(info).toMatchObject({
        email: 'nelly@example.com',
        nickname: 'Nelly',
        language: 'es',
        isAdmin: true,
        avatar:
          'https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png',
      });
      const exchange = discord.requests.find((r) => r.path === '/api/oauth2/token')!;
      expect(exchange.form).toMatchObject({
        grant_type: 'authorization_code',
        code,
        redirect_uri: DISCORD.redirectUri,
      });
      // The code was used up; the same Discord account signs into the same Mates account.
      await expect(app.client().user.loginDiscord({ code })).rejects.toMatchObject({ code: 5007 });
      const again = await app.client().user.loginDiscord({
        code: discord.authorize({
          id: '80351110224678912',
          username: 'nelly',
          global_name: null,
          email: 'nelly@example.com',
          verified: true,
          avatar: null,
        }),
      });
      expect(again.uuid).toBe(info.uuid);
    },
  );

  it.skipIf(skip)('refuses a Discord account without a verified e-mail', async () => {
    const code = discord.authorize({
      id: '42',
      username: 'nomail',
      global_name: null,
      email: null,
      verified: false,
      avatar: null,
    });
    await expect(app.client().user.loginDiscord({ code })).rejects.toMatchObject({
      code: 5007,
      message: 'Your Discord account has no verified e-mail address.',
    });
  });

  it.skipIf(skip)('says clearly when Discord answers its token exchange with no JSON', async () => {
    const code = discord.authorize(nelly);
    discord.failNext('html');
    await expect(app.client().user.loginDiscord({ code })).rejects.toMatchObject({
      code: 5007,
      message: 'Discord sent an answer we could not read. Please try again later.',
    });
    expect(app.logs).toContainEqual(
      expect.stringMatching(/^Discord token exchange: unreadable answer/),
    );
  });

  it.skipIf(skip)(
    'says clearly when Discord answers with a user it does not describe as a user',
    async () => {
      // Issue #36: an `email` that is not a string answered 5000 ("toLowerCase is not a
      // function"). Every profile is read through a schema: junk is unreadable, like no JSON.
      const junk: Record<string, unknown>[] = [
        { ...nelly, id: 'junk-1', email: 42 },
        { ...nelly, id: 'junk-2', email: { address: 'nelly@example.com' } },
        { ...nelly, id: 'junk-3', email: 'not an address' },
        { ...nelly, id: undefined },
        { ...nelly, id: 'junk-5', verified: 'yes', username: ['nelly'] },
      ];
      for (const user of junk) {
        const code = discord.authorize(user as unknown as DiscordUser);
        await expect(app.client().user.loginDiscord({ code })).rejects.toMatchObject({
          code: 5007,
          message: 'Discord sent an answer we could not read. Please try again later.',
        });
      }
      expect(
        app.logs.filter((line) => line.startsWith('Discord user fetch: unreadable')),
      ).toHaveLength(junk.length);
      expect(
        await app.db
          .selectFrom('users')
          .select('id')
          .where((eb) =>
            eb.or([eb('discord_id', 'like', 'junk-%'), eb('discord_id', '=', 'undefined')]),
          )
          .execute(),
      ).toEqual([]);
      // An avatar that is not a Discord image hash is left out, not put into an address.
      const code = discord.authorize({
        ...nelly,
        id: '80351110224678999',
        email: 'odd-avatar@example.com',
        avatar: '../../evil',
      });
      await expect(app.client().user.loginDiscord({ code })).resolves.toMatchObject({
        email: 'odd-avatar@example.com',
        avatar: null,
      });
    },
  );

  it.skipIf(skip)('refuses Google tokens whose claims are not what Google signs', async () => {
    const junk = [
      { email: 'nosub@example.com', email_verified: true },
      { sub: 'g-500', email: 42, email_verified: true },
      { sub: 'g-501', email: 'not an address', email_verified: true },
      { sub: ['g-502'], email: 'list@example.com', email_verified: true },
    ];
    for (const claims of junk) {
      const credential = await google.sign(claims, { audience: GOOGLE_CLIENT_ID });
      await expect(app.client().user.loginGG({ credential })).rejects.toMatchObject({
        code: 5007,
        message: 'Google could not confirm this sign-in. Please try again.',
      });
    }
    expect(app.logs.filter((line) => line.startsWith('Google credential unreadable'))).toHaveLength(
      junk.length,
    );
    expect(
      await app.db
        .selectFrom('users')
        .select('google_sub')
        .where('google_sub', 'in', ['undefined', 'g-500', 'g-501', 'g-502'])
        .execute(),
    ).toEqual([]);
  });

  it.skipIf(skip)('gives up on a Discord that does not answer, saying so', async () => {
    const impatient = await createTestApp(dialect, {
      env: { ...discordEnv(), DISCORD_TIMEOUT: '0.3' },
    });
    try {
      const steps = [
        ['token exchange', '/api/oauth2/token'],
        ['user fetch', '/api/users/@me'],
      ] as const;
      for (const [step, path] of steps) {
        const code = discord.authorize(nelly);
        discord.failNext('hang', path);
        await expect(impatient.client().user.loginDiscord({ code })).rejects.toMatchObject({
          code: 5007,
          message: 'Discord did not answer in time. Please try again later.',
        });
        expect(impatient.logs).toContain(`Discord ${step}: no answer within 300 ms`);
      }
    } finally {
      await impatient.close();
    }
  });

  it.skipIf(skip)('answers clearly when a provider is not set up', async () => {
    const bare = await createTestApp(dialect);
    try {
      await expect(bare.client().user.loginGG({ credential: 'x' })).rejects.toMatchObject({
        message: 'Google sign-in is not set up on this server.',
      });
      await expect(bare.client().user.loginDiscord({ code: 'x' })).rejects.toMatchObject({
        message: 'Discord sign-in is not set up on this server.',
      });
    } finally {
      await bare.close();
    }
  });
});
