import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, insertUser, mateRow, signUp, type TestApp } from './harness';

// Issue 37, new users 8: a mate's page said its creator had 6 mates, the creator's page
// listed 5. Both count what the one looking can see.
describe.each(DIALECTS)('how many mates a creator has (%s)', (dialect) => {
  let app: TestApp;
  const creatorId = 'creator-counted';
  const shown = mateRow(creatorId, { name: 'Shown Everywhere' });
  const mature = mateRow(creatorId, { name: 'Only For Adults', nsfw: true });
  const secret = mateRow(creatorId, { name: 'Kept Private', visibility: 'private' });

  beforeAll(async () => {
    app = await createTestApp(dialect);
    await insertUser(app.db, { id: creatorId, email: 'creator-counted@example.com' });
    await app.db.insertInto('mates').values([shown, mature, secret]).execute();
  });
  afterAll(async () => {
    await app?.close();
  });

  const counts = async (client: ReturnType<TestApp['client']>) => {
    const extra = await client.mate.mateExtraInfo({ mateId: shown.id });
    const page = await client.mate.creatorInfo({ creatorId });
    const listed = await client.mate.creatorMates({ creatorId });
    return { matePage: extra.creator.mates, creatorPage: page.mates, listed: listed.total };
  };

  it('a mate page, the creator page and its list agree, for whoever looks', async () => {
    // A visitor, and a reader who has not turned mature mates on: the mature one is not theirs to see.
    expect(await counts(app.client())).toEqual({ matePage: 1, creatorPage: 1, listed: 1 });
    const reader = await signUp(app);
    expect(await counts(reader.client)).toEqual({ matePage: 1, creatorPage: 1, listed: 1 });
    // With mature mates on, both public ones; the private one is never counted for others.
    await reader.client.user.updateTags({ tags: [], nfsw: true });
    expect(await counts(reader.client)).toEqual({ matePage: 2, creatorPage: 2, listed: 2 });
    const follows = async () => {
      await reader.client.mate.followCreator({ creatorId });
      const [followed] = await reader.client.mate.followList();
      return followed!.mates;
    };
    expect(await follows()).toBe(2);
  });
});
