import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@mates/api-client';
import {
  chattableMateId,
  DIALECTS,
  insertPictureMessage,
  postgresAvailable,
  signUp,
} from './harness';
import { serverWithDouble } from './server-with-double';
import { appendMessages } from '../src/chat/messages';
import { picturesOf } from '../src/images/picture-messages';
import { BRANCHES_PER_CHAT_MAX } from '../src/chat/branch-service';

// Branches of a chat (#39): "Branch from here" makes a new path that holds the chat up to one
// message; the first path stays; each path's prompt and memory hold only its own messages.
const withPostgres = await postgresAvailable();

type Turn = { role: string; content: string };

describe.each(DIALECTS)('branches on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const suite = serverWithDouble(dialect, { skip });

  /** A signed-in person's room: the greeting (position 1), then `count` numbered lines. */
  async function chat(count: number) {
    const user = await signUp(suite.server);
    const mateId = await chattableMateId(suite.server.db);
    const room = await user.client.room.createRoom({ mateId });
    await appendMessages(
      suite.server.db,
      room.roomId,
      Array.from({ length: count }, (_, index) => ({
        role: index % 2 ? ('mate' as const) : ('user' as const),
        content: `Line ${index + 2}.`,
        status: 'complete' as const,
      })),
    );
    const messages = (await user.client.room.roomInfo({ roomId: room.roomId, pageSize: 100 }))
      .messages;
    return { ...user, mateId, roomId: room.roomId, messages };
  }

  const lastPrompt = () =>
    (suite.double.requests.at(-1)!.body.messages as Turn[]).map((turn) => turn.content);

  it.skipIf(skip)('holds the chat up to the message, and goes on from there alone', async () => {
    const { client, roomId, messages } = await chat(20);
    const fork = messages[9]!; // "Line 10."
    const branch = await client.room.branch({ roomId, messageId: fork.messageId });
    expect(branch.roomId).not.toBe(roomId);
    const copied = (await client.room.roomInfo({ roomId: branch.roomId, pageSize: 100 })).messages;
    expect(copied.map((message) => message.content)).toEqual(
      messages.slice(0, 10).map((message) => message.content),
    );
    expect(copied.map((message) => message.role)).toEqual(
      messages.slice(0, 10).map((message) => message.role),
    );
    // Copies: ids of their own; the first path is untouched.
    expect(copied.some((message) => messages.some((m) => m.messageId === message.messageId))).toBe(
      false,
    );
    expect(
      (await client.room.roomInfo({ roomId, pageSize: 100 })).messages.map((m) => m.content),
    ).toEqual(messages.map((m) => m.content));

    await client.girl.chatSend(
      { roomId: branch.roomId, content: 'Another way.' },
      { onData: () => {} },
    );
    const prompt = lastPrompt();
    expect(prompt).toContain('Line 10.');
    expect(prompt).toContain('Another way.');
    expect(prompt).not.toContain('Line 11.');
    expect(prompt).not.toContain('Line 21.');
    // The first path goes on without the branch's words.
    await client.girl.chatSend({ roomId, content: 'Back here.' }, { onData: () => {} });
    expect(lastPrompt()).toContain('Line 21.');
    expect(lastPrompt()).not.toContain('Another way.');

    const { branches } = await client.room.branches({ roomId: branch.roomId });
    expect(branches.map((path) => path.roomId)).toEqual([roomId, branch.roomId]);
    expect(branches[0]!.fork).toBeNull();
    expect(branches[1]!.fork).toEqual({
      parentRoomId: roomId,
      parentMessageId: fork.messageId,
      messageId: copied[9]!.messageId,
    });
    expect(branches[1]!.messageCount).toBe(12);
    expect(branches[1]!.preview).toBe('Hello there.');
  });

  it.skipIf(skip)('shows a chat once in the list, by the path used last', async () => {
    const { client, roomId, messages } = await chat(6);
    const branch = await client.room.branch({ roomId, messageId: messages[3]!.messageId });
    await client.girl.chatSend(
      { roomId: branch.roomId, content: 'On the branch.' },
      { onData: () => {} },
    );
    const listed = async () =>
      (await client.room.roomList({ page: 1, pageSize: 50 })).list.filter(
        (row) => row.roomId === roomId || row.roomId === branch.roomId,
      );
    expect((await listed()).map((row) => [row.roomId, row.branchCount])).toEqual([
      [branch.roomId, 2],
    ]);
    const total = (await client.room.roomList({ page: 1, pageSize: 50 })).total;
    // Opening the first path makes it the one the list opens.
    await client.room.roomInfo({ roomId });
    expect((await listed()).map((row) => row.roomId)).toEqual([roomId]);
    expect((await client.room.roomList({ page: 1, pageSize: 50 })).total).toBe(total);
  });

  it.skipIf(skip)('deletes a path without touching the others', async () => {
    const { client, roomId, messages } = await chat(6);
    const first = await client.room.branch({ roomId, messageId: messages[2]!.messageId });
    const second = await client.room.branch({ roomId, messageId: messages[4]!.messageId });
    await client.room.deleteRoom({ roomId: first.roomId });
    expect((await client.room.branches({ roomId })).branches.map((path) => path.roomId)).toEqual([
      roomId,
      second.roomId,
    ]);
    // The first path goes; its branch stays, a path of the same chat.
    await client.room.deleteRoom({ roomId });
    const left = await client.room.branches({ roomId: second.roomId });
    expect(left.branches.map((path) => path.roomId)).toEqual([second.roomId]);
    expect(left.branches[0]!.fork).toMatchObject({ parentRoomId: null });
    expect((await client.room.roomInfo({ roomId: second.roomId })).messages).toHaveLength(5);
  });

  it.skipIf(skip)('remembers only its own path', async () => {
    const { client, roomId, messages } = await chat(12);
    const db = suite.server.db;
    const at = new Date().toISOString();
    // What the first path remembers: one fact from before the fork, one from after, a summary.
    const memory = async (content: string, kind: string, sources: number[]) => {
      const id = randomUUID();
      await db
        .insertInto('memories')
        .values({
          id,
          room_id: roomId,
          kind,
          about: 'person',
          content,
          author: 'mate',
          created_at: at,
          updated_at: at,
        })
        .execute();
      await db
        .insertInto('memory_sources')
        .values(
          sources.map((index) => ({
            memory_id: id,
            message_id: messages[index]!.messageId,
            position: index + 1,
          })),
        )
        .execute();
    };
    await memory('Ada has a sister.', 'fact', [1]);
    await memory('Ada moved to Oslo.', 'fact', [9]);
    await memory('They met and talked a lot.', 'summary', [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await db
      .updateTable('rooms')
      .set({ memory_through: 10, memory_version: 1 })
      .where('id', '=', roomId)
      .execute();
    await client.room.saveMemory({ roomId, content: 'Call her Captain.', pinned: true });
    // Remember me across chats is on: still, another path of this chat is not another chat.
    await client.room.setMemoryAcrossChats({ roomId, enabled: true });

    const branch = await client.room.branch({ roomId, messageId: messages[4]!.messageId });
    const remembered = await client.room.memories({ roomId: branch.roomId });
    expect(remembered.memories.map((m) => m.content).sort()).toEqual([
      'Ada has a sister.',
      'Call her Captain.',
    ]);
    const sister = remembered.memories.find((m) => m.content === 'Ada has a sister.')!;
    const copies = (await client.room.roomInfo({ roomId: branch.roomId })).messages;
    expect(sister.sourceMessageIds).toEqual([copies[1]!.messageId]);
    // The summary told what happened after the fork: the branch writes its own from the start.
    const row = await db
      .selectFrom('rooms')
      .select(['memory_through', 'family_id', 'parent_room_id'])
      .where('id', '=', branch.roomId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ memory_through: 0, family_id: roomId, parent_room_id: roomId });

    await client.girl.chatSend(
      { roomId: branch.roomId, content: 'Where do I live?' },
      { onData: () => {} },
    );
    const system = lastPrompt()[0]!;
    expect(system).toContain('Ada has a sister.');
    expect(system).toContain('Call her Captain.');
    expect(system).not.toContain('Oslo');
    expect(system).not.toContain('talked a lot');
  });

  it.skipIf(skip)(
    'keeps regenerations, edits and the memories they mark inside their own path',
    async () => {
      const { client, roomId, messages } = await chat(6);
      const db = suite.server.db;
      const at = new Date().toISOString();
      // A fact the first path remembers of its "Line 4." (position 4).
      const factId = randomUUID();
      await db
        .insertInto('memories')
        .values({
          id: factId,
          room_id: roomId,
          kind: 'fact',
          about: 'person',
          content: 'Ada said line four.',
          author: 'mate',
          created_at: at,
          updated_at: at,
        })
        .execute();
      await db
        .insertInto('memory_sources')
        .values({ memory_id: factId, message_id: messages[3]!.messageId, position: 4 })
        .execute();
      await db.updateTable('rooms').set({ memory_version: 1 }).where('id', '=', roomId).execute();

      // The branch holds the chat up to "Line 7.", the first path's last reply.
      const branch = await client.room.branch({ roomId, messageId: messages[6]!.messageId });
      const copies = (await client.room.roomInfo({ roomId: branch.roomId, pageSize: 100 }))
        .messages;
      expect(copies.at(-1)!.content).toBe('Line 7.');
      await client.girl.chatSend({ roomId: branch.roomId, regenerate: true }, { onData: () => {} });
      await client.room.editMessage({
        roomId: branch.roomId,
        messageId: copies[3]!.messageId,
        content: 'Line four, told another way.',
      });

      const onBranch = (await client.room.roomInfo({ roomId: branch.roomId, pageSize: 100 }))
        .messages;
      expect(onBranch[3]!.content).toBe('Line four, told another way.');
      expect(onBranch.at(-1)).toMatchObject({
        content: 'Hello there.',
        swipes: { index: 1, count: 2 },
      });
      const branchFact = (await client.room.memories({ roomId: branch.roomId })).memories.find(
        (memory) => memory.content === 'Ada said line four.',
      )!;
      expect(branchFact).toMatchObject({
        needsReview: true,
        sourceMessageIds: [copies[3]!.messageId],
      });

      // The first path: its words, its single reply and its memory as they were.
      const first = (await client.room.roomInfo({ roomId, pageSize: 100 })).messages;
      expect(first.map((message) => message.content)).toEqual(
        messages.map((message) => message.content),
      );
      expect(first.at(-1)!.swipes).toBeUndefined();
      const firstFact = (await client.room.memories({ roomId })).memories.find(
        (memory) => memory.memoryId === factId,
      )!;
      expect(firstFact).toMatchObject({
        needsReview: false,
        sourceMessageIds: [messages[3]!.messageId],
      });
    },
  );

  it.skipIf(skip)('gives a branch its own copy of each drawn picture', async () => {
    const { client, roomId } = await chat(2);
    const { store } = picturesOf(suite.server.deps.config);
    const file = await store.put(Buffer.from('RIFF....WEBPVP8 a picture'));
    const pictureId = await insertPictureMessage(suite.server.db, { roomId, position: 4, file });
    const branch = await client.room.branch({ roomId, messageId: pictureId });
    const copy = await suite.server.db
      .selectFrom('messages')
      .select(['image_file', 'image_prompt'])
      .where('room_id', '=', branch.roomId)
      .where('position', '=', 4)
      .executeTakeFirstOrThrow();
    expect(copy.image_prompt).toBe('a lighthouse at dusk');
    expect(copy.image_file).not.toBe(file);
    expect(await store.get(copy.image_file!)).toEqual(await store.get(file));
    await client.room.deleteRoom({ roomId: branch.roomId });
    // The first path's picture is still there.
    expect(await store.get(file)).not.toBeNull();
    expect(await store.get(copy.image_file!)).toBeNull();
  });

  it.skipIf(skip)('refuses a fork at a picture not drawn, which no branch would hold', async () => {
    const { client, roomId } = await chat(2);
    const count = async () =>
      (await suite.server.db.selectFrom('rooms').select('id').execute()).length;
    const before = await count();
    // Still being drawn, or never drawn: it stays with its path, and is not copied.
    const pictureId = await insertPictureMessage(suite.server.db, {
      roomId,
      position: 4,
      file: null as unknown as string,
    });
    await expect(client.room.branch({ roomId, messageId: pictureId })).rejects.toSatisfy(
      (error: unknown) => error instanceof ApiError && error.code === 4004,
    );
    expect(await count()).toBe(before);
    expect((await client.room.branches({ roomId })).branches).toHaveLength(1);
  });

  it.skipIf(skip)('exports a path as JSON, Markdown and SillyTavern’s chat file', async () => {
    const { client, roomId, messages } = await chat(4);
    await client.girl.chatSend({ roomId, regenerate: true }, { onData: () => {} });
    const memory = await client.room.saveMemory({
      roomId,
      content: 'Ada keeps bees.',
      pinned: true,
      about: 'person',
    });
    const json = await client.room.exportChat({ roomId, format: 'json' });
    expect(json.mimeType).toBe('application/json');
    expect(json.fileName).toMatch(/\.json$/);
    const parsed = JSON.parse(json.content) as {
      format: string;
      messages: { role: string; content: string; versions: string[] }[];
    };
    expect(parsed.format).toBe('mates-chat');
    expect(parsed.messages.map((m) => m.content).slice(0, 3)).toEqual(
      messages.slice(0, 3).map((m) => m.content),
    );
    // The regenerated reply keeps both versions.
    expect(parsed.messages.at(-1)!.versions).toEqual(['Line 5.', 'Hello there.']);
    // The path's memories go with it, as the Memory panel answers them.
    expect((JSON.parse(json.content) as { memories: unknown }).memories).toEqual([memory]);

    const markdown = await client.room.exportChat({ roomId, format: 'markdown' });
    expect(markdown.mimeType).toBe('text/markdown');
    expect(markdown.content).toContain('Line 2.');
    expect(markdown.content).toContain('*(version 2 of 2)* Hello there.');
    expect(markdown.content).toMatch(
      /## Memories\n\n- Ada keeps bees\. \*\(about .+; pinned\)\*\n$/,
    );

    const jsonl = await client.room.exportChat({ roomId, format: 'jsonl' });
    const lines = jsonl.content
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ chat_metadata: {} });
    expect(lines[0]!.character_name).toBe(lines[1]!.name);
    expect(lines.slice(1).map((line) => line.mes)).toEqual([
      messages[0]!.content,
      'Line 2.',
      'Line 3.',
      'Line 4.',
      'Hello there.',
    ]);
    expect(lines[2]).toMatchObject({ is_user: true, is_system: false });
    expect(lines.at(-1)).toMatchObject({ swipes: ['Line 5.', 'Hello there.'], swipe_id: 1 });
  });

  it.skipIf(skip)(
    'keeps a chat to its most paths when several of its paths branch at once',
    async () => {
      const { client, roomId, messages, userInfo } = await chat(3);
      const paths = [roomId];
      for (let count = 0; count < 5; count += 1)
        paths.push(
          (await client.room.branch({ roomId, messageId: messages[1]!.messageId })).roomId,
        );
      // The chat one path short of the most it may have.
      const first = await suite.server.db
        .selectFrom('rooms')
        .selectAll()
        .where('id', '=', roomId)
        .executeTakeFirstOrThrow();
      const more = BRANCHES_PER_CHAT_MAX - 1 - paths.length;
      await suite.server.db
        .insertInto('rooms')
        .values(
          Array.from({ length: more }, () => ({
            ...first,
            id: randomUUID(),
            family_id: roomId,
            parent_room_id: roomId,
          })),
        )
        .execute();
      const forks = await Promise.all(
        paths.map(
          async (path) => (await client.room.roomInfo({ roomId: path, pageSize: 1 })).messages[0]!,
        ),
      );
      // Each path (each held on its own) branches at once: one more path is made, no more.
      const codes = await Promise.all(
        paths.map(async (path, index) => {
          const answer = await suite.server.app.request('/api/room/branch', {
            method: 'POST',
            headers: { token: userInfo.token, 'content-type': 'application/json' },
            body: JSON.stringify({ roomId: path, messageId: forks[index]!.messageId }),
          });
          return ((await answer.json()) as { c: number }).c;
        }),
      );
      expect(codes.filter((code) => code === 200)).toHaveLength(1);
      expect(codes.filter((code) => code === 5007)).toHaveLength(paths.length - 1);
      expect((await client.room.branches({ roomId })).branches).toHaveLength(BRANCHES_PER_CHAT_MAX);
    },
  );

  it.skipIf(skip)('refuses what it cannot branch, changing nothing', async () => {
    const owner = await chat(4);
    const stranger = await chat(2);
    const count = async () =>
      (await suite.server.db.selectFrom('rooms').select('id').execute()).length;
    const before = await count();
    const refusals: [() => Promise<unknown>, number][] = [
      [() => owner.client.room.branch({ roomId: owner.roomId, messageId: 'nope' }), 4004],
      [
        () =>
          owner.client.room.branch({
            roomId: owner.roomId,
            messageId: stranger.messages[0]!.messageId,
          }),
        4004,
      ],
      [
        () =>
          stranger.client.room.branch({
            roomId: owner.roomId,
            messageId: owner.messages[0]!.messageId,
          }),
        4004,
      ],
      [() => stranger.client.room.branches({ roomId: owner.roomId }), 4004],
      [() => stranger.client.room.exportChat({ roomId: owner.roomId, format: 'json' }), 4004],
      [() => owner.client.room.exportChat({ roomId: owner.roomId, format: 'pdf' as 'json' }), 4000],
    ];
    for (const [call, code] of refusals)
      await expect(call()).rejects.toSatisfy(
        (error: unknown) => error instanceof ApiError && error.code === code,
      );
    // While a reply is being written in it.
    const controller = await suite.server.deps.chat.begin(owner.roomId);
    try {
      await expect(
        owner.client.room.branch({ roomId: owner.roomId, messageId: owner.messages[1]!.messageId }),
      ).rejects.toSatisfy((error: unknown) => error instanceof ApiError && error.code === 5007);
    } finally {
      controller?.abort();
      await suite.server.deps.chat.end(owner.roomId);
    }
    expect(await count()).toBe(before);
  });
});
