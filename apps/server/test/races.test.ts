import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '@mates/api-client';
import { DIALECTS, postgresAvailable, signUp, startTestServer } from './harness';

const withPostgres = await postgresAvailable();
const PARALLEL = 25;

/**
 * Starts `PARALLEL` calls at once over real HTTP and sorts the outcomes: answers, clear
 * refusals (5007 or 4009), and anything else (a 5000, a broken answer).
 */
async function inParallel<T>(call: (index: number) => Promise<T>) {
  const outcomes = await Promise.allSettled(Array.from({ length: PARALLEL }, (_, i) => call(i)));
  const answers: T[] = [];
  const refusals: string[] = [];
  const broken: string[] = [];
  for (const outcome of outcomes) {
    if (outcome.status === 'fulfilled') answers.push(outcome.value);
    else if (ApiError.isInstance(outcome.reason) && [5007, 4009].includes(outcome.reason.code))
      refusals.push(outcome.reason.message);
    else broken.push(String(outcome.reason));
  }
  return { answers, refusals, broken };
}

describe.each(DIALECTS)('parallel writes of one user on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    if (!skip) server = await startTestServer(dialect);
  });
  afterAll(async () => {
    if (!skip) await server.close();
  });
  const someMate = (offset: number) =>
    server.db
      .selectFrom('mates')
      .select(['id', 'creator_id', 'favorites_count', 'reviews_count', 'rating_sum'])
      .where('visibility', '=', 'public')
      .where('nsfw', '=', false)
      .orderBy('id')
      .offset(offset)
      .limit(1)
      .executeTakeFirstOrThrow();
  const mateCounters = (mateId: string) =>
    server.db
      .selectFrom('mates')
      .select(['favorites_count', 'reviews_count', 'rating_sum'])
      .where('id', '=', mateId)
      .executeTakeFirstOrThrow();

  it.skipIf(skip)('keep to 20 personas with exactly one default', async () => {
    const { userInfo, client } = await signUp(server);
    const { answers, refusals, broken } = await inParallel((i) =>
      client.user.saveOrUpdatePersona({ name: `Persona ${i}`, description: '' }),
    );
    expect(broken).toEqual([]);
    expect(answers).toHaveLength(20);
    expect(refusals).toEqual(
      Array(PARALLEL - 20).fill('You can have at most 20 personas. Delete one to make room.'),
    );
    const rows = await server.db
      .selectFrom('personas')
      .select(['id', 'is_default'])
      .where('user_id', '=', userInfo.uuid)
      .execute();
    expect(rows).toHaveLength(20);
    expect(rows.filter((row) => Boolean(row.is_default))).toHaveLength(1);
    expect(answers.filter((persona) => persona.isDefault)).toHaveLength(1);
  });

  it.skipIf(skip)('toggle a favorite in turn: rows, counter and answers agree', async () => {
    const { userInfo, client } = await signUp(server);
    const mate = await someMate(0);
    const { answers, broken } = await inParallel(() => client.user.doFavorite({ mateId: mate.id }));
    expect(broken).toEqual([]);
    expect(answers).toHaveLength(PARALLEL);
    const rows = await server.db
      .selectFrom('favorites')
      .select('mate_id')
      .where('user_id', '=', userInfo.uuid)
      .execute();
    // Every toggle saw the one before it: adds and removes alternate, an odd number ends added.
    const added = answers.filter((answer) => answer.favorite).length;
    expect(added - (PARALLEL - added)).toBe(rows.length);
    expect(rows).toHaveLength(1);
    expect((await mateCounters(mate.id)).favorites_count).toBe(mate.favorites_count + 1);
  });

  it.skipIf(skip)('toggle a follow in turn: rows and answers agree', async () => {
    const { userInfo, client } = await signUp(server);
    const { creator_id: creatorId } = await someMate(1);
    const { answers, broken } = await inParallel(() => client.mate.followCreator({ creatorId }));
    expect(broken).toEqual([]);
    expect(answers).toHaveLength(PARALLEL);
    const rows = await server.db
      .selectFrom('follows')
      .select('creator_id')
      .where('user_id', '=', userInfo.uuid)
      .execute();
    const followed = answers.filter((answer) => answer.following).length;
    expect(followed - (PARALLEL - followed)).toBe(rows.length);
    expect(rows).toHaveLength(1);
  });

  it.skipIf(skip)('keep one review per user and mate, counted once', async () => {
    const { userInfo, client } = await signUp(server);
    const mate = await someMate(2);
    const { answers, broken } = await inParallel((i) =>
      client.mate.review({ mateId: mate.id, rating: (i % 5) + 1, content: `Take ${i}` }),
    );
    expect(broken).toEqual([]);
    expect(answers).toHaveLength(PARALLEL);
    const rows = await server.db
      .selectFrom('reviews')
      .select(['id', 'rating'])
      .where('user_id', '=', userInfo.uuid)
      .execute();
    expect(rows).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.reviewId))).toEqual(new Set([rows[0]!.id]));
    expect(await mateCounters(mate.id)).toMatchObject({
      reviews_count: mate.reviews_count + 1,
      rating_sum: mate.rating_sum + rows[0]!.rating,
    });
  });
});
