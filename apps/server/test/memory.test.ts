import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiError, MEMORIES_PER_ROOM_MAX } from '@mates/api-client';
import { chattableMateId, DIALECTS, postgresAvailable, signUp } from './harness';
import { appendMessages } from '../src/chat/messages';
import { writeMemories } from '../src/chat/memory-writer';
import {
  MEMORY_ASK,
  memoryRun,
  memoryServer,
  rememberEveryLine,
  writerDeps,
  type Turn,
} from './memory-helpers';

// What a mate remembers (#39): memories written in the background from the messages that left
// a small prompt, once per window; edited by the person; kept honest when messages change.
const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('memory on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  // A small context: a few turns fit beside the card, so turns soon leave the prompt.
  const suite = memoryServer(dialect, { skip, contextSize: 700 });

  async function chatRoom(nickname = 'Ada') {
    const user = await signUp(suite.server);
    await user.client.user.updateNickname({ nickname });
    const mateId = await chattableMateId(suite.server.db);
    const room = await user.client.room.createRoom({ mateId });
    const send = async (content: string) => {
      await user.client.girl.chatSend({ roomId: room.roomId, content }, { onData: () => {} });
    };
    return { ...user, mateId, roomId: room.roomId, send };
  }

  /** What the model was asked for the last reply (not the memory writer's asks). */
  const lastReplyPrompt = () => suite.lastReplyPrompt();

  const memoryAsks = () =>
    suite.double.requests.filter((request) =>
      (request.body.messages as Turn[])[0]!.content.startsWith(MEMORY_ASK),
    ).length;

  /** Waits until the room's writer is idle with at least `facts` facts. */
  async function remembered(
    client: Awaited<ReturnType<typeof chatRoom>>['client'],
    roomId: string,
    facts: number,
  ) {
    for (let tries = 0; tries < 200; tries += 1) {
      const memories = await client.room.memories({ roomId });
      const count = memories.memories.filter((memory) => memory.kind === 'fact').length;
      if (memories.writer.state === 'idle' && count >= facts) return memories;
      if (memories.writer.state === 'failed') throw new Error(memories.writer.error ?? 'failed');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const state = await client.room.memories({ roomId });
    throw new Error(
      `the room never remembered ${facts} facts: ${JSON.stringify(state)} ${suite.server.logs.join('\n').slice(-3000)}`,
    );
  }

  it.skipIf(skip)(
    'remembers what left the prompt once, and the next prompt holds it',
    async () => {
      const { client, roomId, send } = await chatRoom();
      const asksBefore = memoryAsks();
      await send('My sister is called Ana and she sails.');
      for (let turn = 1; turn < 14; turn += 1)
        await send(
          `Small talk number ${turn}: the weather, the tea, the neighbours, nothing more.`,
        );
      // The sister left the prompt long ago.
      const memories = await remembered(client, roomId, 3);
      const facts = memories.memories.filter((memory) => memory.kind === 'fact');
      const sister = facts.find((fact) => fact.content.includes('sister is called Ana'))!;
      expect(sister).toMatchObject({ author: 'mate', about: 'person', needsReview: false });
      // It links to the message it came from.
      const info = await client.room.roomInfo({ roomId });
      const source = info.messages.find(
        (message) => message.messageId === sister.sourceMessageIds[0],
      );
      expect(source?.content).toBe('My sister is called Ana and she sails.');
      // Every line remembered once: no fact twice, whatever the number of sends that asked.
      expect(new Set(facts.map((fact) => fact.content)).size).toBe(facts.length);
      const summary = memories.memories[0]!;
      expect(summary.kind).toBe('summary');
      expect(memoryAsks() - asksBefore).toBeGreaterThan(0);

      await send('Do you remember my sister?');
      const prompt = lastReplyPrompt();
      // Of the room's many facts, not all fit its small context: those recalled for the message
      // come after it (the last turn, before the reply), the most relevant first…
      expect(prompt[0]).not.toContain('sister');
      expect(prompt.at(-1)).toContain('also remembers:\n- My sister is called Ana and she sails.');
      // …through memory: the message itself is no longer in the history.
      expect(prompt.slice(1, -1)).not.toContain('My sister is called Ana and she sails.');
      expect(prompt[0]).toMatch(/The story so far:\n\d+ lines seen/);

      // What the mate saw, part by part.
      const view = await client.room.promptView({ roomId });
      expect(view.rebuilt).toBe(false);
      // In the order the model read them: the facts recalled after the history.
      expect(
        view.parts
          .map((part) => part.kind)
          .filter((kind) => ['character', 'summary', 'recalled', 'history'].includes(kind)),
      ).toEqual(['character', 'summary', 'history', 'recalled']);
      expect(view.parts.find((part) => part.kind === 'recalled')!.text).toContain(
        'sister is called Ana',
      );
      expect(view.totalTokens).toBe(view.parts.reduce((sum, part) => sum + part.tokens, 0));
      expect(view.totalTokens).toBeLessThanOrEqual(view.contextTokens - view.replyTokens);
      expect(view.leftOut).toBeGreaterThan(10);
    },
    60_000,
  );

  it.skipIf(skip)(
    'marks a memory for review when its message is edited or deleted',
    async () => {
      const { client, roomId, send } = await chatRoom();
      await send('I was born in Lisbon.');
      await send('I hate the smell of fish.');
      for (let turn = 1; turn < 10; turn += 1)
        await send(`Filler line ${turn}: the weather, the tea, the neighbours, nothing more.`);
      const before = await remembered(client, roomId, 2);
      const lisbon = before.memories.find((memory) => memory.content === 'I was born in Lisbon.')!;
      const fish = before.memories.find(
        (memory) => memory.content === 'I hate the smell of fish.',
      )!;
      const summaryBefore = before.memories.find((memory) => memory.kind === 'summary')!;

      await client.room.editMessage({
        roomId,
        messageId: lisbon.sourceMessageIds[0]!,
        content: 'I was born in Porto.',
      });
      await client.room.deleteMessage({ roomId, messageId: fish.sourceMessageIds[0]! });
      const after = await client.room.memories({ roomId });
      const byId = new Map(after.memories.map((memory) => [memory.memoryId, memory]));
      expect(byId.get(lisbon.memoryId)!.needsReview).toBe(true);
      expect(byId.get(fish.memoryId)!.needsReview).toBe(true);
      // The deleted message is no longer a source; the summary was made from both.
      expect(byId.get(fish.memoryId)!.sourceMessageIds).toEqual([]);
      expect(byId.get(summaryBefore.memoryId)!.needsReview).toBe(true);
      // Others are untouched.
      expect(
        after.memories.filter((memory) => memory.needsReview).map((memory) => memory.memoryId),
      ).toHaveLength(3);

      // The person corrects it: the mark goes.
      const corrected = await client.room.saveMemory({
        roomId,
        memoryId: lisbon.memoryId,
        content: 'I was born in Porto.',
      });
      expect(corrected).toMatchObject({ content: 'I was born in Porto.', needsReview: false });
    },
    60_000,
  );

  it.skipIf(skip)(
    'remembers what a long message crowded out of the prompt, and says it was left out',
    async () => {
      const { client, roomId, send } = await chatRoom();
      const asksBefore = memoryAsks();
      await send('My sister is called Ana and she sails.');
      for (let turn = 1; turn < 5; turn += 1) await send(`Short line ${turn}.`);
      // A message too long for the context alone: every message before it leaves the prompt.
      const long = Array.from({ length: 700 }, (_, i) => `word${i}`).join(' ');
      await send(long);
      const prompt = lastReplyPrompt();
      expect(prompt.slice(1).join('\n')).not.toContain('sister');
      // What the mate saw says so: the greeting and ten messages were left out.
      const view = await client.room.promptView({ roomId });
      expect(view.rebuilt).toBe(false);
      expect(view.leftOut).toBe(11);
      // …and they are remembered.
      const memories = await remembered(client, roomId, 1);
      expect(memories.memories.map((memory) => memory.content)).toContain(
        'My sister is called Ana and she sails.',
      );
      expect(memoryAsks() - asksBefore).toBeGreaterThan(0);
    },
    60_000,
  );

  it.skipIf(skip)('lets the person add, pin, change and forget memories', async () => {
    const { client, roomId, send } = await chatRoom();
    const added = await client.room.saveMemory({
      roomId,
      content: '  Ada is allergic to cats.  ',
      about: 'person',
    });
    expect(added).toMatchObject({
      content: 'Ada is allergic to cats.',
      author: 'person',
      about: 'person',
      pinned: false,
      sourceMessageIds: [],
    });
    const second = await client.room.saveMemory({ roomId, content: 'The lighthouse is haunted.' });
    const pinned = await client.room.saveMemory({
      roomId,
      memoryId: added.memoryId,
      content: added.content,
      pinned: true,
    });
    expect(pinned.pinned).toBe(true);
    // Pinned first, then the newest.
    const listed = await client.room.memories({ roomId });
    expect(listed.memories.map((memory) => memory.memoryId)).toEqual([
      added.memoryId,
      second.memoryId,
    ]);
    expect(listed.writer).toEqual({ state: 'idle', error: null });

    // A pinned memory is always in the prompt.
    await send('Hello again.');
    expect(lastReplyPrompt()[0]).toContain('always remembers:\n- Ada is allergic to cats.');

    await client.room.deleteMemory({ roomId, memoryId: second.memoryId });
    expect((await client.room.memories({ roomId })).memories).toHaveLength(1);
  });

  it.skipIf(skip)(
    'pins or keeps a memory without its words, so words changed in another tab stay',
    async () => {
      const { client, roomId } = await chatRoom();
      const fact = await client.room.saveMemory({ roomId, content: 'Ada likes tea.' });
      // Another tab changes its words; this one, which read them before, pins it.
      await client.room.saveMemory({
        roomId,
        memoryId: fact.memoryId,
        content: 'Ada likes green tea.',
      });
      const pinned = await client.room.saveMemory({
        roomId,
        memoryId: fact.memoryId,
        pinned: true,
      });
      expect(pinned).toMatchObject({ content: 'Ada likes green tea.', pinned: true });
      // A new memory needs its words.
      await expect(client.room.saveMemory({ roomId })).rejects.toSatisfy(
        (error: unknown) => error instanceof ApiError && error.code === 4000,
      );
      expect((await client.room.memories({ roomId })).memories).toHaveLength(1);
    },
  );

  it.skipIf(skip)('refuses bad input and other people’s rooms, changing nothing', async () => {
    const owner = await chatRoom();
    const stranger = await chatRoom('Eve');
    const kept = await owner.client.room.saveMemory({ roomId: owner.roomId, content: 'Kept.' });
    const refusals: [() => Promise<unknown>, number][] = [
      [() => owner.client.room.saveMemory({ roomId: owner.roomId, content: '   ' }), 4000],
      [
        () => owner.client.room.saveMemory({ roomId: owner.roomId, content: 'x'.repeat(1001) }),
        4000,
      ],
      [
        () =>
          owner.client.room.saveMemory({
            roomId: owner.roomId,
            content: 'Changed.',
            about: 'weather' as 'story',
          }),
        4000,
      ],
      [() => stranger.client.room.memories({ roomId: owner.roomId }), 4004],
      [
        () =>
          stranger.client.room.saveMemory({
            roomId: owner.roomId,
            memoryId: kept.memoryId,
            content: 'Stolen.',
          }),
        4004,
      ],
      [
        () =>
          stranger.client.room.saveMemory({
            roomId: stranger.roomId,
            memoryId: kept.memoryId,
            content: 'Stolen.',
          }),
        4004,
      ],
      [
        () =>
          stranger.client.room.deleteMemory({ roomId: stranger.roomId, memoryId: kept.memoryId }),
        4004,
      ],
      [() => stranger.client.room.promptView({ roomId: owner.roomId }), 4004],
      [
        () => stranger.client.room.setMemoryAcrossChats({ roomId: owner.roomId, enabled: true }),
        4004,
      ],
    ];
    for (const [call, code] of refusals)
      await expect(call()).rejects.toSatisfy(
        (error: unknown) => error instanceof ApiError && error.code === code,
      );
    const listed = await owner.client.room.memories({ roomId: owner.roomId });
    expect(listed.memories.map((memory) => memory.content)).toEqual(['Kept.']);
    expect(listed.acrossChats).toBe(false);
  });

  it.skipIf(skip)(
    'says a memory forgotten in another tab is gone when it is edited at once, changing nothing',
    async () => {
      const { client, roomId } = await chatRoom();
      const failures: unknown[] = [];
      for (let round = 0; round < 12; round += 1) {
        const fact = await client.room.saveMemory({ roomId, content: `Fact ${round}.` });
        // One tab forgets it as the other saves its new words.
        const [forgot, edited] = await Promise.allSettled([
          client.room.deleteMemory({ roomId, memoryId: fact.memoryId }),
          client.room.saveMemory({ roomId, memoryId: fact.memoryId, content: `Now ${round}.` }),
        ]);
        expect(forgot.status).toBe('fulfilled');
        if (edited.status === 'rejected') failures.push(edited.reason);
      }
      // Refused as a memory not found (4004), never as the server's own failure.
      for (const failure of failures)
        expect(failure instanceof ApiError && failure.code).toBe(4004);
      expect((await client.room.memories({ roomId })).memories).toEqual([]);
    },
  );

  it.skipIf(skip)(
    'refuses the memories past the most a chat holds, however many are added at once',
    async () => {
      const { client, roomId, userInfo } = await chatRoom();
      const at = new Date().toISOString();
      const rows = Array.from({ length: MEMORIES_PER_ROOM_MAX - 1 }, (_, index) => ({
        id: randomUUID(),
        room_id: roomId,
        kind: 'fact',
        about: 'story',
        content: `Fact ${index}.`,
        pinned: false,
        author: 'person',
        mate_id: null,
        needs_review: false,
        created_at: at,
        updated_at: at,
      }));
      for (let from = 0; from < rows.length; from += 100)
        await suite.server.db
          .insertInto('memories')
          .values(rows.slice(from, from + 100))
          .execute();
      // Room for one more: of twenty added at once (a script's), one is kept. Handed to the
      // app together, as requests arriving together on open connections are.
      const added = await Promise.all(
        Array.from({ length: 20 }, async (_, index) => {
          const answer = await suite.server.app.request('/api/room/saveMemory', {
            method: 'POST',
            headers: { token: userInfo.token, 'content-type': 'application/json' },
            body: JSON.stringify({ roomId, content: `At once ${index}.` }),
          });
          return ((await answer.json()) as { c: number }).c;
        }),
      );
      expect(added.filter((code) => code === 200)).toHaveLength(1);
      expect(added.filter((code) => code === 5007)).toHaveLength(19);
      expect((await client.room.memories({ roomId })).memories).toHaveLength(MEMORIES_PER_ROOM_MAX);
    },
  );

  it.skipIf(skip)(
    'carries facts about the person into their other chats with the mate, when asked',
    async () => {
      const first = await chatRoom();
      await first.client.room.saveMemory({
        roomId: first.roomId,
        content: 'Ada plays the cello.',
        about: 'person',
      });
      await first.client.room.saveMemory({
        roomId: first.roomId,
        content: 'The ship sank in chapter two.',
        about: 'story',
      });
      const second = await first.client.room.createRoom({ mateId: first.mateId });
      const sendInSecond = () =>
        first.client.girl.chatSend({ roomId: second.roomId, content: 'Hi!' }, { onData: () => {} });
      await sendInSecond();
      expect(lastReplyPrompt()[0]).not.toContain('cello');

      const turnedOn = await first.client.room.setMemoryAcrossChats({
        roomId: second.roomId,
        enabled: true,
      });
      expect(turnedOn.acrossChats).toBe(true);
      await sendInSecond();
      expect(lastReplyPrompt()[0]).toContain('from other chats:\n- Ada plays the cello.');
      // Facts about the story stay in their chat.
      expect(lastReplyPrompt()[0]).not.toContain('ship sank');
      // The setting is the mate's: the first chat says so too.
      expect((await first.client.room.memories({ roomId: first.roomId })).acrossChats).toBe(true);

      await first.client.room.setMemoryAcrossChats({ roomId: first.roomId, enabled: false });
      await sendInSecond();
      expect(lastReplyPrompt()[0]).not.toContain('cello');
    },
  );

  it.skipIf(skip)(
    'writes a window once when two runs of the job race (a run begun twice)',
    async () => {
      const { client, roomId } = await chatRoom();
      await appendMessages(
        suite.server.db,
        roomId,
        Array.from({ length: 10 }, (_, index) => ({
          role: index % 2 ? ('mate' as const) : ('user' as const),
          content: `Line ${index} of the story.`,
          status: 'complete' as const,
        })),
      );
      const deps = writerDeps(suite.server);
      await Promise.all([
        writeMemories(deps, memoryRun(roomId, 9)),
        writeMemories(deps, memoryRun(roomId, 9)),
      ]);
      const memories = await client.room.memories({ roomId });
      const facts = memories.memories.filter((memory) => memory.kind === 'fact');
      // The person's lines before position 9 (the greeting is 1): 2, 4, 6 and 8 → lines 0, 2, 4, 6.
      expect(facts.map((fact) => fact.content).sort()).toEqual([
        'Line 0 of the story.',
        'Line 2 of the story.',
        'Line 4 of the story.',
        'Line 6 of the story.',
      ]);
      const room = await suite.server.db
        .selectFrom('rooms')
        .select(['memory_through', 'memory_error'])
        .where('id', '=', roomId)
        .executeTakeFirstOrThrow();
      expect(room).toEqual({ memory_through: 8, memory_error: null });
      // Rebuilt from the chat as it is, since no reply was written here.
      const view = await client.room.promptView({ roomId });
      expect(view.rebuilt).toBe(true);
    },
  );

  it.skipIf(skip)(
    'loses nothing and writes nothing twice when a run is cut off mid-window (a kill, a stop)',
    async () => {
      const { client, roomId } = await chatRoom();
      await appendMessages(
        suite.server.db,
        roomId,
        Array.from({ length: 10 }, (_, index) => ({
          role: index % 2 ? ('mate' as const) : ('user' as const),
          content: `Said ${index}.`,
          status: 'complete' as const,
        })),
      );
      const deps = writerDeps(suite.server);
      const run = (signal: AbortSignal) => memoryRun(roomId, 9, signal);
      // The model takes its time; the run is stopped while it writes.
      suite.double.route((body) => {
        const messages = body.messages as Turn[];
        if (!messages[0]?.content.startsWith(MEMORY_ASK)) return undefined;
        return { kind: 'hang' };
      });
      const stop = new AbortController();
      const cut = writeMemories(deps, run(stop.signal));
      await new Promise((resolve) => setTimeout(resolve, 200));
      stop.abort(new Error('the server is stopping'));
      await expect(cut).rejects.toThrow();
      suite.double.route(rememberEveryLine);
      expect((await client.room.memories({ roomId })).memories).toEqual([]);
      const room = () =>
        suite.server.db
          .selectFrom('rooms')
          .select('memory_through')
          .where('id', '=', roomId)
          .executeTakeFirstOrThrow();
      expect((await room()).memory_through).toBe(0);
      // The job runs again after the restart: the window is written once.
      await writeMemories(deps, run(new AbortController().signal));
      await writeMemories(deps, run(new AbortController().signal));
      const facts = (await client.room.memories({ roomId })).memories.filter(
        (memory) => memory.kind === 'fact',
      );
      expect(facts.map((fact) => fact.content).sort()).toEqual([
        'Said 0.',
        'Said 2.',
        'Said 4.',
        'Said 6.',
      ]);
      expect((await room()).memory_through).toBe(8);
    },
  );

  /**
   * A room of twelve messages whose memories the model will not write: asked to, the writer
   * fails; the room's rows and the writer's state then, the model answering again after.
   */
  async function failedWriting() {
    const { client, roomId } = await chatRoom();
    const rows = await appendMessages(
      suite.server.db,
      roomId,
      Array.from({ length: 12 }, (_, index) => ({
        role: index % 2 ? ('mate' as const) : ('user' as const),
        content: `Message ${index}.`,
        status: 'complete' as const,
      })),
    );
    suite.double.route((body) => {
      const messages = body.messages as Turn[];
      if (!messages[0]?.content.startsWith(MEMORY_ASK)) return undefined;
      return { kind: 'stream', pieces: ['I would rather not.'] };
    });
    try {
      await client.room.writeMemories({ roomId });
      let state = await client.room.memories({ roomId });
      for (let tries = 0; tries < 200 && state.writer.state !== 'failed'; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        state = await client.room.memories({ roomId });
      }
      return { client, roomId, rows, state };
    } finally {
      suite.double.route(rememberEveryLine);
    }
  }

  it.skipIf(skip)('forgets a failure to write memories once nothing is left to write', async () => {
    const { client, roomId, rows, state } = await failedWriting();
    expect(state.writer.state).toBe('failed');
    // The person takes the chat on from their first message: what failed is gone, and the
    // few messages left all fit the prompt.
    await client.room.editMessage({ roomId, messageId: rows[0]!.id, content: 'Once more.' });
    await client.girl.chatSend(
      { roomId, regenerate: true, fromMessageId: rows[0]!.id },
      { onData: () => {} },
    );
    // "Try again" has nothing to write: the failure is not said any longer.
    const again = await client.room.writeMemories({ roomId });
    expect(again.writer).toEqual({ state: 'idle', error: null });
    expect((await client.room.memories({ roomId })).writer).toEqual({
      state: 'idle',
      error: null,
    });
  });

  it.skipIf(skip)(
    'says when the model could not write memories, and tries again when asked',
    async () => {
      const { client, roomId, state } = await failedWriting();
      expect(state.writer).toEqual({
        state: 'failed',
        error:
          'Memories could not be written from the older messages: the model answered something that was not a list of memories. Try again.',
      });
      expect(state.memories).toEqual([]);
      const again = await client.room.writeMemories({ roomId });
      expect(again.writer.state).not.toBe('failed');
      const memories = await remembered(client, roomId, 2);
      expect(memories.writer).toEqual({ state: 'idle', error: null });
    },
  );
});
