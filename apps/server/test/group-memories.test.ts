import { describe, expect, it } from 'vitest';
import type { ApiError, Memory } from '@mates/api-client';
import { DIALECTS, postgresAvailable, seededMate, signUp } from './harness';
import { serverWithDouble } from './server-with-double';
import { mateDraft } from './your-data-helpers';
import { MEMORY_ASK, memoryRun, writerDeps, type Turn } from './memory-helpers';
import { appendMessages } from '../src/chat/messages';
import { writeMemories } from '../src/chat/memory-writer';

// Memory per mate in a group chat (#40): each member keeps its own memories beside the group's
// shared ones, and a speaker's prompt reads the shared ones and its own, never another's.
const withPostgres = await postgresAvailable();

const LYRA = 'Lyra Moonwhisper';
const KAI = 'Kai Tanaka';
const IONE = 'Captain Ione Vask';

describe.each(DIALECTS)('memory per mate in a group on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const suite = serverWithDouble(dialect, { skip });

  /** Who a prompt is for: its system turn's "You are X in a group…". */
  const speakerOf = (body: Record<string, unknown>) =>
    /You are (.+?) in a group/.exec((body.messages as Turn[])[0]!.content)?.[1];

  /** Each mate answers in its own words; the memory writer's asks go to `memory`. */
  function answer(memory?: (body: Record<string, unknown>) => string) {
    suite.double.route((body) => {
      if ((body.messages as Turn[])[0]!.content.startsWith(MEMORY_ASK))
        return memory ? { kind: 'stream', pieces: [memory(body)] } : undefined;
      const name = speakerOf(body);
      return name ? { kind: 'stream', pieces: [`${name}`, ' speaks.'] } : undefined;
    });
  }

  async function group(names = [LYRA, KAI]) {
    const user = await signUp(suite.server);
    await user.client.user.updateNickname({ nickname: 'Ada' });
    const mates = await Promise.all(names.map((name) => seededMate(suite.server.db, name)));
    const room = await user.client.room.createGroup({
      mateIds: mates.map((mate) => mate.id),
      turnOrder: 'list',
    });
    return { ...user, roomId: room.roomId, ids: mates.map((mate) => mate.id) };
  }

  /** Each speaker's whole prompt, as text, for a send; in the order they spoke. */
  async function promptsOf(
    client: Awaited<ReturnType<typeof signUp>>['client'],
    payload: Parameters<typeof client.girl.chatSend>[0],
  ) {
    const from = suite.double.requests.length;
    await client.girl.chatSend(payload, { onData: () => {} });
    return suite.double.requests
      .slice(from)
      .filter((request) => speakerOf(request.body))
      .map((request) => ({
        speaker: speakerOf(request.body),
        text: (request.body.messages as Turn[]).map((turn) => turn.content).join('\n'),
      }));
  }

  const byContent = (memories: Memory[]) =>
    Object.fromEntries(memories.map((memory) => [memory.content, memory.mateId]));

  it.skipIf(skip)('gives each fact written from a group turn to the mate whose it is', async () => {
    const { client, roomId, ids } = await group();
    const [lyra, kai] = ids as [string, string];
    await appendMessages(suite.server.db, roomId, [
      { role: 'user', content: 'Kai, my sister is called Ana.', status: 'complete' },
      { role: 'mate', content: 'Ana! I will cook for her.', status: 'complete', speakerId: kai },
      { role: 'mate', content: 'I keep the lamp lit.', status: 'complete', speakerId: lyra },
    ]);
    let asked: Record<string, unknown> | undefined;
    // Whose each is, as a model may write it: a first name, a whole name in other case,
    // the group, and a name nobody in the group has.
    answer((body) => {
      asked = body;
      return JSON.stringify({
        summary: 'Ada came to the tavern.',
        facts: [
          { text: 'Ada told Kai her sister is Ana.', about: 'person', from: [2, 3], mate: 'Kai' },
          { text: 'Lyra keeps the lamp lit.', about: 'story', from: [4], mate: 'lyra moonwhisper' },
          { text: 'Ada came in from the storm.', about: 'story', from: [2], mate: 'everyone' },
          { text: 'A stranger watched them.', about: 'story', from: [2], mate: 'Old Tom' },
        ],
      });
    });
    await writeMemories(writerDeps(suite.server), memoryRun(roomId, 100));
    // The writer was told who is in the group, and held to their names.
    const system = (asked!.messages as Turn[])[0]!.content;
    expect(system).toContain(`a group of characters: ${LYRA} and ${KAI}`);
    const schema = (asked!.response_format as { json_schema: { schema: unknown } }).json_schema
      .schema as { properties: { facts: { items: { properties: { mate: unknown } } } } };
    expect(schema.properties.facts.items.properties.mate).toEqual({
      type: 'string',
      enum: [LYRA, KAI, 'everyone'],
    });
    const all = (await client.room.memories({ roomId })).memories;
    expect(byContent(all)).toEqual({
      'Ada came to the tavern.': null,
      'Ada told Kai her sister is Ana.': kai,
      'Lyra keeps the lamp lit.': lyra,
      'Ada came in from the storm.': null,
      'A stranger watched them.': null,
    });
    // What Kai remembers: the group's and its own.
    const kais = (await client.room.memories({ roomId, mateId: kai })).memories;
    expect(kais.map((memory) => memory.content).sort()).toEqual(
      [
        'A stranger watched them.',
        'Ada came in from the storm.',
        'Ada came to the tavern.',
        'Ada told Kai her sister is Ana.',
      ].sort(),
    );
  });

  it.skipIf(skip)(
    "gives each speaker the shared memories and its own, never another member's",
    async () => {
      answer();
      const { client, roomId, ids } = await group();
      const [lyra, kai] = ids as [string, string];
      const save = (content: string, mateId: string | null, pinned = false) =>
        client.room.saveMemory({ roomId, content, mateId, pinned });
      const lyras = await save('The lamp of the lighthouse is called Bess.', lyra, true);
      expect(lyras).toMatchObject({ mateId: lyra, pinned: true, author: 'person' });
      await save('The stew recipe was his grandmother’s.', kai);
      await save('Ada arrived soaked from the storm.', null, true);
      await save('The tavern is called the Drowned Lantern.', null);
      const prompts = await promptsOf(client, { roomId, content: 'Evening, both of you.' });
      expect(prompts.map((prompt) => prompt.speaker)).toEqual([LYRA, KAI]);
      const [forLyra, forKai] = prompts.map((prompt) => prompt.text) as [string, string];
      for (const shared of ['Ada arrived soaked', 'the Drowned Lantern']) {
        expect(forLyra).toContain(shared);
        expect(forKai).toContain(shared);
      }
      expect(forLyra).toContain('The lamp of the lighthouse is called Bess.');
      expect(forLyra).not.toContain('grandmother');
      expect(forKai).toContain('The stew recipe was his grandmother’s.');
      expect(forKai).not.toContain('Bess');
      // "What the mate sees": the last reply's speaker's prompt, Kai's.
      const view = await client.room.promptView({ roomId });
      const seen = view.parts.map((part) => part.text).join('\n');
      expect(seen).toContain('grandmother');
      expect(seen).toContain('Ada arrived soaked');
      expect(seen).not.toContain('Bess');
      // Built again for a reply this server holds no prompt of: still its speaker's, Lyra's.
      await appendMessages(suite.server.db, roomId, [
        { role: 'mate', content: 'Bess burns bright.', status: 'complete', speakerId: lyra },
      ]);
      const rebuilt = await client.room.promptView({ roomId });
      expect(rebuilt.rebuilt).toBe(true);
      const again = rebuilt.parts.map((part) => part.text).join('\n');
      expect(again).toContain('The lamp of the lighthouse is called Bess.');
      expect(again).not.toContain('grandmother');
    },
  );

  it.skipIf(skip)(
    'follows an edit, a change of owner and a deletion in the next prompts',
    async () => {
      answer();
      const { client, roomId, ids } = await group();
      const [lyra, kai] = ids as [string, string];
      const memory = await client.room.saveMemory({
        roomId,
        content: 'The map is hidden under the third stair.',
        mateId: lyra,
        pinned: true,
      });
      // An edit without `mateId` keeps the owner.
      const edited = await client.room.saveMemory({
        roomId,
        memoryId: memory.memoryId,
        content: 'The map is hidden under the fourth stair.',
      });
      expect(edited).toMatchObject({ mateId: lyra, pinned: true });
      let [forLyra, forKai] = (await promptsOf(client, { roomId, content: 'Well?' })).map(
        (prompt) => prompt.text,
      ) as [string, string];
      expect(forLyra).toContain('fourth stair');
      expect(forLyra).not.toContain('third stair');
      expect(forKai).not.toContain('stair');
      // Given to Kai: Kai knows it now, Lyra no longer.
      const moved = await client.room.saveMemory({
        roomId,
        memoryId: memory.memoryId,
        content: edited.content,
        mateId: kai,
      });
      expect(moved.mateId).toBe(kai);
      [forLyra, forKai] = (await promptsOf(client, { roomId, content: 'And now?' })).map(
        (prompt) => prompt.text,
      ) as [string, string];
      expect(forLyra).not.toContain('stair');
      expect(forKai).toContain('fourth stair');
      // Shared: both know it.
      await client.room.saveMemory({
        roomId,
        memoryId: memory.memoryId,
        content: edited.content,
        mateId: null,
      });
      [forLyra, forKai] = (await promptsOf(client, { roomId, content: 'Both?' })).map(
        (prompt) => prompt.text,
      ) as [string, string];
      expect(forLyra).toContain('fourth stair');
      expect(forKai).toContain('fourth stair');
      // The summary stays the group's, whatever is asked.
      const at = new Date().toISOString();
      await suite.server.db
        .insertInto('memories')
        .values({
          id: `summary-${roomId}`,
          room_id: roomId,
          kind: 'summary',
          about: 'story',
          content: 'They met at the tavern.',
          author: 'mate',
          created_at: at,
          updated_at: at,
        })
        .execute();
      const summary = await client.room.saveMemory({
        roomId,
        memoryId: `summary-${roomId}`,
        content: 'They met at the old tavern.',
        mateId: kai,
      });
      expect(summary).toMatchObject({ kind: 'summary', mateId: null });
      // Forgotten: neither knows it.
      await client.room.deleteMemory({ roomId, memoryId: memory.memoryId });
      [forLyra, forKai] = (await promptsOf(client, { roomId, content: 'Gone?' })).map(
        (prompt) => prompt.text,
      ) as [string, string];
      expect(forLyra).not.toContain('stair');
      expect(forKai).not.toContain('stair');
    },
  );

  it.skipIf(skip)(
    'refuses a mate that is not a member with a clear 4000, and changes nothing',
    async () => {
      answer();
      const { client, roomId, ids } = await group([LYRA, KAI, IONE]);
      const [lyra, , ione] = ids as [string, string, string];
      const outsider = (await seededMate(suite.server.db, 'Rowan Ashdown')).id;
      const kept = await client.room.saveMemory({ roomId, content: 'Lyra hums.', mateId: lyra });
      // Ione leaves: what it kept stays its own, and can be read, but it is given nothing new.
      await client.room.removeGroupMember({ roomId, mateId: ione });
      const before = await client.room.memories({ roomId });
      const codeOf = (call: Promise<unknown>) =>
        call.then(
          () => null,
          (error: ApiError) => [error.code, error.message],
        );
      const notMember = [4000, 'mateId: this mate is not in the group.'];
      expect(
        await codeOf(client.room.saveMemory({ roomId, content: 'New.', mateId: outsider })),
      ).toEqual(notMember);
      expect(
        await codeOf(client.room.saveMemory({ roomId, content: 'New.', mateId: 'no-such-mate' })),
      ).toEqual(notMember);
      expect(
        await codeOf(client.room.saveMemory({ roomId, content: 'New.', mateId: ione })),
      ).toEqual(notMember);
      expect(
        await codeOf(
          client.room.saveMemory({
            roomId,
            memoryId: kept.memoryId,
            content: 'Lyra sings.',
            mateId: outsider,
          }),
        ),
      ).toEqual(notMember);
      expect(await codeOf(client.room.memories({ roomId, mateId: outsider }))).toEqual(notMember);
      expect(await client.room.memories({ roomId })).toEqual(before);
      expect((await client.room.memories({ roomId, mateId: ione })).memories).toEqual(
        before.memories.filter((memory) => memory.mateId === null),
      );
      // A one-to-one chat's memories are all its mate's: no member to name.
      const alone = await client.room.createRoom({ mateId: lyra });
      expect(
        await codeOf(
          client.room.saveMemory({ roomId: alone.roomId, content: 'New.', mateId: lyra }),
        ),
      ).toEqual([4000, 'roomId: this chat is not a group chat.']);
      expect((await client.room.memories({ roomId: alone.roomId })).memories).toEqual([]);
    },
  );

  it.skipIf(skip)(
    "carries a member's own facts about the person into its other chats, and no one else's",
    async () => {
      answer();
      const { client, roomId, ids } = await group();
      const [lyra, kai] = ids as [string, string];
      // Lyra, the group's first mate, carries facts across chats.
      const alone = await client.room.createRoom({ mateId: lyra });
      await client.room.setMemoryAcrossChats({ roomId: alone.roomId, enabled: true });
      const about = (content: string, mateId: string | null) =>
        client.room.saveMemory({ roomId, content, mateId, about: 'person' });
      await about('Ada told Lyra she fears deep water.', lyra);
      await about('Ada told Kai she cannot swim.', kai);
      await about('Ada said to all she is a cartographer.', null);
      const from = suite.double.requests.length;
      await client.girl.chatSend({ roomId: alone.roomId, content: 'Hello.' }, { onData: () => {} });
      const prompt = (suite.double.requests[from]!.body.messages as Turn[])
        .map((turn) => turn.content)
        .join('\n');
      expect(prompt).toContain('Ada told Lyra she fears deep water.');
      expect(prompt).not.toContain('cannot swim');
      expect(prompt).not.toContain('cartographer');
    },
  );

  it.skipIf(skip)(
    "takes a member's own facts out of its other chats once the group is deleted, first or not",
    async () => {
      answer();
      const { client, roomId, ids } = await group();
      const [lyra, kai] = ids as [string, string];
      // Kai, not the group's first mate, carries facts across chats; so does Lyra.
      const withKai = await client.room.createRoom({ mateId: kai });
      await client.room.setMemoryAcrossChats({ roomId: withKai.roomId, enabled: true });
      const withLyra = await client.room.createRoom({ mateId: lyra });
      await client.room.setMemoryAcrossChats({ roomId: withLyra.roomId, enabled: true });
      await client.room.saveMemory({
        roomId,
        content: 'Ada told Kai she cannot swim.',
        mateId: kai,
        about: 'person',
      });
      await client.room.saveMemory({
        roomId,
        content: 'Ada told Lyra she fears deep water.',
        mateId: lyra,
        about: 'person',
      });
      const promptIn = async (chat: string) => {
        const from = suite.double.requests.length;
        await client.girl.chatSend({ roomId: chat, content: 'Hello.' }, { onData: () => {} });
        return (suite.double.requests[from]!.body.messages as Turn[])
          .map((turn) => turn.content)
          .join('\n');
      };
      expect(await promptIn(withKai.roomId)).toContain('cannot swim');
      expect(await promptIn(withLyra.roomId)).toContain('deep water');
      await client.room.deleteRoom({ roomId });
      expect(await promptIn(withLyra.roomId)).not.toContain('deep water');
      expect(await promptIn(withKai.roomId)).not.toContain('cannot swim');
    },
  );

  it.skipIf(skip)(
    'never shows the card of a member its creator closed in what the mate saw',
    async () => {
      answer();
      const creator = await signUp(suite.server);
      const draft = mateDraft({
        name: 'Closing Soon',
        tagline: 'A tagline.',
        description: 'SECRET DESCRIPTION',
        visibility: 'public',
      });
      const closing = await creator.client.mate.saveMate(draft);
      const user = await signUp(suite.server);
      const lyra = await seededMate(suite.server.db, LYRA);
      const { roomId } = await user.client.room.createGroup({
        mateIds: [lyra.id, closing.mateId],
        turnOrder: 'list',
      });
      const prompts = await promptsOf(user.client, { roomId, content: 'Evening, both of you.' });
      expect(prompts.map((prompt) => prompt.speaker)).toEqual([LYRA, 'Closing Soon']);
      // Its creator closes it, with new words on its card.
      await creator.client.mate.saveMate({
        ...draft,
        mateId: closing.mateId,
        description: 'SECRET NEW DESCRIPTION',
        visibility: 'private',
      });
      // Refused, as in a chat with it alone, saying why, and nothing of its card.
      const refusedView = () =>
        expect(user.client.room.promptView({ roomId })).rejects.toSatisfy(
          (error: unknown) =>
            error instanceof Error &&
            (error as ApiError).code === 5007 &&
            error.message.includes('Closing Soon is no longer available') &&
            !error.message.includes('SECRET'),
        );
      await refusedView();
      // Built again (a reply this server holds no prompt of), nor then.
      await appendMessages(suite.server.db, roomId, [
        { role: 'user', content: 'Still there?', status: 'complete' },
        {
          role: 'mate',
          content: 'Closing Soon nods.',
          status: 'complete',
          speakerId: closing.mateId,
        },
      ]);
      await refusedView();
    },
  );
});
