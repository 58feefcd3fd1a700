import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, ChatStreamEvent } from '@mates/api-client';
import { startOnOpenAiDouble } from './openai-server';
import { signUp, type startTestServer, seededMate } from './harness';
import type { startOpenAiDouble } from './openai-double';

async function send(
  client: ApiClient,
  roomId: string,
  content: string,
  onEvent?: (event: ChatStreamEvent) => void,
) {
  const events: ChatStreamEvent[] = [];
  await client.girl.chatSend(
    { roomId, content },
    { onData: (event) => (events.push(event), onEvent?.(event)) },
  );
  return events;
}

describe('chat through an OpenAI-compatible provider', () => {
  let double: Awaited<ReturnType<typeof startOpenAiDouble>>;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ double, server, close } = await startOnOpenAiDouble());
  });
  afterAll(() => close());
  const newRoom = async () => {
    const user = await signUp(server);
    const mate = await seededMate(server.db, 'Kai Tanaka');
    return { ...user, room: await user.client.room.createRoom({ mateId: mate.id }) };
  };
  const reply = async (roomId: string) =>
    await server.db
      .selectFrom('messages')
      .selectAll()
      .where('room_id', '=', roomId)
      .orderBy('position', 'desc')
      .executeTakeFirstOrThrow();

  it('streams the reply, sending the prompt, the key and the language instruction', async () => {
    const { client, room } = await newRoom();
    double.next({ kind: 'stream', pieces: ['*Kai', ' smiles*', ' Hola.'] });
    const events = await send(client, room.roomId, 'Hola, ¿qué tal?');
    // Pieces that arrive together go out as one delta.
    expect(
      events
        .filter((e) => e.type === 'reply-delta')
        .map((e) => (e as { text: string }).text)
        .join(''),
    ).toBe('*Kai smiles* Hola.');
    expect(events.at(-1)).toMatchObject({
      type: 'reply-end',
      usage: { promptTokens: 42, completionTokens: 3 },
    });
    const request = double.requests.at(-1)!;
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(request.body).toMatchObject({ model: 'mate-model', stream: true, max_tokens: 320 });
    const messages = request.body.messages as { role: string; content: string }[];
    expect(messages[0]!.role).toBe('system');
    expect(messages[0]!.content).toContain('You are Kai Tanaka');
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'Hola, ¿qué tal?' });
    expect(messages.at(-2)!.role).toBe('assistant');
    expect(await reply(room.roomId)).toMatchObject({
      content: '*Kai smiles* Hola.',
      status: 'complete',
    });
  });

  it("ends a reply where the model starts writing the person's next line", async () => {
    const { client, room } = await newRoom();
    await client.user.updateNickname({ nickname: 'Ada' });
    // A small model going on past its turn: it writes what Ada says next, then answers it.
    double.next({
      kind: 'stream',
      pieces: ['*Kai smiles.* Fine, ', 'thanks.', '\nAda:', ' And you?', '\nKai: Great.'],
    });
    const events = await send(client, room.roomId, 'How are you?');
    const body = double.requests.at(-1)!.body;
    // Asked of the provider itself: its own stop sequences (OpenAI's `stop`).
    expect(body.stop).toEqual(['\nAda:']);
    const text = events
      .filter((event) => event.type === 'reply-delta')
      .map((event) => (event as { text: string }).text)
      .join('');
    expect(text).toBe('*Kai smiles.* Fine, thanks.');
    expect(await reply(room.roomId)).toMatchObject({
      content: '*Kai smiles.* Fine, thanks.',
      status: 'complete',
    });
  });

  it('keeps a reply cut off by its length as far as its last whole sentence', async () => {
    const { client, room } = await newRoom();
    double.next({
      kind: 'stream',
      pieces: ['*Kai smiles.* It was a long day. ', 'We walked to the', ' harbour and'],
      finishReason: 'length',
    });
    const events = await send(client, room.roomId, 'Tell me about your day');
    expect(events.at(-1)).toMatchObject({ type: 'reply-end', finishReason: 'length' });
    expect(await reply(room.roomId)).toMatchObject({
      content: '*Kai smiles.* It was a long day.',
      status: 'complete',
    });
  });

  it("reads a reply that opens with the mate's own name without it", async () => {
    const { client, room } = await newRoom();
    double.next({ kind: 'stream', pieces: ['Kai', ' Tanaka:', ' *waves* Hi!'] });
    const events = await send(client, room.roomId, 'Hello');
    const text = events
      .filter((event) => event.type === 'reply-delta')
      .map((event) => (event as { text: string }).text)
      .join('');
    expect(text).toBe('*waves* Hi!');
    expect(await reply(room.roomId)).toMatchObject({ content: '*waves* Hi!', status: 'complete' });
  });

  it('shows the reply growing to a reload during generation', async () => {
    const { client, room } = await newRoom();
    double.next({
      kind: 'stream',
      pieces: Array.from({ length: 12 }, (_, i) => `word${i} `),
      delayMs: 200,
    });
    let seenMidway: { status: string; content: string } | null = null;
    await send(client, room.roomId, 'Talk slowly', (event) => {
      if (event.type === 'reply-delta' && event.text === 'word9 ') {
        void client.room
          .roomInfo({ roomId: room.roomId })
          .then((info) => (seenMidway = info.messages.at(-1)!));
      }
    });
    expect(seenMidway).toMatchObject({ status: 'partial' });
    expect(seenMidway!.content).toMatch(/^word0 word1 word2 /);
    expect((await reply(room.roomId)).status).toBe('complete');
  });

  it('turns a provider that dies mid-reply into an error event and a partial message', async () => {
    const { client, room } = await newRoom();
    double.next({ kind: 'cut', pieces: ['Half', ' a'] });
    const events = await send(client, room.roomId, 'Hello');
    expect(events.at(-1)).toMatchObject({
      type: 'error',
      message: 'The reply stopped before it was finished. What arrived is kept.',
    });
    expect(await reply(room.roomId)).toMatchObject({ content: 'Half a', status: 'partial' });
  });

  it('turns a 429 into a clear error, marks the reply failed and gives the chat back', async () => {
    const { userInfo, client, room } = await newRoom();
    double.next({
      kind: 'status',
      status: 429,
      body: { error: { message: 'Rate limit reached', type: 'requests' } },
    });
    const events = await send(client, room.roomId, 'Hello');
    expect(events.map((e) => e.type)).toEqual(['reply-start', 'error']);
    expect(events[1]).toMatchObject({
      message: 'The model is busy. Please try again in a moment.',
      messageId: null,
    });
    expect(await reply(room.roomId)).toMatchObject({ content: '', status: 'error' });
    expect(await client.user.benefits()).toEqual({
      chats: 50,
      goldCoins: 20,
      userId: userInfo.uuid,
    });
    // Retrying works once the provider recovers.
    double.next({ kind: 'stream', pieces: ['Back.'] });
    const retry = await client.girl
      .chatSend({ roomId: room.roomId, regenerate: true }, { onData: () => {} })
      .then(() => reply(room.roomId));
    expect(retry).toMatchObject({ content: 'Back.', status: 'complete' });
  });
});

describe('chat through a reasoning model (o-series, GPT-5)', () => {
  let double: Awaited<ReturnType<typeof startOpenAiDouble>>;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ double, server, close } = await startOnOpenAiDouble({}, { reasoning: true }));
  });
  afterAll(() => close());

  it('asks again without what the model refuses, and from then on asks without it', async () => {
    const { client } = await signUp(server);
    const mate = await seededMate(server.db, 'Kai Tanaka');
    const room = await client.room.createRoom({ mateId: mate.id });
    double.next({ kind: 'stream', pieces: ['*Kai', ' smiles* Hi.'] });
    const events = await send(client, room.roomId, 'Hello');
    expect(events.at(-1)).toMatchObject({ type: 'reply-end' });
    const text = events
      .filter((event) => event.type === 'reply-delta')
      .map((event) => (event as { text: string }).text)
      .join('');
    expect(text).toBe('*Kai smiles* Hi.');
    // One refusal at a time, as OpenAI answers them; the reply's length goes as the model takes it.
    const asked = double.requests.map((request) => request.body);
    expect(asked).toHaveLength(4);
    expect(asked.at(-1)).toMatchObject({ max_completion_tokens: 320 });
    expect(asked.at(-1)).not.toHaveProperty('max_tokens');
    expect(asked.at(-1)).not.toHaveProperty('stop');
    expect(asked.at(-1)).not.toHaveProperty('temperature');
    // Learned once for the model: the next reply is asked for in one request.
    double.next({ kind: 'stream', pieces: ['Again.'] });
    await send(client, room.roomId, 'And again');
    expect(double.requests).toHaveLength(5);
  });

  it("ends the reply where the model starts writing the person's next line, without `stop`", async () => {
    const { client } = await signUp(server);
    await client.user.updateNickname({ nickname: 'Ada' });
    const mate = await seededMate(server.db, 'Kai Tanaka');
    const room = await client.room.createRoom({ mateId: mate.id });
    double.next({
      kind: 'stream',
      pieces: ['*Kai smiles.* Fine, ', 'thanks.', '\nAda:', ' And you?', '\nKai: Great.'],
    });
    const events = await send(client, room.roomId, 'How are you?');
    expect(double.requests.at(-1)!.body).not.toHaveProperty('stop');
    const text = events
      .filter((event) => event.type === 'reply-delta')
      .map((event) => (event as { text: string }).text)
      .join('');
    expect(text).toBe('*Kai smiles.* Fine, thanks.');
    expect(events.at(-1)).toMatchObject({ type: 'reply-end' });
    const saved = await server.db
      .selectFrom('messages')
      .select(['content', 'status'])
      .where('room_id', '=', room.roomId)
      .orderBy('position', 'desc')
      .executeTakeFirstOrThrow();
    expect(saved).toEqual({ content: '*Kai smiles.* Fine, thanks.', status: 'complete' });
  });
});
