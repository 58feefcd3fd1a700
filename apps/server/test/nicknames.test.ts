import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionExpiredError } from '@mates/api-client';
import { createRateLimits } from '../src/accounts/rate-limits';
import { providedNickname } from '../src/accounts/nicknames';
import { migrateTo, migrateToLatest } from '../src/db/migrate';
import {
  DIALECTS,
  createTestApp,
  emptyDatabase,
  postgresAvailable,
  signUp,
  type TestApp,
} from './harness';

const withPostgres = await postgresAvailable();

/** What a generated nickname looks like: two capitalised words and a three-digit number. */
const GENERATED = /^[A-Z][a-z]+ [A-Z][a-z]+ [1-9]\d\d$/;

describe.each(DIALECTS)('nicknames on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let app: TestApp;
  beforeAll(async () => {
    if (!skip) app = await createTestApp(dialect);
  });
  afterAll(async () => {
    if (!skip) await app.close();
  });
  const nicknameOf = async (id: string) =>
    (
      await app.db
        .selectFrom('users')
        .select('nickname')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).nickname;
  const theo = async () =>
    app.db
      .selectFrom('mates')
      .select('id')
      .where('name', '=', 'Theo Blackwood')
      .executeTakeFirstOrThrow();

  it.skipIf(skip)(
    'gives a new account a generated nickname, never a part of its e-mail address',
    async () => {
      const { userInfo } = await signUp(app, 'grace.hopper@example.com');
      expect(userInfo.nickname).toMatch(GENERATED);
      expect(userInfo.nickname.toLowerCase()).not.toContain('grace');
      // What others see: the name under a review.
      const client = app.client({ token: userInfo.token });
      const review = await client.mate.review({ mateId: (await theo()).id, rating: 4 });
      expect(review.author.name).toBe(userInfo.nickname);
    },
  );

  it.skipIf(skip)(
    'changes the nickname, tidied, and shows it at once where others see it',
    async () => {
      const ada = await signUp(app);
      const mateId = (await theo()).id;
      await ada.client.mate.review({ mateId, rating: 5, content: 'Sharp.' });
      // Ada made a listed mate: its byline is in the catalog's cached answers.
      const made = await app.db
        .selectFrom('mates')
        .select('id')
        .where('name', '=', 'Kai Tanaka')
        .executeTakeFirstOrThrow();
      await app.db
        .updateTable('mates')
        .set({ creator_id: ada.userInfo.uuid })
        .where('id', '=', made.id)
        .execute();
      const bylines = async () => {
        const detail = await app.client().mate.getMateDetail({ mateId: made.id });
        const listed = await app.client().mate.recommend({ pageSize: 50 });
        const extra = await app.client().mate.mateExtraInfo({ mateId });
        return [
          detail.creator.name,
          listed.list.find((mate) => mate.mateId === made.id)!.creator.name,
          extra.recentReviews.find((review) => review.content === 'Sharp.')!.author.name,
        ];
      };
      // Read once, so that the answers are cached under the old name.
      expect(await bylines()).toEqual(Array(3).fill(ada.userInfo.nickname));

      const info = await ada.client.user.updateNickname({ nickname: '  Ada   of  Byron ' });
      expect(info).toMatchObject({ uuid: ada.userInfo.uuid, nickname: 'Ada of Byron' });
      expect(info.token).toBe(ada.userInfo.token);
      expect(await nicknameOf(ada.userInfo.uuid)).toBe('Ada of Byron');
      expect(await bylines()).toEqual(Array(3).fill('Ada of Byron'));
      // Any script: a name is not only Latin letters.
      expect((await ada.client.user.updateNickname({ nickname: 'Zoë 山田' })).nickname).toBe(
        'Zoë 山田',
      );
    },
  );

  it.skipIf(skip)('refuses a bad nickname with a clear 4000 and changes nothing', async () => {
    const ada = await signUp(app);
    const bad: [unknown, RegExp][] = [
      ['', /^nickname: is required$/],
      ['    ', /^nickname: is required$/],
      ['x'.repeat(41), /^nickname: must be at most 40 characters$/],
      ['Ada\u200bLovelace', /^nickname: must not hold control or invisible characters$/],
      ['Ada\u202eecalevol', /^nickname: must not hold control or invisible characters$/],
      ['Ada\u0001', /^nickname: must not hold control or invisible characters$/],
      // U+0000 is refused for every field of every call, before the nickname's own rules.
      ['Ada\u0000', /^nickname: must not contain the character U\+0000$/],
      ['\u3164', /^nickname: must not hold control or invisible characters$/],
      ['Ada\u2800', /^nickname: must not hold control or invisible characters$/],
      ['\ue000Ada', /^nickname: must not hold control or invisible characters$/],
      ['Za\u0336\u0337\u0338\u0336lgo', /^nickname: must not stack marks on one letter$/],
      ['!!! ...', /^nickname: must hold a letter or a digit$/],
      [42, /^nickname: /],
    ];
    for (const [nickname, message] of bad) {
      const refused = await ada.client.user
        .updateNickname({ nickname: nickname as string })
        .catch((error: unknown) => error);
      expect(refused, String(nickname)).toMatchObject({ code: 4000 });
      expect((refused as Error).message).toMatch(message);
    }
    expect(await nicknameOf(ada.userInfo.uuid)).toBe(ada.userInfo.nickname);
    // Forty characters is allowed.
    const forty = 'y'.repeat(40);
    expect((await ada.client.user.updateNickname({ nickname: forty })).nickname).toBe(forty);
  });

  it.skipIf(skip)(
    'refuses an e-mail address or the old default, and folds look-alike letters',
    async () => {
      const ada = await signUp(app, 'ada.byron@example.com');
      for (const nickname of [' ADA.BYRON@example.com ', 'Write to bob@example.org']) {
        const refused = await ada.client.user
          .updateNickname({ nickname })
          .catch((error: unknown) => error);
        expect(refused, nickname).toMatchObject({
          code: 4000,
          message: 'nickname: must not be an e-mail address',
        });
      }
      expect(await nicknameOf(ada.userInfo.uuid)).toBe(ada.userInfo.nickname);
      // What new accounts used to be given, as it was given: never published again.
      await expect(ada.client.user.updateNickname({ nickname: 'ada.byron' })).rejects.toMatchObject(
        {
          code: 4000,
          message: 'nickname: must not be the start of your e-mail address',
        },
      );
      // The same name written their own way is theirs to show.
      expect((await ada.client.user.updateNickname({ nickname: 'Ada.Byron' })).nickname).toBe(
        'Ada.Byron',
      );
      // Fullwidth and mathematical letters are the letters they look like.
      expect((await ada.client.user.updateNickname({ nickname: 'Ａda 𝐁' })).nickname).toBe('Ada B');
    },
  );

  it.skipIf(skip)('changes nothing for the same name again', async () => {
    const saved = app.deps.limits.changeNickname;
    app.deps.limits.changeNickname = createRateLimits().changeNickname;
    try {
      const ada = await signUp(app);
      await ada.client.user.updateNickname({ nickname: 'Ada' });
      const version = async () =>
        (
          await app.db
            .selectFrom('catalog_versions')
            .select('version')
            .where('name', '=', 'mates')
            .executeTakeFirstOrThrow()
        ).version;
      const before = await version();
      // Ten more times the same: no write, so no listing is made again and no change is counted.
      for (let again = 0; again < 10; again += 1)
        expect((await ada.client.user.updateNickname({ nickname: ' Ada ' })).nickname).toBe('Ada');
      expect(await version()).toBe(before);
      expect((await ada.client.user.updateNickname({ nickname: 'Ada L' })).nickname).toBe('Ada L');
      expect(await version()).not.toBe(before);
    } finally {
      app.deps.limits.changeNickname = saved;
    }
  });

  it.skipIf(skip)('needs a session', async () => {
    await expect(app.client().user.updateNickname({ nickname: 'Nobody' })).rejects.toBeInstanceOf(
      SessionExpiredError,
    );
  });

  it.skipIf(skip)('lets one account change its nickname ten times an hour', async () => {
    const saved = app.deps.limits.changeNickname;
    app.deps.limits.changeNickname = createRateLimits().changeNickname;
    try {
      const ada = await signUp(app);
      for (let change = 1; change <= 10; change += 1)
        await ada.client.user.updateNickname({ nickname: `Ada ${change}` });
      await expect(ada.client.user.updateNickname({ nickname: 'Ada 11' })).rejects.toMatchObject({
        code: 5007,
        message: expect.stringMatching(/try again/i),
      });
      expect(await nicknameOf(ada.userInfo.uuid)).toBe('Ada 10');
      // Someone else's changes are their own.
      const bob = await signUp(app);
      expect((await bob.client.user.updateNickname({ nickname: 'Bob' })).nickname).toBe('Bob');
    } finally {
      app.deps.limits.changeNickname = saved;
    }
  });
});

describe.each(DIALECTS)('the private-nicknames migration on %s', (dialect) => {
  it.skipIf(dialect === 'postgres' && !withPostgres)(
    "replaces every nickname that is its e-mail's local part, and keeps the chosen ones",
    async () => {
      const database = await emptyDatabase(dialect);
      const db = database.db;
      try {
        await migrateTo(db as never, dialect, '2026-11-26-0023-speech-making');
        const at = '2026-11-26T10:00:00.000Z';
        const users: [string, string, string, Partial<Record<string, string>>][] = [
          ['u1', 'ada.lovelace@example.com', 'ada.lovelace', {}],
          // The old rule cut the local part at 40 characters.
          ['u2', `${'l'.repeat(50)}@example.com`, 'l'.repeat(40), {}],
          // A Google or Discord sign-in without a name took the whole local part.
          ['u5', `${'m'.repeat(50)}@example.com`, 'm'.repeat(50), { discord_id: 'd5' }],
          // Google's name and photo: usually the person's own.
          [
            'u3',
            'gina@gmail.com',
            'Gina G',
            { google_sub: 'g3', avatar: 'https://lh3.googleusercontent.com/a/p.png' },
          ],
          // Discord's display name and picture were chosen to be shown.
          [
            'u4',
            'nelly@example.com',
            'Nelly',
            { discord_id: 'd4', avatar: 'https://cdn.discordapp.com/avatars/d4/x.png' },
          ],
          ['u6', 'both@example.com', 'Both', { google_sub: 'g6', discord_id: 'd6' }],
        ];
        for (const [id, email, nickname, extra] of users)
          await db
            .insertInto('users')
            .values({
              id,
              email,
              password_hash: null,
              nickname,
              bio: '',
              language: 'en',
              nfsw: false,
              created_at: at,
              updated_at: at,
              ...extra,
            })
            .execute();
        await migrateToLatest(db as never, dialect);
        const after = Object.fromEntries(
          (await db.selectFrom('users').select(['id', 'nickname', 'avatar']).execute()).map(
            (row) => [row.id, row],
          ),
        );
        for (const id of ['u1', 'u2', 'u3', 'u5']) expect(after[id]!.nickname).toMatch(GENERATED);
        expect(after.u3!.avatar).toBeNull();
        expect(after.u4).toMatchObject({
          nickname: 'Nelly',
          avatar: 'https://cdn.discordapp.com/avatars/d4/x.png',
        });
        expect(after.u6!.nickname).toBe('Both');
      } finally {
        await database.drop();
      }
    },
  );
});

describe("a provider's display name", () => {
  it('is the nickname where it is a name anyone could choose, else a generated one', () => {
    const email = 'nelly@example.com';
    expect(providedNickname('  Nelly  ', email)).toBe('Nelly');
    expect(providedNickname('', email)).toMatch(GENERATED);
    expect(providedNickname('Nel\u202Ely', email)).toMatch(GENERATED);
    expect(providedNickname('x'.repeat(41), email)).toMatch(GENERATED);
    // Never an address, nor the part of theirs that new accounts used to be given.
    expect(providedNickname('nelly@example.com', email)).toMatch(GENERATED);
    expect(providedNickname('nelly', email)).toMatch(GENERATED);
  });
});
