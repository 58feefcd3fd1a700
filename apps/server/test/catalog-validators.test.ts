import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mate, MateSummary, Paged } from '@mates/api-client';
import {
  DIALECTS,
  createTestApp,
  postgresAvailable,
  signUp,
  type TestApp,
  seededMate,
} from './harness';

const withPostgres = await postgresAvailable();

// Catalog answers carry an ETag: a digest of the very bytes sent. A caller that holds them
// (a browser asking again) gets 304 and no body; once a write changes the answer, or when the
// caller would be answered something else, it gets the whole new answer.
describe.each(DIALECTS)('catalog answers and If-None-Match on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let app: TestApp;
  beforeAll(async () => {
    if (!skip) app = await createTestApp(dialect);
  });
  afterAll(async () => {
    if (!skip) await app.close();
  });
  const ask = (path: string, headers: Record<string, string> = {}) =>
    app.app.request(`/api/mate/${path}`, { headers });
  const paths = async () => [
    'recommend?pageSize=50',
    'recommend?tags=fantasy&pageSize=50',
    'search?keyword=lyra',
    'hotWords',
    'trendingRank',
    `getMateDetail?mateId=${(await seededMate(app.db, 'Lyra Moonwhisper')).id}`,
  ];

  it.skipIf(skip)('answers 304, with no body, to a caller that holds the answer', async () => {
    for (const path of await paths()) {
      const first = await ask(path);
      const etag = first.headers.get('etag');
      expect(etag, path).toMatch(/^"[\w-]+"$/);
      expect(first.headers.get('cache-control')).toBe('private, no-cache');
      expect(await first.json()).toMatchObject({ c: 200 });
      const again = await ask(path, { 'If-None-Match': etag! });
      expect(again.status, path).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('x-request-id')).toEqual(expect.any(String));
      expect(again.headers.get('x-content-type-options')).toBe('nosniff');
      // Another copy, or none, gets the whole answer.
      expect((await ask(path, { 'If-None-Match': '"other"' })).status).toBe(200);
    }
  });

  it.skipIf(skip)('answers in full once a write changed the answer', async () => {
    const { client } = await signUp(app);
    const { id } = await seededMate(app.db, 'Lyra Moonwhisper');
    const changed = ['recommend?pageSize=50', 'search?keyword=lyra', `getMateDetail?mateId=${id}`];
    const held = new Map<string, string>();
    for (const path of changed) held.set(path, (await ask(path)).headers.get('etag')!);
    // A favorite changes the counters of every listing that holds the mate, and its detail.
    await client.user.doFavorite({ mateId: id });
    for (const path of changed) {
      const fresh = await ask(path, { 'If-None-Match': held.get(path)! });
      expect(fresh.status, path).toBe(200);
      expect(fresh.headers.get('etag')).not.toBe(held.get(path));
      const { d } = (await fresh.json()) as { d: Mate | Paged<MateSummary> };
      const mate = 'list' in d ? d.list.find((one) => one.mateId === id)! : d;
      expect(mate.counters.favorites, path).toBe(1);
    }
  });

  it.skipIf(skip)('never answers 304 to a caller who would be answered otherwise', async () => {
    const { id } = await seededMate(app.db, 'Kai Tanaka');
    await app.db.updateTable('mates').set({ nsfw: true }).where('id', '=', id).execute();
    const adult = await signUp(app);
    await adult.client.user.updateTags({ tags: [], nfsw: true });
    const anonymous = await ask('recommend?pageSize=50');
    const asAdult = await ask('recommend?pageSize=50', {
      token: adult.userInfo.token,
      'If-None-Match': anonymous.headers.get('etag')!,
    });
    expect(asAdult.status).toBe(200);
    const { d } = (await asAdult.json()) as { d: { list: { mateId: string }[] } };
    expect(d.list.map((mate) => mate.mateId)).toContain(id);
    await app.db.updateTable('mates').set({ nsfw: false }).where('id', '=', id).execute();
  });
});
