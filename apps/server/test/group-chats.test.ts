import { describe, expect, it } from 'vitest';
import { ApiError, GROUP_LIMITS, type ChatStreamEvent } from '@mates/api-client';
import {
  DIALECTS,
  insertUser,
  mateRow,
  postgresAvailable,
  seededMate,
  signUp,
  rowsOf,
} from './harness';
import { serverWithDouble } from './server-with-double';
import { appendMessages } from '../src/chat/messages';
import { recoverAbandonedReplies } from '../src/chat/recover-replies';
import { startNextReply } from '../src/chat/turn-service';
import { messageToSpeak } from '../src/voice/speech-clip-repository';

// Group chats (#40): several mates in one room, answering in turn on one stream, each reply
// by its speaker, with its own prompt, charged as one chat.
const withPostgres = await postgresAvailable();

type Turn = { role: string; content: string };
const LYRA = 'Lyra Moonwhisper';
const KAI = 'Kai Tanaka';
const IONE = 'Captain Ione Vask';

describe.each(DIALECTS)('group chats on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const suite = serverWithDouble(dialect, { skip });

  /** Who a prompt is for: its system turn's "You are X in a group…". */
  const speakerOf = (body: Record<string, unknown>) =>
    /You are (.+?) in a group/.exec((body.messages as Turn[])[0]!.content)?.[1];

  /** Each mate answers in its own words, so a reply shows whose prompt it came from. */
  function answerByName() {
    suite.double.route((body) => {
      const name = speakerOf(body);
      return name ? { kind: 'stream', pieces: [`${name}`, ' speaks.'] } : undefined;
    });
  }

  async function group(
    options: { turnOrder?: 'natural' | 'list' | 'manual'; names?: string[] } = {},
  ) {
    const user = await signUp(suite.server);
    const names = options.names ?? [LYRA, KAI, IONE];
    const mates = await Promise.all(names.map((name) => seededMate(suite.server.db, name)));
    const room = await user.client.room.createGroup({
      mateIds: mates.map((mate) => mate.id),
      turnOrder: options.turnOrder ?? 'list',
      scenario: 'A tavern on a stormy night.',
    });
    return { ...user, room, roomId: room.roomId, ids: mates.map((mate) => mate.id) };
  }

  async function send(
    client: Awaited<ReturnType<typeof signUp>>['client'],
    payload: Parameters<typeof client.girl.chatSend>[0],
    onEvent?: (event: ChatStreamEvent, abort: () => void) => void,
  ) {
    const events: ChatStreamEvent[] = [];
    const controller = new AbortController();
    await client.girl
      .chatSend(payload, {
        signal: controller.signal,
        onData: (event) => {
          events.push(event);
          onEvent?.(event, () => controller.abort());
        },
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) throw error;
      });
    return events;
  }

  const startsOf = (events: ChatStreamEvent[]) =>
    events.flatMap((event) => (event.type === 'reply-start' ? [event.speakerId] : []));

  it.skipIf(skip)('opens with its first member greeting, members in order', async () => {
    const { client, roomId, ids, room } = await group();
    expect(room.group?.members.map((member) => member.mate.mateId)).toEqual(ids);
    expect(room.group).toMatchObject({ name: `${LYRA}, ${KAI}, ${IONE}`, turnOrder: 'list' });
    const info = await client.room.roomInfo({ roomId });
    expect(info.room.group?.scenario).toBe('A tavern on a stormy night.');
    expect(info.messages).toHaveLength(1);
    expect(info.messages[0]).toMatchObject({ role: 'mate', speakerId: ids[0] });
    expect(info.readOnly).toBeNull();
    const listed = (await client.room.roomList({ page: 1, pageSize: 20 })).list;
    expect(listed.find((row) => row.roomId === roomId)?.group?.members).toHaveLength(3);
  });

  it.skipIf(skip)('refuses bad groups with a clear error, and makes nothing', async () => {
    const user = await signUp(suite.server);
    const lyra = (await seededMate(suite.server.db, LYRA)).id;
    const kai = (await seededMate(suite.server.db, KAI)).id;
    // Another person's private mate is not one this person may chat with.
    await insertUser(suite.server.db, { id: 'group-stranger', email: 'gs@example.com' });
    const secret = mateRow('group-stranger', { name: 'Secret', visibility: 'private' });
    await suite.server.db.insertInto('mates').values(secret).execute();
    const refusals = await Promise.all(
      [
        { mateIds: [lyra, lyra] },
        { mateIds: [lyra] },
        { mateIds: [lyra, kai, 'a', 'b', 'c', 'd', 'e'] },
        { mateIds: [lyra, 'no-such-mate'] },
        { mateIds: [lyra, secret.id] },
      ].map((payload) =>
        user.client.room.createGroup(payload).then(
          () => null,
          (error: ApiError) => error.code,
        ),
      ),
    );
    expect(refusals).toEqual([4000, 4000, 4000, 4000, 4000]);
    expect((await user.client.room.roomList({ page: 1, pageSize: 20 })).total).toBe(0);
  });

  it.skipIf(skip)('answers in list order, each with its own prompt, a chat each', async () => {
    answerByName();
    const { client, roomId, ids } = await group({ turnOrder: 'list' });
    const before = (await client.user.benefits()).chats;
    const from = suite.double.requests.length;
    const events = await send(client, { roomId, content: 'Evening, everyone.' });
    expect(startsOf(events)).toEqual(ids);
    expect(events.filter((event) => event.type === 'reply-end')).toHaveLength(3);
    const prompts = suite.double.requests.slice(from).map((request) => request.body);
    expect(prompts.map(speakerOf)).toEqual([LYRA, KAI, IONE]);
    // Kai's prompt: the scene, the others, Lyra's reply as hers, the person's words as theirs.
    const kai = prompts[1]!.messages as Turn[];
    expect(kai[0]!.content).toContain('Scenario: A tavern on a stormy night.');
    expect(kai[0]!.content).toContain(`- ${LYRA}`);
    expect(kai.at(-1)).toEqual({ role: 'user', content: `${LYRA}: ${LYRA} speaks.` });
    expect(
      kai.some((turn) => turn.role === 'user' && turn.content.endsWith(': Evening, everyone.')),
    ).toBe(true);
    // Ione's prompt: her own earlier replies would be hers; Kai's is his, named.
    expect((prompts[2]!.messages as Turn[]).at(-1)!.content).toBe(`${KAI}: ${KAI} speaks.`);
    const info = await client.room.roomInfo({ roomId });
    expect(info.messages.slice(-3).map((m) => [m.speakerId, m.content])).toEqual(
      ids.map((id, index) => [id, `${[LYRA, KAI, IONE][index]} speaks.`]),
    );
    expect((await client.user.benefits()).chats).toBe(before - 3);
  });

  it.skipIf(skip)(
    'asks those named first, skips the muted, and lets a muted one speak when named',
    async () => {
      answerByName();
      const { client, roomId, ids } = await group({ turnOrder: 'list' });
      await client.room.updateGroupMember({ roomId, mateId: ids[1]!, muted: true });
      expect(startsOf(await send(client, { roomId, content: 'Hello there.' }))).toEqual([
        ids[0],
        ids[2],
      ]);
      expect(startsOf(await send(client, { roomId, content: 'Ione, and you Kai?' }))).toEqual([
        ids[2],
        ids[1],
        ids[0],
      ]);
    },
  );

  it.skipIf(skip)(
    "says who each other member is in its own name, never the speaker's ({{char}} in its card)",
    async () => {
      answerByName();
      const { client, roomId, ids, userInfo } = await group({ turnOrder: 'list' });
      // Cards say "{{char}}" for themselves (SillyTavern's; V1 cards "<BOT>"): Lyra's is about
      // Lyra, not Kai.
      await suite.server.db
        .updateTable('mates')
        .set({ tagline: '{{char}} sings to {{user}} of the sea, as <bot> did.' })
        .where('id', '=', ids[0]!)
        .execute();
      const from = suite.double.requests.length;
      await send(client, { roomId, content: 'Evening, everyone.' });
      const kai = suite.double.requests
        .slice(from)
        .map((request) => request.body)
        .find((body) => speakerOf(body) === KAI)!;
      const system = (kai.messages as Turn[])[0]!.content;
      expect(system).toContain(
        `- ${LYRA}: ${LYRA} sings to ${userInfo.nickname} of the sea, as ${LYRA} did.`,
      );
      expect(system).not.toContain(`${KAI} sings`);
    },
  );

  it.skipIf(skip)(
    'in manual order keeps the message, then lets the person choose who speaks',
    async () => {
      answerByName();
      const { client, roomId, ids } = await group({ turnOrder: 'manual' });
      const saved = await send(client, { roomId, content: 'Who wants to start?' });
      expect(saved).toEqual([
        expect.objectContaining({
          type: 'message-saved',
          userMessage: expect.objectContaining({ content: 'Who wants to start?' }),
        }),
      ]);
      expect(startsOf(await send(client, { roomId, next: true, speakerId: ids[2]! }))).toEqual([
        ids[2],
      ]);
      // "Continue": the next after the last speaker, round the list.
      expect(startsOf(await send(client, { roomId, next: true }))).toEqual([ids[0]]);
      const refused = await send(client, { roomId, next: true, speakerId: 'nobody' }).catch(
        (error: ApiError) => error.code,
      );
      expect(refused).toBe(4000);
      const info = await client.room.roomInfo({ roomId });
      expect(info.messages.map((m) => m.role)).toEqual(['mate', 'user', 'mate', 'mate']);
    },
  );

  it.skipIf(skip)(
    'in manual order, an edited message is answered by the one after who spoke before it',
    async () => {
      answerByName();
      const { client, roomId, ids } = await group({ turnOrder: 'manual' });
      await send(client, { roomId, content: 'Who wants to start?' });
      await send(client, { roomId, next: true, speakerId: ids[1]! });
      await send(client, { roomId, content: 'And then?' });
      await send(client, { roomId, next: true, speakerId: ids[0]! });
      const edited = (await client.room.roomInfo({ roomId })).messages.at(-2)!;
      expect(edited).toMatchObject({ role: 'user', content: 'And then?' });
      await client.room.editMessage({ roomId, messageId: edited.messageId, content: 'What next?' });
      // Kai spoke last before the edited message; Lyra's reply after it is gone with the edit.
      const events = await send(client, {
        roomId,
        regenerate: true,
        fromMessageId: edited.messageId,
      });
      expect(startsOf(events)).toEqual([ids[2]]);
    },
  );

  it.skipIf(skip)('regenerates a reply by the same speaker, as another version', async () => {
    answerByName();
    const { client, roomId, ids } = await group({ turnOrder: 'list' });
    await send(client, { roomId, content: 'Hi all.' });
    const events = await send(client, { roomId, regenerate: true });
    expect(startsOf(events)).toEqual([ids[2]]);
    const last = (await client.room.roomInfo({ roomId })).messages.at(-1)!;
    expect(last).toMatchObject({ speakerId: ids[2], swipes: { count: 2, index: 1 } });
  });

  it.skipIf(skip)('ends the whole turn when the person stops a speaker', async () => {
    const { client, roomId, ids } = await group({ turnOrder: 'list' });
    suite.double.route(() => ({
      kind: 'stream',
      pieces: ['One', ' two', ' three', ' four'],
      delayMs: 40,
    }));
    let starts = 0;
    const events = await send(client, { roomId, content: 'Talk slowly.' }, (event, abort) => {
      if (event.type === 'reply-start') starts += 1;
      if (event.type === 'reply-delta' && starts === 2) abort();
    });
    expect(startsOf(events)).toEqual([ids[0], ids[1]]);
    // The server notices the stop; what Kai had said stays, and Ione never starts.
    await expect.poll(async () => suite.server.deps.chat.isBusy(roomId)).toBe(false);
    const messages = (await client.room.roomInfo({ roomId })).messages;
    expect(messages.map((m) => m.speakerId ?? 'person')).toEqual([
      ids[0],
      'person',
      ids[0],
      ids[1],
    ]);
    expect(messages.at(-1)!.status).toBe('partial');
  });

  it.skipIf(skip)(
    'notes who leaves and joins; a mate its creator closes leaves for others',
    async () => {
      answerByName();
      await insertUser(suite.server.db, { id: 'group-creator', email: 'gc@example.com' });
      const guest = mateRow('group-creator', {
        name: 'Wandering Bard',
        visibility: 'public',
        first_mes: 'A song!',
      });
      await suite.server.db.insertInto('mates').values(guest).execute();
      const { client, roomId, ids } = await group({ turnOrder: 'list', names: [LYRA, KAI] });
      const joined = await client.room.addGroupMember({ roomId, mateId: guest.id });
      expect(joined.members.map((m) => m.mate.mateId)).toEqual([...ids, guest.id]);
      await send(client, { roomId, content: 'Play us something.' });
      // Its creator makes it private: it leaves this group, its reply stays under its name.
      await suite.server.db
        .updateTable('mates')
        .set({ visibility: 'private' })
        .where('id', '=', guest.id)
        .execute();
      const info = await client.room.roomInfo({ roomId });
      const bard = info.room.group!.members.find((m) => m.mate.mateId === guest.id)!;
      expect(bard.leftAt).not.toBeNull();
      expect(bard.mate).toMatchObject({ name: 'Wandering Bard', tagline: '', avatar: '' });
      expect(info.messages.some((m) => m.speakerId === guest.id)).toBe(true);
      expect(info.readOnly).toBeNull();
      const from = suite.double.requests.length;
      expect(startsOf(await send(client, { roomId, content: 'Again?' }))).toEqual(ids);
      // Its card reaches nobody's prompt now; its past words still do, as said.
      for (const request of suite.double.requests.slice(from))
        expect((request.body.messages as Turn[])[0]!.content).not.toContain('Wandering Bard');
      // Removing a member: it leaves, and a group keeps two at least.
      const tooFew = await client.room
        .removeGroupMember({ roomId, mateId: ids[1]! })
        .catch((error: ApiError) => error.code);
      expect(tooFew).toBe(5007);
      const ione = (await seededMate(suite.server.db, IONE)).id;
      await client.room.addGroupMember({ roomId, mateId: ione });
      const left = await client.room.removeGroupMember({ roomId, mateId: ids[1]! });
      expect(left.members.map((m) => [m.mate.mateId, m.leftAt === null])).toEqual([
        [ids[0], true],
        [ione, true],
        [guest.id, false],
        [ids[1], false],
      ]);
      expect(startsOf(await send(client, { roomId, content: 'Just us.' }))).toEqual([ids[0], ione]);
    },
  );

  it.skipIf(skip)(
    'answers a member change that names no change with the group as it is',
    async () => {
      const { client, roomId, ids } = await group({ turnOrder: 'list' });
      const before = await client.room.roomInfo({ roomId });
      const answered = await client.room.updateGroupMember({ roomId, mateId: ids[1]! });
      expect(answered).toEqual(before.room.group);
    },
  );

  it.skipIf(skip)('keeps a group from strangers', async () => {
    const { roomId } = await group();
    const stranger = await signUp(suite.server);
    const errors = await Promise.all([
      stranger.client.room.roomInfo({ roomId }).catch((e: ApiError) => e.code),
      stranger.client.room.addGroupMember({ roomId, mateId: 'x' }).catch((e: ApiError) => e.code),
      send(stranger.client, { roomId, content: 'Hi' }).catch((e: ApiError) => e.code),
    ]);
    expect(errors).toEqual([4004, 4004, 4004]);
  });

  it.skipIf(skip)(
    'bounds "Continue" in a row, however many answered the message before',
    async () => {
      answerByName();
      const { client, roomId } = await group({ turnOrder: 'list' });
      await send(client, { roomId, content: 'Talk among yourselves.' });
      let refusal: unknown = null;
      let continued = 0;
      for (let round = 0; round < 20 && !refusal; round += 1)
        await send(client, { roomId, next: true }).then(
          () => (continued += 1),
          (error: unknown) => (refusal = error),
        );
      expect(refusal).toBeInstanceOf(ApiError);
      expect((refusal as ApiError).code).toBe(5007);
      expect(continued).toBe(GROUP_LIMITS.continuesInRow);
      // The room says so to a page opened now (a reload, another tab).
      expect((await client.room.roomInfo({ roomId })).room.group?.continuesInRow).toBe(
        GROUP_LIMITS.continuesInRow,
      );
      // A message of the person's starts the count again.
      await send(client, { roomId, content: 'Go on, then.' });
      expect((await client.room.roomInfo({ roomId })).room.group?.continuesInRow).toBe(0);
      expect(startsOf(await send(client, { roomId, next: true }))).toHaveLength(1);
    },
  );

  it.skipIf(skip)(
    'starts the "Continue" count again when the person edits their message and it is answered again',
    async () => {
      answerByName();
      const { client, roomId } = await group({ turnOrder: 'list' });
      await send(client, { roomId, content: 'Talk among yourselves.' });
      for (let round = 0; round < GROUP_LIMITS.continuesInRow; round += 1)
        await send(client, { roomId, next: true });
      const message = (await client.room.roomInfo({ roomId })).messages.find(
        (m) => m.role === 'user',
      )!;
      await client.room.editMessage({
        roomId,
        messageId: message.messageId,
        content: 'Tell me a tale.',
      });
      // The edit takes the conversation on from the message: the "Continue"s after it are gone.
      await send(client, { roomId, regenerate: true, fromMessageId: message.messageId });
      const info = await client.room.roomInfo({ roomId });
      expect(info.messages.filter((m) => m.role === 'mate')).toHaveLength(4);
      expect(info.room.group?.continuesInRow).toBe(0);
      expect(startsOf(await send(client, { roomId, next: true }))).toHaveLength(1);
    },
  );

  it.skipIf(skip)(
    'counts "Continue" exactly: sends that read the room before another one ran are refused',
    async () => {
      answerByName();
      const { client, roomId } = await group({ turnOrder: 'list' });
      await send(client, { roomId, content: 'Talk among yourselves.' });
      const limit = GROUP_LIMITS.continuesInRow;
      await suite.server.db
        .updateTable('rooms')
        .set({ nexts_in_row: limit - 2 })
        .where('id', '=', roomId)
        .execute();
      // Five sends read the room (two "Continue"s left) and wait at its lock while two more
      // run whole; then the five take the lock in turn.
      const chat = suite.server.deps.chat;
      const begin = chat.begin;
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      let parked = 0;
      chat.begin = async (id) => {
        if (parked < 5) {
          parked += 1;
          await gate;
        }
        return begin(id);
      };
      try {
        const waiting = Array.from({ length: 5 }, () =>
          send(client, { roomId, next: true }).then(
            (events) => startsOf(events).length,
            (error: ApiError) => error.code,
          ),
        );
        await expect.poll(() => parked).toBe(5);
        for (let round = 0; round < 2; round += 1)
          expect(startsOf(await send(client, { roomId, next: true }))).toHaveLength(1);
        open();
        expect(await Promise.all(waiting)).toEqual([5007, 5007, 5007, 5007, 5007]);
      } finally {
        chat.begin = begin;
      }
      const room = await suite.server.db
        .selectFrom('rooms')
        .select('nexts_in_row')
        .where('id', '=', roomId)
        .executeTakeFirstOrThrow();
      expect(room.nexts_in_row).toBe(limit);
      const mates = (await client.room.roomInfo({ roomId })).messages.filter(
        (message) => message.role === 'mate',
      );
      // The greeting, three replies to the message, and two "Continue"s: never a third.
      expect(mates).toHaveLength(1 + 3 + 2);
    },
  );

  it.skipIf(skip)('changes members one at a time, never beside a turn, within 2 to 6', async () => {
    const user = await signUp(suite.server);
    const names = [LYRA, KAI, IONE, 'Rowan Ashdown', 'Dr. Mira Solberg'];
    const all = await suite.server.db
      .selectFrom('mates')
      .select('id')
      .where('visibility', '=', 'public')
      .where('nsfw', '=', false)
      .orderBy('id')
      .execute();
    const first = await Promise.all(names.map((name) => seededMate(suite.server.db, name)));
    const others = all.map((mate) => mate.id).filter((id) => !first.some((m) => m.id === id));
    const room = await user.client.room.createGroup({ mateIds: first.map((mate) => mate.id) });
    const roomId = room.roomId;
    // Three invitations at once into a group of five: one gets in, the others are refused.
    const invited = await Promise.allSettled(
      others.slice(0, 3).map((mateId) => user.client.room.addGroupMember({ roomId, mateId })),
    );
    const present = async () =>
      (await user.client.room.roomInfo({ roomId })).room.group!.members.filter(
        (member) => member.leftAt === null,
      );
    expect(await present()).toHaveLength(6);
    expect(invited.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of invited)
      if (outcome.status === 'rejected')
        expect([4000, 5007]).toContain((outcome.reason as ApiError).code);
    // Everyone removed at once: two stay.
    await Promise.allSettled(
      (await present()).map((member) =>
        user.client.room.removeGroupMember({ roomId, mateId: member.mate.mateId }),
      ),
    );
    expect((await present()).length).toBeGreaterThanOrEqual(2);
    // A removal while a turn is written waits for the turn: the turn's speakers stay whole.
    suite.double.route(() => ({ kind: 'stream', pieces: ['Slow', ' words.'], delayMs: 60 }));
    const [left] = (await present()).slice(-1);
    await user.client.room.addGroupMember({ roomId, mateId: others[5]! });
    const turn = send(user.client, { roomId, content: 'Hello, all.' });
    await expect.poll(() => suite.server.deps.chat.isBusy(roomId)).toBe(true);
    const removal = await user.client.room
      .removeGroupMember({ roomId, mateId: left!.mate.mateId })
      .catch((error: ApiError) => error.code);
    expect(removal).toBe(5007);
    await turn;
  });

  it.skipIf(skip)(
    'reorders the members: every present member once, under the lock, bad orders changing nothing',
    async () => {
      answerByName();
      const { client, roomId, ids } = await group({ turnOrder: 'list' });
      const [lyra, kai, ione] = ids as [string, string, string];
      await client.room.removeGroupMember({ roomId, mateId: ione });
      await client.room.addGroupMember({ roomId, mateId: ione });
      const members = async () =>
        (await client.room.roomInfo({ roomId })).room.group!.members.map((m) => m.mate.mateId);
      const answered = await client.room.updateGroup({
        roomId,
        order: [ione, lyra, kai],
        name: 'Reordered',
      });
      expect(answered.members.map((m) => m.mate.mateId)).toEqual([ione, lyra, kai]);
      expect(answered.name).toBe('Reordered');
      expect(await members()).toEqual([ione, lyra, kai]);
      // The list order speaks in the new order.
      expect(startsOf(await send(client, { roomId, content: 'Roll call.' }))).toEqual([
        ione,
        lyra,
        kai,
      ]);
      // One after another: side by side, all but one would wait for the lock (5007).
      const refusals: unknown[] = [];
      for (const order of [
        [lyra, kai],
        [lyra, lyra, kai],
        [lyra, kai, ione, 'no-such-mate'],
        [lyra, kai, 'x'],
        [],
      ])
        refusals.push(
          await client.room.updateGroup({ roomId, order, name: 'Changed' }).then(
            () => null,
            (error: ApiError) => error.code,
          ),
        );
      expect(refusals).toEqual([4000, 4000, 4000, 4000, 4000]);
      const after = await client.room.roomInfo({ roomId });
      expect(after.room.group!.name).toBe('Reordered');
      expect(after.room.group!.members.map((m) => m.mate.mateId)).toEqual([ione, lyra, kai]);
      // Not while a turn is written: its speakers were chosen in the list's order.
      suite.double.route(() => ({ kind: 'stream', pieces: ['Slow', ' words.'], delayMs: 60 }));
      const turn = send(client, { roomId, content: 'Again.' });
      await expect.poll(() => suite.server.deps.chat.isBusy(roomId)).toBe(true);
      const busy = await client.room
        .updateGroup({ roomId, order: [kai, lyra, ione] })
        .catch((error: ApiError) => error.code);
      expect(busy).toBe(5007);
      await turn;
      expect(await members()).toEqual([ione, lyra, kai]);
    },
  );

  it.skipIf(skip)(
    'keeps every stay of a mate invited back, so each join and leave stays noted',
    async () => {
      const { client, roomId, ids } = await group({ turnOrder: 'list' });
      const ione = ids[2]!;
      const member = async (id = roomId) =>
        (await client.room.roomInfo({ roomId: id })).room.group!.members.find(
          (m) => m.mate.mateId === ione,
        )!;
      const first = await member();
      expect(first.earlierStays).toEqual([]);
      await client.room.removeGroupMember({ roomId, mateId: ione });
      const left = (await member()).leftAt!;
      await client.room.addGroupMember({ roomId, mateId: ione });
      await client.room.removeGroupMember({ roomId, mateId: ione });
      const second = await member();
      await client.room.addGroupMember({ roomId, mateId: ione });
      const back = await member();
      expect(back.earlierStays).toEqual([
        { joinedAt: first.joinedAt, leftAt: left },
        { joinedAt: second.joinedAt, leftAt: second.leftAt },
      ]);
      expect(back.leftAt).toBeNull();
      expect(Date.parse(back.joinedAt)).toBeGreaterThanOrEqual(Date.parse(second.leftAt!));
      // A branch of the group keeps them too.
      const { messages } = await client.room.roomInfo({ roomId });
      const branch = await client.room.branch({ roomId, messageId: messages.at(-1)!.messageId });
      expect((await member(branch.roomId)).earlierStays).toEqual(back.earlierStays);
    },
  );

  it.skipIf(skip)(
    'keeps a reply whose writer left as it is, rather than another mate’s version of it',
    async () => {
      answerByName();
      const { client, roomId, ids } = await group({ turnOrder: 'list' });
      await send(client, { roomId, content: 'Hi all.' });
      await client.room.removeGroupMember({ roomId, mateId: ids[2]! });
      const refused = await send(client, { roomId, regenerate: true }).catch((error: ApiError) => [
        error.code,
        error.message,
      ]);
      expect(refused).toEqual([
        5007,
        `${IONE} left the group: the reply stays as it is. Let another mate speak instead.`,
      ]);
      const last = (await client.room.roomInfo({ roomId })).messages.at(-1)!;
      expect(last).toMatchObject({ speakerId: ids[2], content: `${IONE} speaks.` });
    },
  );

  it.skipIf(skip)('stops letting a mate speak once its creator closes it, mid-turn', async () => {
    await insertUser(suite.server.db, { id: 'closing-creator', email: 'cc@example.com' });
    const guest = mateRow('closing-creator', {
      name: 'Fickle Guest',
      visibility: 'public',
      first_mes: 'Hi!',
    });
    await suite.server.db.insertInto('mates').values(guest).execute();
    const kai = await seededMate(suite.server.db, KAI);
    const user = await signUp(suite.server);
    const room = await user.client.room.createGroup({
      mateIds: [kai.id, guest.id],
      turnOrder: 'list',
    });
    // Kai answers slowly; meanwhile the guest's creator makes it private.
    suite.double.route((body) =>
      speakerOf(body) === KAI
        ? { kind: 'stream', pieces: ['Let', ' me', ' think.'], delayMs: 80 }
        : { kind: 'stream', pieces: ['Secret card words.'] },
    );
    const turn = send(user.client, { roomId: room.roomId, content: 'Both of you?' });
    await expect.poll(() => suite.server.deps.chat.isBusy(room.roomId)).toBe(true);
    await suite.server.db
      .updateTable('mates')
      .set({ visibility: 'private' })
      .where('id', '=', guest.id)
      .execute();
    expect(startsOf(await turn)).toEqual([kai.id]);
    const { messages } = await user.client.room.roomInfo({ roomId: room.roomId });
    expect(
      messages.some(
        (m) => m.speakerId === guest.id && m.role === 'mate' && m.content.includes('Secret'),
      ),
    ).toBe(false);
  });

  it.skipIf(skip)(
    'keeps an adult mate a member while its person has adult content off',
    async () => {
      answerByName();
      const user = await signUp(suite.server);
      const db = suite.server.db;
      // Through the settings, as a person changes them (their session sees it at once).
      const adult = (nfsw: boolean) => user.client.user.updateTags({ tags: [], nfsw });
      await adult(true);
      const [kai, sable] = await Promise.all([KAI, 'Sable'].map((name) => seededMate(db, name)));
      const room = await user.client.room.createGroup({
        mateIds: [kai!.id, sable!.id],
        turnOrder: 'list',
      });
      await adult(false);
      // Off: Sable is quiet, shown by its name only, and still a member.
      expect(startsOf(await send(user.client, { roomId: room.roomId, content: 'Hello?' }))).toEqual(
        [kai!.id],
      );
      const quiet = (await user.client.room.roomInfo({ roomId: room.roomId })).room.group!.members;
      expect(quiet.find((m) => m.mate.mateId === sable!.id)).toMatchObject({
        leftAt: null,
        hidden: true,
        mate: { tagline: '' },
      });
      expect(quiet.find((m) => m.mate.mateId === kai!.id)?.hidden).toBe(false);
      // On again: Sable answers as before.
      await adult(true);
      expect(
        (await user.client.room.roomInfo({ roomId: room.roomId })).room.group!.members.map(
          (member) => member.hidden,
        ),
      ).toEqual([false, false]);
      expect(
        startsOf(await send(user.client, { roomId: room.roomId, content: 'Hello again?' })),
      ).toEqual([kai!.id, sable!.id]);
    },
  );

  it.skipIf(skip)(
    'branches as the same group, and exports each reply under its speaker',
    async () => {
      answerByName();
      const { client, roomId, ids } = await group({ turnOrder: 'list', names: [LYRA, KAI] });
      await send(client, { roomId, content: 'A toast!' });
      const { messages } = await client.room.roomInfo({ roomId });
      const branch = await client.room.branch({ roomId, messageId: messages.at(-1)!.messageId });
      const copy = await client.room.roomInfo({ roomId: branch.roomId });
      expect(copy.room.group?.members.map((m) => m.mate.mateId)).toEqual(ids);
      expect(copy.messages.map((m) => m.speakerId)).toEqual(messages.map((m) => m.speakerId));
      expect(startsOf(await send(client, { roomId: branch.roomId, content: 'Again!' }))).toEqual(
        ids,
      );
      // Found by a search, each reply is under its speaker.
      const hits = await client.room.searchMessages({ keyword: 'speaks' });
      expect(hits.list.filter((hit) => hit.roomId === roomId).map((hit) => hit.mate.name)).toEqual([
        KAI,
        LYRA,
      ]);
      // A member's own memory is said to be that member's.
      await client.room.saveMemory({ roomId, content: 'Owes Lyra a song.', mateId: ids[1]! });
      // What the mates wrote down: one of them for itself, and the group's shared facts.
      const at = new Date().toISOString();
      await suite.server.db
        .insertInto('memories')
        .values(
          [
            { content: 'Lyra hums when nervous.', mate_id: ids[0]! },
            { content: 'The tavern has a blue door.', mate_id: null },
          ].map((memory, index) => ({
            id: `${roomId}-mate-memory-${index}`,
            room_id: roomId,
            kind: 'fact',
            about: 'story',
            author: 'mate',
            created_at: at,
            updated_at: at,
            ...memory,
          })),
        )
        .execute();
      const markdown = await client.room.exportChat({ roomId, format: 'markdown' });
      expect(markdown.content).toContain(`**${KAI}:** ${KAI} speaks.`);
      expect(markdown.content).toContain(`- Owes Lyra a song. *(about the story; written by`);
      expect(markdown.content).toContain(`; ${KAI}'s own)*`);
      // Each under who wrote it: not the first member for all of them.
      expect(markdown.content).toContain(
        `- Lyra hums when nervous. *(about the story; written by ${LYRA}; ${LYRA}'s own)*`,
      );
      expect(markdown.content).toContain(
        `- The tavern has a blue door. *(about the story; written by ${LYRA}, ${KAI})*`,
      );
      expect(markdown.fileName.startsWith(`${LYRA}, ${KAI}`)).toBe(true);
      const lines = (await client.room.exportChat({ roomId, format: 'jsonl' })).content
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { name?: string; mes?: string });
      expect(lines.slice(-2).map((line) => line.name)).toEqual([LYRA, KAI]);
    },
  );

  it.skipIf(skip)(
    'exports the scenario the person wrote for the group, and its turn order',
    async () => {
      // "Export this branch" and "Download my data" take a group's chat away: the scenario the
      // person wrote for it was left behind (only its name and members went).
      const { client, roomId } = await group({ turnOrder: 'manual', names: [LYRA, KAI] });
      const exported = JSON.parse(
        (await client.room.exportChat({ roomId, format: 'json' })).content,
      ) as { group: { scenario: string | null; turnOrder: string } };
      expect(exported.group).toMatchObject({
        scenario: 'A tavern on a stormy night.',
        turnOrder: 'manual',
      });
      const markdown = await client.room.exportChat({ roomId, format: 'markdown' });
      expect(markdown.content).toContain('Scenario: A tavern on a stormy night.');
    },
  );

  it.skipIf(skip)('speaks each reply in its speaker’s voice', async () => {
    answerByName();
    const { client, roomId, ids, userInfo } = await group({
      turnOrder: 'list',
      names: [LYRA, KAI],
    });
    await suite.server.db
      .updateTable('mates')
      .set({ voice: 'kai-voice' })
      .where('id', '=', ids[1]!)
      .execute();
    await send(client, { roomId, content: 'Sing!' });
    const last = (await client.room.roomInfo({ roomId })).messages.at(-1)!;
    expect(last.speakerId).toBe(ids[1]);
    const spoken = await messageToSpeak(suite.server.db, userInfo.uuid, last.messageId);
    expect(spoken?.voice).toBe('kai-voice');
  });

  it.skipIf(skip)(
    'after a kill mid-turn, keeps what a speaker said and gives back the chat of one that had not begun',
    async () => {
      const { client, roomId, ids, userInfo } = await group({ turnOrder: 'list' });
      const db = suite.server.db;
      const before = (await client.user.benefits()).chats;
      // What a process killed mid-turn leaves: Lyra's reply done, Kai's half written, Ione's
      // paid for and empty.
      const { user, room } = await rowsOf(db, userInfo.uuid, roomId);
      await appendMessages(db, roomId, [
        { role: 'user', content: 'Tell me a story.', status: 'complete' },
        { role: 'mate', content: 'Once upon a time.', status: 'complete', speakerId: ids[0]! },
        { role: 'mate', content: 'There was a', status: 'partial', speakerId: ids[1]! },
      ]);
      await startNextReply(db, user, room, ids[2]!);
      expect((await client.user.benefits()).chats).toBe(before - 1);
      expect(await recoverAbandonedReplies(db, new Date(Date.now() + 60_000))).toBe(1);
      const messages = (await client.room.roomInfo({ roomId })).messages.slice(-3);
      expect(messages.map((m) => [m.speakerId, m.status, m.content])).toEqual([
        [ids[0], 'complete', 'Once upon a time.'],
        [ids[1], 'partial', 'There was a'],
        [ids[2], 'error', ''],
      ]);
      expect((await client.user.benefits()).chats).toBe(before);
      // The group goes on from there.
      expect(startsOf(await send(client, { roomId, next: true }))).toEqual([ids[0]]);
    },
  );

  it.skipIf(skip)(
    'gives each mate what it knows of the person from their own chats with it',
    async () => {
      answerByName();
      const user = await signUp(suite.server);
      const [lyra, kai] = await Promise.all(
        [LYRA, KAI].map((name) => seededMate(suite.server.db, name)),
      );
      // A one-to-one chat with Kai remembers a fact about the person, carried across chats.
      const alone = await user.client.room.createRoom({ mateId: kai!.id });
      await user.client.room.saveMemory({
        roomId: alone.roomId,
        content: 'Ada fears thunder.',
        about: 'person',
      });
      await user.client.room.setMemoryAcrossChats({ roomId: alone.roomId, enabled: true });
      const room = await user.client.room.createGroup({
        mateIds: [lyra!.id, kai!.id],
        turnOrder: 'list',
      });
      // The setting is one mate's: a group has several, each bringing its own.
      const perMate = await user.client.room
        .setMemoryAcrossChats({ roomId: room.roomId, enabled: false })
        .catch((error: ApiError) => error.code);
      expect(perMate).toBe(4000);
      const from = suite.double.requests.length;
      await send(user.client, { roomId: room.roomId, content: 'Listen to that storm.' });
      const systems = suite.double.requests
        .slice(from)
        .filter((request) => speakerOf(request.body))
        .map((request) => [speakerOf(request.body), (request.body.messages as Turn[])[0]!.content]);
      expect(systems.map(([name]) => name)).toEqual([LYRA, KAI]);
      expect(systems[0]![1]).not.toContain('Ada fears thunder.');
      expect(systems[1]![1]).toContain('Ada fears thunder.');
      // A fact learned later reaches Kai's prompt in the group too.
      await user.client.room.saveMemory({
        roomId: alone.roomId,
        content: 'Ada plays the cello.',
        about: 'person',
      });
      const next = suite.double.requests.length;
      await send(user.client, { roomId: room.roomId, next: true, speakerId: kai!.id });
      expect((suite.double.requests[next]!.body.messages as Turn[])[0]!.content).toContain(
        'Ada plays the cello.',
      );
    },
  );

  it.skipIf(skip)(
    'opens with the first member’s group-only greetings when its card has some',
    async () => {
      await insertUser(suite.server.db, { id: 'greeting-creator', email: 'greet@example.com' });
      const host = mateRow('greeting-creator', {
        name: 'Host Maren',
        visibility: 'public',
        first_mes: 'Just you and me tonight.',
        card_extra: {
          group_only_greetings: [
            '*{{char}} claps.* Welcome, all of you, {{user}} first!',
            'Sit anywhere.',
          ],
        },
      });
      await suite.server.db.insertInto('mates').values(host).execute();
      const user = await signUp(suite.server);
      const kai = await seededMate(suite.server.db, KAI);
      const room = await user.client.room.createGroup({ mateIds: [host.id, kai.id] });
      const [greeting] = (await user.client.room.roomInfo({ roomId: room.roomId })).messages;
      expect(greeting).toMatchObject({
        speakerId: host.id,
        content: `*Host Maren claps.* Welcome, all of you, ${user.userInfo.nickname} first!`,
        swipes: { index: 0, count: 2 },
      });
    },
  );
});
