import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setupServer } from 'msw/node';
import { createApiClient } from '../client';
import { ENDPOINTS, ENDPOINT_PATHS } from '../endpoints';
import type { ChatStreamEvent } from '../types/chat';
import { SAMPLE_INPUTS } from '../sample-inputs.test-helper';
import { methodKeyOf } from '../method-name';
import {
  createHandlers,
  mockChatStream,
  mockEndpoint,
  mockEndpointError,
  mockEndpointLoading,
} from './handlers';
import { createMateFixture } from './fixtures';

const server = setupServer(...createHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const client = createApiClient({
  baseUrl: 'http://mates.test/api',
  getToken: () => 'tok',
  getLanguage: () => 'en',
});

function call(path: (typeof ENDPOINT_PATHS)[number]) {
  const [group, name] = methodKeyOf(path);
  const fn = (
    client as unknown as Record<string, Record<string, (...a: unknown[]) => Promise<unknown>>>
  )[group]![name]!;
  return ENDPOINTS[path].hasInput ? fn(SAMPLE_INPUTS[path]) : fn();
}

describe('MSW handlers', () => {
  it.each(ENDPOINT_PATHS.filter((path) => path !== '/girl/chat/send'))(
    '%s answers a success envelope',
    async (path) => {
      await expect(call(path)).resolves.not.toBeUndefined();
    },
  );

  it('echo ids from the request', async () => {
    expect((await client.mate.getMateDetail({ mateId: 'mate-42' })).mateId).toBe('mate-42');
    expect(await client.user.doFavorite({ mateId: 'mate-7' })).toEqual({
      mateId: 'mate-7',
      favorite: true,
    });
  });

  it('change a memory as the server does: what the change leaves out stays', async () => {
    const changed = await client.room.saveMemory({
      roomId: 'room-1',
      memoryId: 'memory-pinned',
      content: 'Ada is allergic to dogs.',
    });
    expect(changed).toMatchObject({
      content: 'Ada is allergic to dogs.',
      pinned: true,
      author: 'person',
    });
    const summary = await client.room.saveMemory({
      roomId: 'room-1',
      memoryId: 'memory-summary',
      content: 'They met.',
      about: 'person',
    });
    expect(summary).toMatchObject({ kind: 'summary', about: 'story' });
    const added = await client.room.saveMemory({ roomId: 'room-1', content: ' New. ' });
    expect(added).toMatchObject({ content: 'New.', author: 'person', sourceMessageIds: [] });
  });

  it("list a group's memories per member, and add one for a member", async () => {
    const all = await client.room.memories({ roomId: 'room-group' });
    const owners = new Set(all.memories.map((memory) => memory.mateId));
    expect(owners).toEqual(new Set([null, 'mate-1', 'mate-2', 'mate-3']));
    const kai = await client.room.memories({ roomId: 'room-group', mateId: 'mate-2' });
    expect(kai.memories.length).toBeGreaterThan(0);
    expect(kai.memories.every((memory) => [null, 'mate-2'].includes(memory.mateId))).toBe(true);
    const added = await client.room.saveMemory({
      roomId: 'room-group',
      content: 'Kai owes Ada a bowl.',
      mateId: 'mate-2',
    });
    expect(added).toMatchObject({ mateId: 'mate-2', author: 'person' });
  });

  it('stream a chat reply word by word, ending with reply-end and done', async () => {
    server.use(
      mockChatStream({
        reply: 'Hello there, traveller.',
        delayMs: 1,
        baseUrl: 'http://mates.test/api',
      }),
    );
    const events: ChatStreamEvent[] = [];
    let done = false;
    await client.girl.chatSend(
      { roomId: 'room-9', content: 'Hi' },
      { onData: (event) => events.push(event), onDone: () => (done = true) },
    );
    expect(events[0]).toMatchObject({
      type: 'reply-start',
      roomId: 'room-9',
      userMessage: { content: 'Hi' },
    });
    const text = events.flatMap((e) => (e.type === 'reply-delta' ? [e.text] : [])).join('');
    expect(text).toBe('Hello there, traveller.');
    expect(events.at(-1)).toMatchObject({ type: 'reply-end', benefits: { chats: 19 } });
    expect(done).toBe(true);
  });

  it('stream an error event when asked to', async () => {
    server.use(mockChatStream({ reply: 'Half', errorMessage: 'Model crashed', delayMs: 1 }));
    const events: ChatStreamEvent[] = [];
    await client.girl.chatSend(
      { roomId: 'r', regenerate: true },
      { onData: (e) => events.push(e) },
    );
    expect(events.at(-1)).toEqual({
      type: 'error',
      message: 'Model crashed',
      messageId: 'msg-reply',
    });
  });

  it('let one call be overridden, answered with an error, or left loading', async () => {
    server.use(
      mockEndpoint('/mate/getMateDetail', ({ query }) =>
        createMateFixture({ name: `Custom ${query.mateId}` }),
      ),
    );
    expect((await client.mate.getMateDetail({ mateId: 'x' })).name).toBe('Custom x');

    server.use(mockEndpointError('/mate/hotWords', 5007, 'Search is resting'));
    await expect(client.mate.hotWords()).rejects.toThrow('Search is resting');

    server.use(mockEndpointLoading('/extra/tags'));
    const controller = new AbortController();
    const pending = client.extra.tags({ signal: controller.signal });
    const outcome = await Promise.race([
      pending.then(() => 'answered'),
      new Promise((r) => setTimeout(r, 50, 'waiting')),
    ]);
    expect(outcome).toBe('waiting');
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
