import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { createApiClient } from './client';
import type { ChatSendPayload, ChatStreamEvent } from './types/chat';
import type { ChatSendOptions } from './client-types';
import { NetworkError } from './errors/network-error';
import { SessionExpiredError } from './errors/session-expired-error';
import { createFakeFetch, envelopeResponse, streamResponse } from './fake-fetch.test-helper';

const START = { type: 'reply-start', roomId: 'room-1', userMessage: null, messageId: 'msg-2' };
const END = {
  type: 'reply-end',
  messageId: 'msg-2',
  finishReason: 'stop',
  usage: { promptTokens: 12, completionTokens: 3 },
  benefits: { chats: 9, goldCoins: 0, userId: 'u1' },
};
const line = (event: unknown) => `data: ${JSON.stringify(event)}\n\n`;

function setup(respond: Parameters<typeof createFakeFetch>[0]) {
  const fake = createFakeFetch(respond);
  const onNotice = vi.fn();
  const onSessionExpired = vi.fn();
  const client = createApiClient({
    baseUrl: '/api',
    fetch: fake.fetch,
    getToken: () => 'tok',
    getLanguage: () => 'en',
    onNotice,
    onSessionExpired,
  });
  const events: ChatStreamEvent[] = [];
  const onData = (event: ChatStreamEvent) => events.push(event);
  return { client, requests: fake.requests, events, onData, onNotice, onSessionExpired };
}

describe('client.girl.chatSend', () => {
  it('posts the payload and streams every event, then done', async () => {
    const body =
      line(START) +
      line({ type: 'reply-delta', text: 'Hel' }) +
      line({ type: 'reply-delta', text: 'lo' }) +
      line(END) +
      'data: [DONE]\n\n';
    // Chunks cut mid-line, as a network would.
    const { client, requests, events, onData } = setup(() =>
      streamResponse([body.slice(0, 30), body.slice(30, 95), body.slice(95)]),
    );
    const onDone = vi.fn();
    await client.girl.chatSend({ roomId: 'room-1', content: 'Hi' }, { onData, onDone });
    expect(requests[0]!.method).toBe('POST');
    expect(requests[0]!.url.pathname).toBe('/api/girl/chat/send');
    expect(requests[0]!.headers.get('accept')).toBe('text/event-stream');
    expect(requests[0]!.headers.get('token')).toBe('tok');
    expect(JSON.parse(requests[0]!.body!)).toEqual({ roomId: 'room-1', content: 'Hi' });
    expect(events).toEqual([
      START,
      { type: 'reply-delta', text: 'Hel' },
      { type: 'reply-delta', text: 'lo' },
      END,
    ]);
    expect(onDone).toHaveBeenCalledOnce();
  });

  it('passes an error event through and still ends with done', async () => {
    const errorEvent = { type: 'error', message: 'The model is unavailable.', messageId: 'msg-2' };
    const { client, events, onData } = setup(() =>
      streamResponse([
        line(START),
        line({ type: 'reply-delta', text: 'Hi' }),
        line(errorEvent),
        'data: [DONE]\n',
      ]),
    );
    const onDone = vi.fn();
    await client.girl.chatSend({ roomId: 'room-1', regenerate: true }, { onData, onDone });
    expect(events.at(-1)).toEqual(errorEvent);
    expect(onDone).toHaveBeenCalledOnce();
  });

  it('reports malformed lines through onError and keeps going', async () => {
    const { client, events, onData } = setup(() =>
      streamResponse([line(START), 'data: {nope\n', line(END)]),
    );
    const onError = vi.fn();
    await client.girl.chatSend({ roomId: 'room-1', content: 'Hi' }, { onData, onError });
    expect(events).toEqual([START, END]);
    expect(onError).toHaveBeenCalledOnce();
  });

  it('parses a trailing line without a line end when the body closes', async () => {
    const { client, events, onData } = setup(() =>
      streamResponse([line(START), `data: ${JSON.stringify(END)}`]),
    );
    await client.girl.chatSend({ roomId: 'room-1', content: 'Hi' }, { onData });
    expect(events).toEqual([START, END]);
  });

  it('a refusal envelope (5007, no chats left) notifies and rejects without streaming', async () => {
    const { client, events, onData, onNotice } = setup(() =>
      envelopeResponse(5007, null, 'You have no chats left.'),
    );
    await expect(
      client.girl.chatSend({ roomId: 'room-1', content: 'Hi' }, { onData }),
    ).rejects.toThrow('You have no chats left.');
    expect(onNotice).toHaveBeenCalledWith('You have no chats left.');
    expect(events).toEqual([]);
  });

  it('a 5002 envelope rejects with SessionExpiredError', async () => {
    const { client, onData, onSessionExpired } = setup(() => envelopeResponse(5002));
    const error = await client.girl
      .chatSend({ roomId: 'r', content: 'Hi' }, { onData })
      .catch((e: unknown) => e);
    expect(SessionExpiredError.isInstance(error)).toBe(true);
    expect(onSessionExpired).toHaveBeenCalledOnce();
  });

  it('a stream that breaks off rejects with NetworkError after the events that arrived', async () => {
    const { client, events, onData } = setup(() =>
      streamResponse([
        line(START),
        line({ type: 'reply-delta', text: 'Hi' }),
        new TypeError('terminated'),
      ]),
    );
    const onDone = vi.fn();
    const error = await client.girl
      .chatSend({ roomId: 'r', content: 'Hi' }, { onData, onDone })
      .catch((e: unknown) => e);
    expect(NetworkError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ method: 'POST', path: '/girl/chat/send' });
    expect(events).toHaveLength(2);
    expect(onDone).not.toHaveBeenCalled();
  });

  it('an abort mid-stream rejects with the abort reason and passes no done', async () => {
    const controller = new AbortController();
    const { client, events } = setup((request) =>
      streamResponse(
        [line(START), line({ type: 'reply-delta', text: 'Hi' }), line(END)],
        request.signal,
      ),
    );
    const onDone = vi.fn();
    const onData = (event: ChatStreamEvent) => {
      events.push(event);
      if (event.type === 'reply-delta') controller.abort();
    };
    const error = await client.girl
      .chatSend({ roomId: 'r', content: 'Hi' }, { onData, onDone, signal: controller.signal })
      .catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    expect(events.map((e) => e.type)).toEqual(['reply-start', 'reply-delta']);
    expect(onDone).not.toHaveBeenCalled();
  });

  it('is typed: a payload needs content or regenerate, events are a union', () => {
    const client = createApiClient({ baseUrl: '', getToken: () => '', getLanguage: () => 'en' });
    expectTypeOf(client.girl.chatSend).parameter(0).toEqualTypeOf<ChatSendPayload>();
    expectTypeOf<Parameters<ChatSendOptions['onData']>[0]>().toEqualTypeOf<ChatStreamEvent>();
    expectTypeOf(client.user.verifyStatus).parameter(0).toHaveProperty('email');
    expectTypeOf(client.mate.hotWords).parameters.toEqualTypeOf<
      [options?: { signal?: AbortSignal; quiet?: boolean }]
    >();
    // @ts-expect-error content or regenerate is required
    void client.girl.chatSend({ roomId: 'r' }, { onData: () => {} }).catch(() => {});
  });
});
