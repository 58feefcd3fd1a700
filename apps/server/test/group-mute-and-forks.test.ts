import { describe, expect, it } from 'vitest';
import type { ChatStreamEvent } from '@mates/api-client';
import { DIALECTS, postgresAvailable, seededMate, signUp } from './harness';
import { serverWithDouble } from './server-with-double';

// Found by an outside review of group chats, memory and branches.
const withPostgres = await postgresAvailable();

type Turn = { role: string; content: string };
const LYRA = 'Lyra Moonwhisper';
const KAI = 'Kai Tanaka';
const IONE = 'Captain Ione Vask';

describe.each(DIALECTS)('group chats as people use them on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const suite = serverWithDouble(dialect, { skip });

  const speakerOf = (body: Record<string, unknown>) =>
    /You are (.+?) in a group/.exec((body.messages as Turn[])[0]!.content)?.[1];

  async function group(turnOrder: 'natural' | 'list' | 'manual' = 'list') {
    const user = await signUp(suite.server);
    const mates = await Promise.all(
      [LYRA, KAI, IONE].map((name) => seededMate(suite.server.db, name)),
    );
    const room = await user.client.room.createGroup({
      mateIds: mates.map((mate) => mate.id),
      turnOrder,
    });
    return { ...user, room, roomId: room.roomId, ids: mates.map((mate) => mate.id) };
  }

  async function send(
    client: Awaited<ReturnType<typeof signUp>>['client'],
    payload: Parameters<typeof client.girl.chatSend>[0],
    onEvent?: (event: ChatStreamEvent) => void,
  ) {
    const events: ChatStreamEvent[] = [];
    await client.girl.chatSend(payload, {
      onData: (event) => {
        events.push(event);
        onEvent?.(event);
      },
    });
    return events;
  }

  const startsOf = (events: ChatStreamEvent[]) =>
    events.flatMap((event) => (event.type === 'reply-start' ? [event.speakerId] : []));

  it.skipIf(skip)(
    'a member muted while the turn is written does not speak in it, nor is charged',
    async () => {
      const { client, roomId, ids } = await group('list');
      suite.double.route((body) =>
        speakerOf(body) === LYRA
          ? { kind: 'stream', pieces: ['Let', ' me', ' think.'], delayMs: 80 }
          : { kind: 'stream', pieces: [`${speakerOf(body)} speaks.`] },
      );
      const before = (await client.user.benefits()).chats;
      let muted: Promise<unknown> | null = null;
      const events = await send(client, { roomId, content: 'Evening.' }, (event) => {
        // While Lyra still speaks, the person mutes Ione (the web allows it mid-turn).
        if (event.type === 'reply-start' && event.speakerId === ids[0])
          muted = client.room.updateGroupMember({ roomId, mateId: ids[2]!, muted: true });
      });
      await muted;
      expect(startsOf(events)).toEqual([ids[0], ids[1]]);
      expect((await client.user.benefits()).chats).toBe(before - 2);
    },
  );

  it.skipIf(skip)(
    'a branch from a reply keeps its fork after that reply is regenerated in either path',
    async () => {
      suite.double.route((body) => ({ kind: 'stream', pieces: [`${speakerOf(body)} speaks.`] }));
      const { client, roomId, ids } = await group('list');
      await send(client, { roomId, content: 'Evening.' });
      // "Branch from here" on the last speaker's reply, then another version of it there.
      const replies = (await client.room.roomInfo({ roomId })).messages;
      const fork = replies.at(-1)!;
      expect(fork.speakerId).toBe(ids[2]);
      const branch = await client.room.branch({ roomId, messageId: fork.messageId });
      await send(client, { roomId: branch.roomId, regenerate: true });
      // And in the first path too.
      await send(client, { roomId, regenerate: true });
      const paths = (await client.room.branches({ roomId })).branches;
      const made = paths.find((path) => path.roomId === branch.roomId)!;
      const inBranch = (await client.room.roomInfo({ roomId: branch.roomId })).messages;
      const inFirst = (await client.room.roomInfo({ roomId })).messages;
      // The switcher ("‹ 2 / 2 ›") hangs on these ids: each must still be a message of its path.
      expect(inBranch.map((m) => m.messageId)).toContain(made.fork!.messageId);
      expect(inFirst.map((m) => m.messageId)).toContain(made.fork!.parentMessageId);
    },
  );
});
