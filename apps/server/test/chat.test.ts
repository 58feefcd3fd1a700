import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ChatStreamEvent } from '@mates/api-client';
import { createEmbeddedModel } from '../src/llm/embedded';
import type { LanguageModel } from '../src/llm/language-model';
import {
  DIALECTS,
  TEST_GGUF,
  postgresAvailable,
  signUp,
  startTestServer,
  seededMate,
} from './harness';
import { silentLogger } from '../src/logging/logger';

const withPostgres = await postgresAvailable();
const haveModel = fs.existsSync(TEST_GGUF);
if (!haveModel)
  console.warn(
    `Embedded-model chat tests skipped: no model at ${TEST_GGUF} (set MATES_TEST_GGUF).`,
  );

type Server = Awaited<ReturnType<typeof startTestServer>>;

async function collect(
  client: ApiClient,
  payload: Parameters<ApiClient['girl']['chatSend']>[0],
  signal?: AbortSignal,
  onEvent?: (e: ChatStreamEvent) => void,
) {
  const events: ChatStreamEvent[] = [];
  let done = false;
  let failure: unknown = null;
  await client.girl
    .chatSend(payload, {
      signal,
      onData: (event) => (events.push(event), onEvent?.(event)),
      onDone: () => (done = true),
    })
    .catch((error: unknown) => (failure = error));
  const text = events.flatMap((e) => (e.type === 'reply-delta' ? [e.text] : [])).join('');
  return { events, done, failure, text };
}

describe.each(DIALECTS)('chat on %s with the embedded model', (dialect) => {
  const skip = !haveModel || (dialect === 'postgres' && !withPostgres);
  let server: Server;
  let model: LanguageModel & { ready: Promise<void> };
  beforeAll(async () => {
    if (skip) return;
    model = createEmbeddedModel({
      model: TEST_GGUF,
      modelsDir: '/tmp',
      threads: 1,
      contextSize: 512,
      parallel: 2,
      queue: 8,
      log: silentLogger(),
    });
    await model.ready;
    server = await startTestServer(dialect, { model, env: { LLM_MAX_TOKENS: '48' } });
  });
  afterAll(async () => {
    if (skip) return;
    await server.close();
    await model.close();
  });
  const lyraId = async () => (await seededMate(server.db, 'Lyra Moonwhisper')).id;
  const messagesOf = (roomId: string) =>
    server.db
      .selectFrom('messages')
      .selectAll()
      .where('room_id', '=', roomId)
      .orderBy('position')
      .execute();

  it.skipIf(skip)(
    'opens a room with the greeting, streams a reply, saves both, spends one chat',
    async () => {
      const { userInfo, client } = await signUp(server);
      await client.user.saveOrUpdatePersona({
        name: 'Captain',
        description: 'A tired starship captain.',
      });
      const room = await client.room.createRoom({ mateId: await lyraId() });
      const info = await client.room.roomInfo({ roomId: room.roomId });
      expect(info.messages).toHaveLength(1);
      expect(info.messages[0]).toMatchObject({ role: 'mate', status: 'complete' });
      expect(info.messages[0]!.content).toContain('Captain');
      expect(info.persona?.name).toBe('Captain');

      const { events, done, failure, text } = await collect(client, {
        roomId: room.roomId,
        content: 'Tell me a story.',
      });
      expect(failure).toBeNull();
      expect(done).toBe(true);
      expect(events[0]).toMatchObject({
        type: 'reply-start',
        roomId: room.roomId,
        userMessage: { role: 'user', content: 'Tell me a story.', status: 'complete' },
      });
      // Words close together go out as one delta: a fast model's may all be one or two.
      expect(events.filter((e) => e.type === 'reply-delta').length).toBeGreaterThan(0);
      const end = events.at(-1)!;
      expect(end).toMatchObject({
        type: 'reply-end',
        finishReason: expect.stringMatching(/stop|length/),
        benefits: { chats: 49, goldCoins: 20, userId: userInfo.uuid },
      });
      const saved = await messagesOf(room.roomId);
      expect(saved.map((m) => [m.role, m.status])).toEqual([
        ['mate', 'complete'],
        ['user', 'complete'],
        ['mate', 'complete'],
      ]);
      // What streamed, or, stopped at its length mid-sentence, as far as its last whole one.
      const kept = saved[2]!.content;
      if ((end as { finishReason: string }).finishReason === 'length' && kept !== text) {
        expect(text.startsWith(kept.replace(/\*$/u, ''))).toBe(true);
        // Its terminal mark, then what closes around it: a quote may be a curly one (".”").
        expect(kept).toMatch(/[\p{Sentence_Terminal}…][\p{Pe}\p{Pf}"'*_~]*$/u);
      } else expect(kept).toBe(text);
      expect(saved[2]!.id).toBe((end as { messageId: string }).messageId);
      const list = await client.room.roomList();
      expect(list.list[0]).toMatchObject({
        roomId: room.roomId,
        mate: { name: 'Lyra Moonwhisper' },
        lastMessage: { content: kept },
      });
    },
  );

  it.skipIf(skip)('keeps a reply cut off by an abort as partial, with what arrived', async () => {
    const { client } = await signUp(server);
    const room = await client.room.createRoom({ mateId: await lyraId() });
    const controller = new AbortController();
    // At the first words: words close together go out as one delta, so there may be few.
    const { events, failure, text } = await collect(
      client,
      { roomId: room.roomId, content: 'Once upon a time' },
      controller.signal,
      (event) => {
        if (event.type === 'reply-delta') controller.abort();
      },
    );
    expect((failure as Error).name).toBe('AbortError');
    expect(events.at(-1)!.type).toBe('reply-delta');
    // The server notices the closed connection, stops the model at its next word and saves what
    // it had written by then; on a loaded machine (CI runs every suite at once) that can take
    // more than a second, so the wait is for the chat to be free, not for a fixed time.
    await vi.waitFor(async () => expect(await server.deps.chat.isBusy(room.roomId)).toBe(false), {
      timeout: 15_000,
      interval: 20,
    });
    const reply = (await messagesOf(room.roomId)).at(-1)!;
    expect(reply.status).toBe('partial');
    expect(reply.content.startsWith(text)).toBe(true);
  });

  it.skipIf(skip)('queues chats beyond the parallel slots, and answers all of them', async () => {
    const users = await Promise.all([
      signUp(server),
      signUp(server),
      signUp(server),
      signUp(server),
    ]);
    const rooms = await Promise.all(
      users.map(async ({ client }) => client.room.createRoom({ mateId: await lyraId() })),
    );
    const results = await Promise.all(
      users.map(({ client }, index) =>
        collect(client, { roomId: rooms[index]!.roomId, content: 'Hello' }),
      ),
    );
    for (const result of results) {
      expect(result.failure).toBeNull();
      expect(result.events.at(-1)!.type).toBe('reply-end');
    }
  });

  it.skipIf(skip)(
    'refuses with 5007 and writes nothing when no chats are left, or the room is busy',
    async () => {
      const { userInfo, client } = await signUp(server);
      const room = await client.room.createRoom({ mateId: await lyraId() });
      await server.db
        .updateTable('benefits')
        .set({ chats: 0 })
        .where('user_id', '=', userInfo.uuid)
        .execute();
      await expect(
        collect(client, { roomId: room.roomId, content: 'Hi' }).then((r) => {
          throw r.failure;
        }),
      ).rejects.toMatchObject({
        code: 5007,
        message: 'You have no chats left. Get more on the subscription page.',
      });
      expect(await messagesOf(room.roomId)).toHaveLength(1);
      await server.db
        .updateTable('benefits')
        .set({ chats: 5 })
        .where('user_id', '=', userInfo.uuid)
        .execute();
      await server.deps.chat.begin(room.roomId);
      await expect(
        collect(client, { roomId: room.roomId, content: 'Hi' }).then((r) => {
          throw r.failure;
        }),
      ).rejects.toMatchObject({ code: 5007 });
      await server.deps.chat.end(room.roomId);
      expect(await messagesOf(room.roomId)).toHaveLength(1);
    },
  );

  it.skipIf(skip)('regenerates the last reply, and continues from an edited message', async () => {
    const { client } = await signUp(server);
    const room = await client.room.createRoom({ mateId: await lyraId() });
    await collect(client, { roomId: room.roomId, content: 'First question' });
    await collect(client, { roomId: room.roomId, content: 'Second question' });
    let saved = await messagesOf(room.roomId);
    expect(saved).toHaveLength(5);
    const { events } = await collect(client, { roomId: room.roomId, regenerate: true });
    expect(events[0]).toMatchObject({ type: 'reply-start', userMessage: null });
    saved = await messagesOf(room.roomId);
    expect(saved).toHaveLength(5);
    expect(saved[4]!.id).toBe((events[0] as { messageId: string }).messageId);

    const first = saved[1]!;
    const edited = await client.room.editMessage({
      roomId: room.roomId,
      messageId: first.id,
      content: 'A better first question',
    });
    expect(edited).toMatchObject({
      content: 'A better first question',
      editedAt: expect.any(String),
    });
    await collect(client, {
      roomId: room.roomId,
      regenerate: true,
      fromMessageId: first.id,
    } as never);
    saved = await messagesOf(room.roomId);
    expect(saved.map((m) => m.role)).toEqual(['mate', 'user', 'mate']);
    expect(saved[1]!.content).toBe('A better first question');
  });

  it.skipIf(skip)('keeps rooms and messages to their owner', async () => {
    const owner = await signUp(server);
    const other = await signUp(server);
    const room = await owner.client.room.createRoom({ mateId: await lyraId() });
    const [greeting] = await messagesOf(room.roomId);
    const attempts = [
      () => other.client.room.roomInfo({ roomId: room.roomId }),
      () =>
        other.client.room.editMessage({
          roomId: room.roomId,
          messageId: greeting!.id,
          content: 'hijacked',
        }),
      () => other.client.room.deleteMessage({ roomId: room.roomId, messageId: greeting!.id }),
      () => other.client.room.deleteRoom({ roomId: room.roomId }),
      () =>
        collect(other.client, { roomId: room.roomId, content: 'hi' }).then((r) => {
          throw r.failure;
        }),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toMatchObject({ code: 4004 });
    expect((await other.client.room.roomList()).total).toBe(0);
    expect(await messagesOf(room.roomId)).toEqual([greeting]);

    await owner.client.room.deleteMessage({ roomId: room.roomId, messageId: greeting!.id });
    expect(await messagesOf(room.roomId)).toEqual([]);
    await owner.client.room.deleteRoom({ roomId: room.roomId });
    await expect(owner.client.room.roomInfo({ roomId: room.roomId })).rejects.toMatchObject({
      code: 4004,
    });
  });
});
