import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Envelope } from '@mates/api-client';
import * as sessions from '../src/accounts/sessions';
import * as hotWordsModule from '../src/catalog/hot-word-repository';
import { CODE } from '../src/http/envelope';
import { createTestApp, signUp, type TestApp } from './harness';

// #20: a call answered ahead of the middlewares (http/shared-calls.ts) that fails is answered by
// its ordinary route, which must not try it again: in an outage every catalog call would wait
// for the database twice, and load it twice as it comes back. Both parts that touch the
// database are watched, and made to fail, through their own modules.
vi.mock('../src/accounts/sessions', async (importOriginal) => {
  const actual = await importOriginal<typeof sessions>();
  return { ...actual, resolveSession: vi.fn(actual.resolveSession) };
});
vi.mock('../src/catalog/hot-word-repository', async (importOriginal) => {
  const actual = await importOriginal<typeof hotWordsModule>();
  return { ...actual, hotWords: vi.fn(actual.hotWords) };
});

const resolveSession = vi.mocked(sessions.resolveSession);
const hotWords = vi.mocked(hotWordsModule.hotWords);
const outage = () => new Error('connect ECONNREFUSED 127.0.0.1:5432');

describe('a shared call that fails', () => {
  let app: TestApp;
  let token: string;
  beforeAll(async () => {
    app = await createTestApp('sqlite');
    token = (await signUp(app)).userInfo.token;
  });
  afterAll(() => app.close());
  beforeEach(() => {
    resolveSession.mockClear();
    hotWords.mockClear();
  });

  const ask = async (headers: Record<string, string>) => {
    const before = app.logRecords.length;
    const response = await app.app.request('/api/mate/hotWords', { headers });
    const envelope = (await response.json()) as Envelope<unknown>;
    const lines = app.logRecords.slice(before);
    return { response, envelope, lines };
  };

  it('is tried once, and its failure answered in the caller’s language', async () => {
    hotWords.mockRejectedValueOnce(outage());
    const { response, envelope, lines } = await ask({ token, language: 'fr' });
    expect(hotWords).toHaveBeenCalledTimes(1);
    expect(envelope.c).toBe(CODE.internal);
    expect(envelope.m).toBe('Un problème est survenu de notre côté. Réessaie.');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    // The session was read once too, ahead of the middlewares, and the answer still knows who
    // asked: its log line names the caller.
    expect(resolveSession).toHaveBeenCalledTimes(1);
    const answered = lines.filter((line) => line.route !== undefined);
    expect(answered).toEqual([
      expect.objectContaining({ status: 200, userId: expect.any(String) }),
    ]);
    expect(lines.some((line) => String(line.msg).includes('ECONNREFUSED'))).toBe(true);
  });

  it('is not tried at all when the session cannot be read', async () => {
    resolveSession.mockRejectedValueOnce(outage());
    const { envelope } = await ask({ token });
    expect(resolveSession).toHaveBeenCalledTimes(1);
    expect(hotWords).not.toHaveBeenCalled();
    expect(envelope.c).toBe(CODE.internal);
    expect(envelope.m).toBe('Something went wrong on our side. Please try again.');
  });

  it('times the request from its arrival, the failed try included', async () => {
    // A database that takes its time to fail (a connection timeout, shortened).
    hotWords.mockImplementationOnce(
      () => new Promise((_, reject) => setTimeout(() => reject(outage()), 60)),
    );
    const { lines } = await ask({});
    const answered = lines.filter((line) => line.route !== undefined);
    expect(answered).toHaveLength(1);
    expect(answered[0]!.ms).toBeGreaterThanOrEqual(60);
  });

  it('answers the next request afresh', async () => {
    hotWords.mockRejectedValueOnce(outage());
    expect((await ask({})).envelope.c).toBe(CODE.internal);
    const { envelope } = await ask({});
    expect(envelope.c).toBe(CODE.ok);
    expect(hotWords).toHaveBeenCalledTimes(2);
  });
});
