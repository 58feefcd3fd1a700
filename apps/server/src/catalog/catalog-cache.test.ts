import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../../test/harness';
import { createCatalogCache } from './catalog-cache';

describe('the catalog cache', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    database = await freshDatabase('sqlite');
  });
  afterAll(() => database.drop());
  const raise = () =>
    sql`update catalog_versions set version = version + 1 where name = 'mates'`.execute(
      database.db,
    );

  it('answers from the cache until a version changes, then computes again', async () => {
    const cache = createCatalogCache(database.db);
    expect(await cache.get(['mates'], 'k', async () => ({ n: 1 }))).toEqual({ n: 1 });
    expect(await cache.get(['mates'], 'k', async () => ({ n: 2 }))).toEqual({ n: 1 });
    await raise();
    expect(await cache.get(['mates'], 'k', async () => ({ n: 3 }))).toEqual({ n: 3 });
  });

  it('past its TTL, keeps answering the last answer while it computes the next one', async () => {
    const cache = createCatalogCache(database.db, { ttlMs: 1 });
    await cache.get(['mates'], 'k', async () => ({ n: 1 }));
    await sleep(20);
    let finish: (value: { n: number }) => void = () => {};
    const next = new Promise<{ n: number }>((resolve) => (finish = resolve));
    // The computation has not finished: the request gets the answer before it.
    expect(await cache.get(['mates'], 'k', () => next)).toEqual({ n: 1 });
    finish({ n: 2 });
    await next;
    // Then the new one (fresh, or past its TTL already and being computed again).
    expect(await cache.get(['mates'], 'k', async () => ({ n: 3 }))).toEqual({ n: 2 });
  });

  it('never answers with an answer of older versions, however fresh', async () => {
    const cache = createCatalogCache(database.db, { ttlMs: 1 });
    await cache.get(['mates'], 'k', async () => ({ n: 1 }));
    await sleep(20);
    await raise();
    expect(await cache.get(['mates'], 'k', async () => ({ n: 2 }))).toEqual({ n: 2 });
  });

  it('has the requests of one turn of the event loop share one read of the versions', async () => {
    let reads = 0;
    const counted = database.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        reads += 1;
        return args.result;
      },
    });
    const cache = createCatalogCache(counted);
    await cache.get(['mates'], 'k', async () => ({ n: 1 }));
    reads = 0;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => cache.get(['mates'], 'k', async () => ({ n: 2 }))),
    );
    expect(answers).toEqual(Array.from({ length: 20 }, () => ({ n: 1 })));
    // One read for the twenty, not one each (nor one for the first and one for the rest).
    expect(reads).toBe(1);
    // A request of a later turn reads again, and sees a write committed before it asked.
    await raise();
    expect(await cache.get(['mates'], 'k', async () => ({ n: 3 }))).toEqual({ n: 3 });
    expect(reads).toBe(2);
  });
});
