import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import type { ApiClient, ChatStreamEvent } from '@mates/api-client';
import { startOnOpenAiDouble } from './openai-server';
import type { ChatTurn, LanguageModel } from '../src/llm/language-model';
import { fillMacros } from '../src/chat/prompt';
import {
  DIALECTS,
  mateRow,
  postgresAvailable,
  signUp,
  startTestServer,
  unconfiguredModel,
  seededMate,
} from './harness';
import type { startOpenAiDouble } from './openai-double';
import { captureLog } from './log-capture';

// Faults in the chat path found from outside (issue #12): each test reproduces one.
const withPostgres = await postgresAvailable();
type Server = Awaited<ReturnType<typeof startTestServer>>;

async function send(
  client: ApiClient,
  payload: Parameters<ApiClient['girl']['chatSend']>[0],
  onEvent?: (event: ChatStreamEvent) => void,
) {
  const events: ChatStreamEvent[] = [];
  await client.girl.chatSend(payload, {
    onData: (event) => (events.push(event), onEvent?.(event)),
  });
  return events;
}

const lastMessage = (server: Server, roomId: string) =>
  server.db
    .selectFrom('messages')
    .selectAll()
    .where('room_id', '=', roomId)
    .orderBy('position', 'desc')
    .executeTakeFirstOrThrow();

async function newRoom(server: Server, mateName = 'Kai Tanaka') {
  const user = await signUp(server);
  const mate = await seededMate(server.db, mateName);
  return { ...user, room: await user.client.room.createRoom({ mateId: mate.id }) };
}

// Errors nobody handled: any of these during a test means the process would have died.
const unhandled: unknown[] = [];
const onUnhandled = (error: unknown) => unhandled.push(error);
beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});
afterEach(() => {
  expect(unhandled).toEqual([]);
});

/** A model the test scripts: what it writes, and hooks into how it is called. */
function scriptedModel(script: {
  pieces: string[];
  delayMs?: number;
  countTokens?: (text: string) => number;
}): LanguageModel & { prompts: ChatTurn[][] } {
  const prompts: ChatTurn[][] = [];
  return {
    ...unconfiguredModel(),
    unavailableReason: () => null,
    prompts,
    countTokens: script.countTokens ?? ((text) => Math.ceil(text.length / 4)),
    async generate(turns, options, onText) {
      prompts.push(turns);
      for (const piece of script.pieces) {
        if (options.signal.aborted) break;
        await new Promise((resolve) => setTimeout(resolve, script.delayMs ?? 0));
        onText(piece);
      }
      return { finishReason: 'stop', promptTokens: 1, completionTokens: script.pieces.length };
    },
  };
}

describe('macros fill in names literally', () => {
  it("keeps $' $& $1 in a name as written", () => {
    expect(fillMacros('{{char}} meets {{user}}.', { char: "$'$&$1", user: '$`' })).toBe(
      "$'$&$1 meets $`.",
    );
  });
});

describe.each(DIALECTS)('the chat path on %s, when things go wrong', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let server: Server;
  let model: ReturnType<typeof scriptedModel>;
  beforeAll(async () => {
    if (skip) return;
    model = scriptedModel({ pieces: ['Hello', ' there', '.'] });
    server = await startTestServer(dialect, { model });
  });
  afterAll(async () => {
    if (!skip) await server.close();
  });

  it.skipIf(skip)(
    "chats with a mate whose name is $' repeated, its macros filled literally",
    async () => {
      const { userInfo, client } = await signUp(server);
      const name = "$'".repeat(50);
      const mate = mateRow(userInfo.uuid, {
        name,
        system_prompt: `You are {{char}}. ${'{{char}} '.repeat(2750)}`,
        first_mes: 'Hi {{user}}, I am {{char}}.',
      });
      await server.db.insertInto('mates').values(mate).execute();
      const room = await client.room.createRoom({ mateId: mate.id });
      const events = await send(client, { roomId: room.roomId, content: 'Hi' });
      expect(events.at(-1)).toMatchObject({ type: 'reply-end' });
      const system = model.prompts.at(-1)![0]!.content;
      expect(system.startsWith(`You are ${name}. ${name} `)).toBe(true);
      expect(await server.deps.chat.isBusy(room.roomId)).toBe(false);
    },
  );

  it.skipIf(skip)(
    'ends a streamed reply without the HTTP adapter writing a second answer',
    async () => {
      const { client, room } = await newRoom(server);
      const errors: unknown[] = [];
      const spy = vi.spyOn(console, 'error').mockImplementation((...args) => errors.push(args));
      try {
        const events = await send(client, { roomId: room.roomId, content: 'Hi' });
        expect(events.at(-1)).toMatchObject({ type: 'reply-end' });
        await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        spy.mockRestore();
      }
      expect(errors.map(String).join('\n')).not.toContain('Cannot write headers');
      expect(errors).toEqual([]);
    },
  );

  it.skipIf(skip)(
    'frees the room, fails the reply and gives the chat back when building the prompt throws',
    async () => {
      const { userInfo, client, room } = await newRoom(server);
      const countTokens = model.countTokens;
      model.countTokens = () => {
        throw new Error('tokenizer exploded');
      };
      const events = await send(client, { roomId: room.roomId, content: 'Hi' }).finally(
        () => (model.countTokens = countTokens),
      );
      expect(events.map((event) => event.type)).toEqual(['reply-start', 'error']);
      expect(events[1]).toMatchObject({ messageId: null });
      expect(await server.deps.chat.isBusy(room.roomId)).toBe(false);
      expect(await lastMessage(server, room.roomId)).toMatchObject({
        role: 'mate',
        status: 'error',
      });
      expect(await client.user.benefits()).toEqual({
        chats: 50,
        goldCoins: 20,
        userId: userInfo.uuid,
      });
      expect(server.logs.join('\n')).toContain('tokenizer exploded');
    },
  );

  it.skipIf(skip)(
    'ends the stream with an error event when saving the growing reply fails (disk full)',
    async () => {
      const slow = scriptedModel({ pieces: ['The disk', ' is full', ' now', '.'], delayMs: 150 });
      const full = await startTestServer(dialect, { model: slow, saveEveryMs: 100 });
      try {
        const { client, room } = await newRoom(full);
        // The database refuses to store the reply once it holds "full", as a full disk would.
        if (dialect === 'sqlite') {
          await sql`create trigger disk_full before update on messages when new.content like '%full%'
            begin select raise(fail, 'database or disk is full'); end`.execute(full.db);
        } else {
          await sql`create function disk_full() returns trigger language plpgsql as $$
            begin if new.content like '%full%' then raise exception 'could not extend file: No space left on device'; end if; return new; end $$`.execute(
            full.db,
          );
          await sql`create trigger disk_full before update on messages for each row execute function disk_full()`.execute(
            full.db,
          );
        }
        const events = await send(client, { roomId: room.roomId, content: 'Hi' });
        expect(events.at(-1)).toMatchObject({ type: 'error' });
        expect(full.logs.join('\n')).toMatch(/disk is full|No space left/);
        expect(await full.deps.chat.isBusy(room.roomId)).toBe(false);
        await sql`drop trigger disk_full${sql.raw(dialect === 'postgres' ? ' on messages' : '')}`.execute(
          full.db,
        );
        // The process lives and the room answers again.
        const again = await send(client, { roomId: room.roomId, content: 'Still there?' });
        expect(again.at(-1)).toMatchObject({ type: 'reply-end' });
      } finally {
        await full.close();
      }
    },
  );

  // Found by an outside review: blank lines saved while a reply grew were kept if the server
  // then died, and the sweep, which gives back the chat of a reply left with no text, found text.
  it.skipIf(skip)('saves nothing of a growing reply while it is only blank lines', async () => {
    const slow = scriptedModel({ pieces: ['\n', '\n', '\n', '\n', 'Hello.'], delayMs: 150 });
    const server = await startTestServer(dialect, { model: slow, saveEveryMs: 100 });
    try {
      const { client, room } = await newRoom(server);
      const stored: Promise<string>[] = [];
      let blanks = 0;
      await send(client, { roomId: room.roomId, content: 'Hi' }, (event) => {
        // After the third blank line handed on (a line break waits for what follows it, which
        // could be the person's name), a save of the reply so far would have been made.
        if (event.type === 'reply-delta' && !event.text.trim() && ++blanks === 3)
          stored.push(
            new Promise((resolve) => setTimeout(resolve, 60)).then(
              async () => (await lastMessage(server, room.roomId)).content,
            ),
          );
      });
      expect(await Promise.all(stored)).toEqual(['']);
      expect(await lastMessage(server, room.roomId)).toMatchObject({
        content: '\n\n\n\nHello.',
        status: 'complete',
      });
    } finally {
      await server.close();
    }
  });

  it.skipIf(skip)(
    'makes a room read-only, without private card fields, once its mate turns private',
    async () => {
      const creator = await signUp(server);
      const mate = mateRow(creator.userInfo.uuid, {
        name: 'Soon Private',
        system_prompt: 'SECRET SYSTEM PROMPT',
        description: 'SECRET DESCRIPTION',
      });
      await server.db.insertInto('mates').values(mate).execute();
      const other = await signUp(server);
      const room = await other.client.room.createRoom({ mateId: mate.id });
      await server.db
        .updateTable('mates')
        .set({ visibility: 'private' })
        .where('id', '=', mate.id)
        .execute();

      const info = await other.client.room.roomInfo({ roomId: room.roomId });
      expect(JSON.stringify(info)).not.toContain('SECRET');
      expect(info.mate.name).toBe('Soon Private');
      expect(info.readOnly).toBe(
        'This mate is no longer available. You can read this chat, but not continue it.',
      );
      expect(info.messages).toHaveLength(1);
      await expect(
        send(other.client, { roomId: room.roomId, content: 'Hello?' }),
      ).rejects.toMatchObject({
        code: 5007,
        message: 'This mate is no longer available. You can read this chat, but not continue it.',
      });
      expect((await other.client.user.benefits()).chats).toBe(50);
      // Its owner still sees everything.
      const own = await creator.client.room.createRoom({ mateId: mate.id });
      const ownInfo = await creator.client.room.roomInfo({ roomId: own.roomId });
      expect(ownInfo.readOnly).toBeNull();
      expect(ownInfo.mate.system_prompt).toBe('SECRET SYSTEM PROMPT');
    },
  );
});

describe('an OpenAI-compatible provider that misbehaves', () => {
  let double: Awaited<ReturnType<typeof startOpenAiDouble>>;
  let server: Server;
  let close: () => Promise<void>;
  // What the provider's reader logs.
  const modelLog = captureLog('warn');
  beforeAll(async () => {
    ({ double, server, close } = await startOnOpenAiDouble({ log: modelLog.logger }));
  });
  afterAll(() => close());

  const expectRefunded = async (client: ApiClient) =>
    expect((await client.user.benefits()).chats).toBe(50);

  it('fails and refunds a 200 whose body is an HTML page, with messageId null', async () => {
    const { client, room } = await newRoom(server);
    double.next({ kind: 'raw', contentType: 'text/html', body: '<html><body>nginx</body></html>' });
    const events = await send(client, { roomId: room.roomId, content: 'Hi' });
    expect(events.at(-1)).toMatchObject({ type: 'error', messageId: null });
    expect(JSON.stringify(events)).not.toContain('nginx');
    expect(await lastMessage(server, room.roomId)).toMatchObject({ content: '', status: 'error' });
    await expectRefunded(client);
  });

  it('reads a non-streamed JSON completion as the reply', async () => {
    const { client, room } = await newRoom(server);
    double.next({
      kind: 'raw',
      contentType: 'application/json',
      body: JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: 'Whole answer.' },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
      }),
    });
    const events = await send(client, { roomId: room.roomId, content: 'Hi' });
    expect(events.at(-1)).toMatchObject({ type: 'reply-end', usage: { completionTokens: 3 } });
    expect(await lastMessage(server, room.roomId)).toMatchObject({
      content: 'Whole answer.',
      status: 'complete',
    });
  });

  it('fails and refunds a stream that holds only [DONE]', async () => {
    const { client, room } = await newRoom(server);
    double.next({ kind: 'raw', contentType: 'text/event-stream', body: 'data: [DONE]\n\n' });
    const events = await send(client, { roomId: room.roomId, content: 'Hi' });
    expect(events.at(-1)).toMatchObject({ type: 'error', messageId: null });
    expect(await lastMessage(server, room.roomId)).toMatchObject({ status: 'error' });
    await expectRefunded(client);
  });

  // Found by an outside review: a model that answered only blank lines ended "whole", the
  // person charged for an empty bubble, though the prompt and the versions take it for none.
  it('fails and refunds a reply of blank lines only, as one with no words', async () => {
    const { client, room } = await newRoom(server);
    double.next({ kind: 'stream', pieces: ['\n', '\n  ', '\n'] });
    const events = await send(client, { roomId: room.roomId, content: 'Hi' });
    expect(events.at(-1)).toMatchObject({ type: 'error', messageId: null });
    expect(await lastMessage(server, room.roomId)).toMatchObject({ content: '', status: 'error' });
    await expectRefunded(client);
  });

  it('keeps a stream closed cleanly without [DONE] or finish_reason as partial', async () => {
    const { client, room } = await newRoom(server);
    double.next({ kind: 'closed', pieces: ['Half', ' of it'] });
    const events = await send(client, { roomId: room.roomId, content: 'Hi' });
    const reply = await lastMessage(server, room.roomId);
    expect(reply).toMatchObject({ content: 'Half of it', status: 'partial' });
    expect(events.at(-1)).toMatchObject({ type: 'error', messageId: reply.id });
  });

  it('keeps the words read with an error mid-stream as partial, all in one piece of the stream', async () => {
    const { client, room } = await newRoom(server);
    const chunk = (body: object) => `data: ${JSON.stringify(body)}\n\n`;
    const words = (content: string) => chunk({ choices: [{ index: 0, delta: { content } }] });
    // One write: the words and the error reach the server together.
    double.next({
      kind: 'raw',
      contentType: 'text/event-stream',
      body: words('Half') + words(' of it') + chunk({ error: { message: 'overloaded' } }),
    });
    const events = await send(client, { roomId: room.roomId, content: 'Hi' });
    const reply = await lastMessage(server, room.roomId);
    expect(reply).toMatchObject({ content: 'Half of it', status: 'partial' });
    expect(events.at(-1)).toMatchObject({ type: 'error', messageId: reply.id });
    expect(JSON.stringify(events)).not.toContain('overloaded');
  });

  it('keeps the good text of a stream with malformed lines, skipping and logging them', async () => {
    // Issue #36: one line that was not JSON threw the whole reply away and refunded it.
    const { client, room } = await newRoom(server);
    const chunk = (body: object) => `data: ${JSON.stringify(body)}\n\n`;
    const words = (content: unknown) => chunk({ choices: [{ index: 0, delta: { content } }] });
    double.next({
      kind: 'raw',
      contentType: 'text/event-stream',
      body:
        words('Good') +
        'data: {"choices":[{"delta":{"content":"cut of\n\n' +
        words(' text') +
        'data: <html>502 Bad Gateway</html>\n\n' +
        words(42) +
        words(' kept.') +
        chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) +
        'data: [DONE]\n\n',
    });
    const events = await send(client, { roomId: room.roomId, content: 'Hi' });
    const reply = await lastMessage(server, room.roomId);
    expect(reply).toMatchObject({ content: 'Good text kept.', status: 'complete' });
    expect(events.at(-1)).toMatchObject({ type: 'reply-end', messageId: reply.id });
    // Paid for: the reply arrived.
    expect((await client.user.benefits()).chats).toBe(49);
    expect(modelLog.lines).toContainEqual(
      expect.stringMatching(/^The model provider sent 3 malformed lines, skipped: .*cut of/),
    );
  });

  it("tells people a plain sentence in their language; the provider's detail goes to the log", async () => {
    const { userInfo, room } = await newRoom(server);
    const spanish = server.client({ token: userInfo.token, language: 'es' });
    double.next({
      kind: 'status',
      status: 502,
      body: '<html><head><title>502 Bad Gateway</title></head><body>nginx upstream llm-7.internal</body></html>',
    });
    const events = await send(spanish, { roomId: room.roomId, content: 'Hola' });
    const error = events.at(-1) as { type: string; message: string };
    expect(error.type).toBe('error');
    expect(error.message).toBe(
      'El modelo no pudo responder ahora. Inténtalo de nuevo en un momento.',
    );
    double.next({ kind: 'status', status: 401, body: { error: { message: 'bad key' } } });
    const english = await send(server.client({ token: userInfo.token }), {
      roomId: room.roomId,
      regenerate: true,
    });
    expect((english.at(-1) as { message: string }).message).toBe(
      'The model could not answer right now. Please try again in a moment.',
    );
    // Ids are random hex, so only what people read is searched for the provider's detail.
    const said = [events, english].map((stream) => (stream.at(-1) as { message: string }).message);
    expect(said.join(' ')).not.toMatch(/nginx|internal|LLM_API_KEY|502|401/);
    expect(server.logs.join('\n')).toContain('llm-7.internal');
  });

  it("keeps the provider's detail out of inspiration's refusal too", async () => {
    const { userInfo, room } = await newRoom(server);
    const spanish = server.client({ token: userInfo.token, language: 'es' });
    double.next({ kind: 'status', status: 503, body: '<html>upstream llm-9.internal down</html>' });
    await expect(spanish.girl.chatGetInspiration({ roomId: room.roomId })).rejects.toMatchObject({
      code: 5007,
      message: 'El modelo no pudo responder ahora. Inténtalo de nuevo en un momento.',
    });
    expect(server.logs.join('\n')).toContain('llm-9.internal');
  });
});

describe('an OpenAI-compatible provider that goes silent', () => {
  let double: Awaited<ReturnType<typeof startOpenAiDouble>>;
  let server: Server;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ double, server, close } = await startOnOpenAiDouble({
      connectTimeoutMs: 1000,
      idleTimeoutMs: 1000,
    }));
  });
  afterAll(() => close());
  const expectRefunded = async (client: ApiClient) =>
    expect((await client.user.benefits()).chats).toBe(50);

  it('times out a provider that never answers: the room is freed and the chat refunded', async () => {
    const { client, room } = await newRoom(server);
    double.next({ kind: 'hang' });
    const events = await send(client, { roomId: room.roomId, content: 'Hi' });
    expect(events.at(-1)).toMatchObject({ type: 'error', messageId: null });
    expect(await server.deps.chat.isBusy(room.roomId)).toBe(false);
    await expectRefunded(client);
  });

  it('gives the chat back when the room is deleted before the first word', async () => {
    const { client, room } = await newRoom(server);
    double.next({ kind: 'hang' });
    let started!: () => void;
    const replyStarted = new Promise<void>((resolve) => (started = resolve));
    const sending = send(client, { roomId: room.roomId, content: 'Hi' }, (event) => {
      if (event.type === 'reply-start') started();
    });
    await replyStarted;
    await client.room.deleteRoom({ roomId: room.roomId });
    await sending;
    await expectRefunded(client);
  });

  it('times out a provider that goes silent mid-reply, keeping what arrived', async () => {
    const { client, room } = await newRoom(server);
    double.next({ kind: 'stall', pieces: ['Still', ' here'] });
    const events = await send(client, { roomId: room.roomId, content: 'Hi' });
    expect(events.at(-1)).toMatchObject({ type: 'error' });
    expect(await lastMessage(server, room.roomId)).toMatchObject({
      content: 'Still here',
      status: 'partial',
    });
    expect(await server.deps.chat.isBusy(room.roomId)).toBe(false);
  });
});
