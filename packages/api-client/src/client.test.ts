import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from './client';
import type { ApiClientOptions } from './client-types';
import { ENDPOINTS, ENDPOINT_PATHS, type EndpointPath } from './endpoints';
import { ApiError } from './errors/api-error';
import { NetworkError } from './errors/network-error';
import { SessionExpiredError } from './errors/session-expired-error';
import { createFakeFetch, envelopeResponse } from './fake-fetch.test-helper';
import { SAMPLE_INPUTS, expectedQuery } from './sample-inputs.test-helper';
import { methodKeyOf } from './method-name';

function setup(
  responder: Parameters<typeof createFakeFetch>[0] = () => envelopeResponse(200, { ok: true }),
  extra: Partial<ApiClientOptions> = {},
) {
  const fake = createFakeFetch(responder);
  const onSessionExpired = vi.fn();
  const onNotice = vi.fn();
  const client = createApiClient({
    baseUrl: 'https://mates.test/api/',
    fetch: fake.fetch,
    getToken: () => 'tok-123',
    getLanguage: () => 'es',
    onSessionExpired,
    onNotice,
    ...extra,
  });
  return { client, requests: fake.requests, onSessionExpired, onNotice };
}

function methodOf(client: ReturnType<typeof createApiClient>, path: EndpointPath) {
  const [group, name] = methodKeyOf(path);
  const fn = (client as unknown as Record<string, Record<string, unknown>>)[group]?.[name];
  return { fn: fn as (...args: unknown[]) => Promise<unknown>, label: `client.${group}.${name}` };
}

const plainPaths = ENDPOINT_PATHS.filter((path) => path !== '/girl/chat/send');

describe('createApiClient: every call of the contract', () => {
  it('has all 43 calls of the specification and 56 extensions, named after their paths', () => {
    const { client } = setup();
    expect(ENDPOINT_PATHS).toHaveLength(99);
    expect(ENDPOINT_PATHS.slice(43)).toEqual([
      '/mate/importCard',
      '/mate/exportCard',
      '/mate/generateRole',
      '/mate/saveMate',
      '/extra/publicConfig',
      '/mate/myMates',
      '/mate/setVisibility',
      '/mate/duplicateMate',
      '/mate/deleteMate',
      '/mate/portraitChoices',
      '/mate/setPortrait',
      '/mate/previewCard',
      '/mate/creatorInfo',
      '/mate/creatorMates',
      '/admin/reports',
      '/admin/hideMate',
      '/admin/restoreMate',
      '/admin/dismissReports',
      '/room/cancelImage',
      '/room/pictures',
      '/room/sharePicture',
      '/voice/voices',
      '/voice/transcribe',
      '/user/ledger',
      '/user/spendingCap',
      '/user/setSpendingCap',
      '/subscription/checkout',
      '/subscription/checkoutStatus',
      '/subscription/cancel',
      '/subscription/resume',
      '/user/forgotPassword',
      '/user/resetPassword',
      '/room/chooseSwipe',
      '/room/setPersona',
      '/user/updateNickname',
      '/room/memories',
      '/room/saveMemory',
      '/room/deleteMemory',
      '/room/setMemoryAcrossChats',
      '/room/writeMemories',
      '/room/promptView',
      '/room/branch',
      '/room/branches',
      '/room/exportChat',
      '/room/searchMessages',
      '/user/exportData',
      '/user/exportStatus',
      '/user/exportTicket',
      '/user/deletionPreview',
      '/user/deleteAccount',
      '/room/createGroup',
      '/room/updateGroup',
      '/room/addGroupMember',
      '/room/removeGroupMember',
      '/room/updateGroupMember',
      '/call/start',
    ]);
    expect(typeof client.admin.hideMate).toBe('function');
    for (const path of ENDPOINT_PATHS) {
      expect(typeof methodOf(client, path).fn, path).toBe('function');
    }
    expect(typeof client.user.verifyStatus).toBe('function');
    expect(typeof client.girl.chatSend).toBe('function');
    expect(typeof client.girl.chatGetInspiration).toBe('function');
    expect(typeof client.extra.tagsMap).toBe('function');
  });

  it.each(plainPaths)('%s: method, path, query or body, headers', async (path) => {
    const { client, requests } = setup(() => envelopeResponse(200, { path }));
    const { fn } = methodOf(client, path);
    const input = SAMPLE_INPUTS[path];
    const result = ENDPOINTS[path].hasInput ? await fn(input) : await fn();
    expect(result).toEqual({ path });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request!.method).toBe(ENDPOINTS[path].method);
    expect(request!.url.origin + request!.url.pathname).toBe(`https://mates.test/api${path}`);
    expect(request!.headers.get('token')).toBe('tok-123');
    expect(request!.headers.get('language')).toBe('es');
    if (ENDPOINTS[path].method === 'GET') {
      expect(Object.fromEntries(request!.url.searchParams)).toEqual(expectedQuery(input));
      expect(request!.body).toBeUndefined();
    } else {
      expect(request!.url.search).toBe('');
      if (input === undefined) expect(request!.body).toBeUndefined();
      else {
        expect(JSON.parse(request!.body!)).toEqual(input);
        expect(request!.headers.get('content-type')).toBe('application/json');
      }
    }
  });

  it('sends an empty token and language "en" for an anonymous visitor', async () => {
    const { client, requests } = setup(undefined, { getToken: () => null, getLanguage: () => '' });
    await client.mate.hotWords();
    expect(requests[0]!.headers.get('token')).toBe('');
    expect(requests[0]!.headers.get('language')).toBe('en');
  });

  it('reads token and language at each call, not once', async () => {
    let token = 'first';
    const { client, requests } = setup(undefined, { getToken: () => token });
    await client.user.benefits();
    token = 'second';
    await client.user.benefits();
    expect(requests.map((r) => r.headers.get('token'))).toEqual(['first', 'second']);
  });

  it('leaves out empty optional query values', async () => {
    const { client, requests } = setup();
    await client.mate.recommend({ tags: [], gender: undefined });
    await client.mate.recommend();
    expect(requests.map((r) => r.url.search)).toEqual(['', '']);
  });

  it('accepts the spec payload of verify status without a ticket', async () => {
    const { client, requests } = setup();
    await client.user.verifyStatus({ email: 'a@b.c' });
    expect(JSON.parse(requests[0]!.body!)).toEqual({ email: 'a@b.c' });
  });

  it('offers a low-level request with the same envelope handling', async () => {
    const { client, requests } = setup(() => envelopeResponse(200, [1, 2]));
    const result = await client.request<number[]>('GET', '/extra/custom', {
      query: { a: 1, b: true },
    });
    expect(result).toEqual([1, 2]);
    expect(requests[0]!.url.toString()).toBe('https://mates.test/api/extra/custom?a=1&b=true');
  });

  it('downloads a linked file with the session headers, its body unread', async () => {
    const zip = new Uint8Array([80, 75, 3, 4]);
    const { client, requests } = setup(
      () => new Response(zip, { headers: { 'content-type': 'application/zip' } }),
    );
    const answer = await client.download('/api/user/exportDownload?exportId=e1&signature=s');
    expect(new Uint8Array(await answer.arrayBuffer())).toEqual(zip);
    expect(requests[0]!.url.toString()).toBe(
      'https://mates.test/api/user/exportDownload?exportId=e1&signature=s',
    );
    expect(requests[0]!.headers.get('token')).toBe('tok-123');
    expect(requests[0]!.headers.get('language')).toBe('es');
  });

  it('a download refused signed out is a 5002 like any call; another failure an ApiError', async () => {
    const signedOut = setup(() => envelopeResponse(5002, null, 'login expired'));
    await expect(signedOut.client.download('/api/user/exportDownload?x=1')).rejects.toBeInstanceOf(
      SessionExpiredError,
    );
    expect(signedOut.onSessionExpired).toHaveBeenCalledOnce();
    const gone = setup(() => new Response('Not found', { status: 404 }));
    await expect(gone.client.download('/api/user/exportDownload?x=1')).rejects.toMatchObject({
      name: 'ApiError',
      status: 404,
      message: 'server error',
    });
  });
});

describe('createApiClient: envelope handling (docs/product.md, errors)', () => {
  it('resolves code 200 to d, and to null when d is absent', async () => {
    const { client } = setup(() => new Response('{"c":200,"m":""}'));
    await expect(client.user.logout()).resolves.toBeNull();
  });

  it('5002: calls onSessionExpired and rejects with "login expired"', async () => {
    const { client, onSessionExpired, onNotice } = setup(() =>
      envelopeResponse(5002, null, 'token expired'),
    );
    const error = await client.user.benefits().catch((e: unknown) => e);
    expect(SessionExpiredError.isInstance(error)).toBe(true);
    expect(ApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'SessionExpiredError',
      message: 'login expired',
      code: 5002,
      method: 'GET',
      path: '/user/benefits',
    });
    expect(onSessionExpired).toHaveBeenCalledOnce();
    expect(onNotice).not.toHaveBeenCalled();
  });

  it('5007: notifies with the server message and rejects with it', async () => {
    const { client, onNotice, onSessionExpired } = setup(() =>
      envelopeResponse(5007, null, 'Too many attempts, try again in a minute.'),
    );
    const error = await client.user.login(SAMPLE_INPUTS['/user/login']).catch((e: unknown) => e);
    expect(onNotice).toHaveBeenCalledWith('Too many attempts, try again in a minute.');
    expect(error).toMatchObject({
      name: 'ApiError',
      code: 5007,
      message: 'Too many attempts, try again in a minute.',
      method: 'POST',
      path: '/user/login',
    });
    expect(SessionExpiredError.isInstance(error)).toBe(false);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('5007 with Retry-After: no notice, the wait on the error for its caller', async () => {
    const { client, onNotice } = setup(() => {
      const response = envelopeResponse(5007, null, 'The model is still starting up.');
      response.headers.set('retry-after', '2');
      return response;
    });
    const error = await client.girl
      .chatSend({ roomId: 'room-1', content: 'Hi' }, { onData: () => {} })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 5007, retryAfterMs: 2000 });
    expect(onNotice).not.toHaveBeenCalled();
    // Without it, a notice as ever, and no wait.
    const plain = setup(() => envelopeResponse(5007, null, 'No.'));
    await expect(plain.client.mate.hotWords()).rejects.toMatchObject({ retryAfterMs: null });
    expect(plain.onNotice).toHaveBeenCalledWith('No.');
  });

  it('5007 with a reason: the notice as ever, and the reason on the error', async () => {
    const message = 'The model is not available right now. Please try again later.';
    const { client, onNotice } = setup(() =>
      envelopeResponse(5007, { reason: 'model-missing' }, message),
    );
    const error = await client.girl
      .chatSend({ roomId: 'room-1', content: 'Hi' }, { onData: () => {} })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 5007, message, reason: 'model-missing' });
    expect(onNotice).toHaveBeenCalledWith(message);
    const plain = setup(() => envelopeResponse(5007, null, 'No.'));
    await expect(plain.client.mate.hotWords()).rejects.toMatchObject({ reason: null });
  });

  it('5007 to a quiet call: no notice, the error for its caller', async () => {
    const { client, onNotice } = setup(() =>
      envelopeResponse(5007, null, 'Pictures are not set up on this server.'),
    );
    await expect(client.aigc.models({ quiet: true })).rejects.toMatchObject({
      code: 5007,
      message: 'Pictures are not set up on this server.',
    });
    await expect(client.mate.getMateDetail({ mateId: 'x' }, { quiet: true })).rejects.toMatchObject(
      { code: 5007 },
    );
    expect(onNotice).not.toHaveBeenCalled();
    await expect(client.aigc.models()).rejects.toMatchObject({ code: 5007 });
    expect(onNotice).toHaveBeenCalledWith('Pictures are not set up on this server.');
  });

  it('5007 without a message: "something error"', async () => {
    const { client, onNotice } = setup(() => envelopeResponse(5007, null, ''));
    await expect(client.mate.hotWords()).rejects.toThrow(/^something error$/);
    expect(onNotice).toHaveBeenCalledWith('something error');
  });

  it('any other code: rejects with the server message, no callbacks', async () => {
    const { client, onNotice, onSessionExpired } = setup(() =>
      envelopeResponse(4004, null, 'Mate not found', 404),
    );
    const error = await client.mate.getMateDetail({ mateId: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 4004, message: 'Mate not found', status: 404 });
    expect(onNotice).not.toHaveBeenCalled();
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('any other code without a message: "server error"', async () => {
    const { client } = setup(() => envelopeResponse(500, null, ''));
    await expect(client.extra.tags()).rejects.toThrow(/^server error$/);
  });

  it('a body that is not an envelope: ApiError "server error" with code 0', async () => {
    const { client } = setup(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    const error = await client.extra.tags().catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'ApiError',
      code: 0,
      status: 502,
      message: 'server error',
    });
    const { client: other } = setup(() => new Response('{"ok":true}'));
    await expect(other.extra.tags()).rejects.toMatchObject({ code: 0 });
  });

  it('a transport failure rejects with NetworkError naming the call', async () => {
    const { client } = setup(() => {
      throw new TypeError('fetch failed');
    });
    const error = await client.mate.trendingRank().catch((e: unknown) => e);
    expect(NetworkError.isInstance(error)).toBe(true);
    expect(ApiError.isInstance(error)).toBe(false);
    expect(error).toMatchObject({ method: 'GET', path: '/mate/trendingRank' });
    expect((error as Error).message).toBe('GET /mate/trendingRank failed: fetch failed');
  });

  it('passes the signal to fetch and rejects with its reason on abort', async () => {
    const controller = new AbortController();
    const { client, requests } = setup(
      (request) =>
        new Promise<Response>((_, reject) => {
          request.signal?.addEventListener('abort', () => reject(request.signal?.reason));
        }),
    );
    const pending = client.mate.search({ keyword: 'x' }, { signal: controller.signal });
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(requests[0]!.signal).toBe(controller.signal);
    expect((error as Error).name).toBe('AbortError');
    expect(NetworkError.isInstance(error)).toBe(false);
  });

  it('has type guards that reject look-alikes', () => {
    const fake = Object.assign(new Error('x'), { name: 'ApiError', code: 1 });
    expect(ApiError.isInstance(fake)).toBe(false);
    expect(NetworkError.isInstance(null)).toBe(false);
    expect(SessionExpiredError.isInstance('login expired')).toBe(false);
  });
});

describe('methodKeyOf', () => {
  it('groups by the first segment and camel-cases the rest', () => {
    expect(methodKeyOf('/user/verify/status')).toEqual(['user', 'verifyStatus']);
    expect(methodKeyOf('/girl/chat/getInspiration')).toEqual(['girl', 'chatGetInspiration']);
    expect(methodKeyOf('/extra/tagsMap')).toEqual(['extra', 'tagsMap']);
  });
});
