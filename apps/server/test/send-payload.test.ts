import { describe, expect, it } from 'vitest';
import { ApiError, type ChatSendPayload } from '@mates/api-client';
import { seededMate, signUp } from './harness';
import { serverWithDouble } from './server-with-double';

// A send names one of three things: a new message, a regeneration (from one of the person's
// messages, or the last), or one more reply in a group (by a speaker, or the next). A field of
// another kind of send was dropped without a word: `{ content, speakerId }` was sent as a plain
// message, whoever it was meant for. Bad input is refused, and changes nothing.
describe('a send that mixes the fields of two kinds of send', () => {
  const suite = serverWithDouble('sqlite');

  it('is refused (4000, naming the field), and nothing is written or spent', async () => {
    const { client } = await signUp(suite.server);
    const mate = await seededMate(suite.server.db, 'Kai Tanaka');
    const { roomId } = await client.room.createRoom({ mateId: mate.id });
    suite.double.route(() => ({ kind: 'stream', pieces: ['Hello.'] }));
    await client.girl.chatSend({ roomId, content: 'Hi.' }, { onData: () => {} });
    const [firstMessage] = (await client.room.roomInfo({ roomId })).messages.filter(
      (message) => message.role === 'user',
    );
    const before = {
      messages: (await client.room.roomInfo({ roomId })).messages,
      chats: (await client.user.benefits()).chats,
    };
    const mixed = [
      { roomId, content: 'For Kai only.', speakerId: mate.id },
      { roomId, content: 'From there.', fromMessageId: firstMessage!.messageId },
      { roomId, regenerate: true, speakerId: mate.id },
      { roomId, next: true, fromMessageId: firstMessage!.messageId },
    ];
    const answers = [];
    for (const payload of mixed)
      answers.push(
        await client.girl
          .chatSend(payload as unknown as ChatSendPayload, { onData: () => {} })
          .then(
            () => 'sent',
            (error: unknown) =>
              error instanceof ApiError ? `${error.code} ${error.message}` : error,
          ),
      );
    expect(answers).toEqual([
      expect.stringMatching(/^4000 speakerId: /),
      expect.stringMatching(/^4000 fromMessageId: /),
      expect.stringMatching(/^4000 speakerId: /),
      expect.stringMatching(/^4000 fromMessageId: /),
    ]);
    expect({
      messages: (await client.room.roomInfo({ roomId })).messages,
      chats: (await client.user.benefits()).chats,
    }).toEqual(before);
  });
});

// Found from outside (2026-12-03): a message of zero-width characters only (U+200B, U+200C,
// U+200D, U+2060) passed the check that refuses spaces alone: saved as an invisible message,
// answered, and charged a chat. An edit to such a text was kept too.
describe('a message with nothing visible in it', () => {
  const suite = serverWithDouble('sqlite');

  it('is refused as empty, sent or edited, and nothing is written or spent', async () => {
    const { client } = await signUp(suite.server);
    const mate = await seededMate(suite.server.db, 'Kai Tanaka');
    const { roomId } = await client.room.createRoom({ mateId: mate.id });
    suite.double.route(() => ({ kind: 'stream', pieces: ['Hello.'] }));
    await client.girl.chatSend({ roomId, content: 'Hi.' }, { onData: () => {} });
    const before = {
      messages: (await client.room.roomInfo({ roomId })).messages,
      chats: (await client.user.benefits()).chats,
    };
    const mine = before.messages.find((message) => message.role === 'user')!;
    const invisible = '\u200b\u200c \u200d\u2060\ufeff\u00ad\u3164\u2800\ufe0f\u0007';
    await expect(
      client.girl.chatSend({ roomId, content: invisible }, { onData: () => {} }),
    ).rejects.toMatchObject({ code: 4000, message: 'content: is required' });
    await expect(
      client.room.editMessage({ roomId, messageId: mine.messageId, content: invisible }),
    ).rejects.toMatchObject({ code: 4000, message: 'content: is required' });
    expect({
      messages: (await client.room.roomInfo({ roomId })).messages,
      chats: (await client.user.benefits()).chats,
    }).toEqual(before);
    // A joiner inside something visible is part of it (👩‍💻 is three code points), and so is an
    // accent written after its letter.
    await client.room.editMessage({
      roomId,
      messageId: mine.messageId,
      content: 'Hi 👩\u200d💻 e\u0301',
    });
  });
});

// Found from outside (2026-12-03, later): a memory of zero-width spaces, or of a bell and a
// terminal's colour code, was saved and went into every prompt; a group renamed to nothing
// visible showed an empty title. Both take what a person writes as a message does.
describe('a memory or a group name with nothing visible in it', () => {
  const suite = serverWithDouble('sqlite');

  it('is refused as empty, and nothing is written', async () => {
    const { client } = await signUp(suite.server);
    const kai = await seededMate(suite.server.db, 'Kai Tanaka');
    const lyra = await seededMate(suite.server.db, 'Lyra Moonwhisper');
    const { roomId } = await client.room.createRoom({ mateId: kai.id });
    const kept = await client.room.saveMemory({ roomId, content: 'Her sister is called Ana.' });
    const group = await client.room.createGroup({ mateIds: [kai.id, lyra.id], name: 'Tavern' });
    const before = {
      memories: await client.room.memories({ roomId }),
      group: (await client.room.roomInfo({ roomId: group.roomId })).room,
    };
    for (const invisible of ['\u200b\u200b', '\u0007\u001b', '\u3164 \u2800']) {
      await expect(client.room.saveMemory({ roomId, content: invisible })).rejects.toMatchObject({
        code: 4000,
        message: 'content: is required',
      });
      await expect(
        client.room.saveMemory({ roomId, memoryId: kept.memoryId, content: invisible }),
      ).rejects.toMatchObject({ code: 4000, message: 'content: is required' });
      await expect(
        client.room.updateGroup({ roomId: group.roomId, name: invisible }),
      ).rejects.toMatchObject({ code: 4000, message: 'name: is required' });
    }
    expect({
      memories: await client.room.memories({ roomId }),
      group: (await client.room.roomInfo({ roomId: group.roomId })).room,
    }).toEqual(before);
    // A new group named with nothing visible is named by its members, as one left unnamed.
    const unnamed = await client.room.createGroup({
      mateIds: [kai.id, lyra.id],
      name: '\u200b\u2800',
    });
    expect(unnamed.group?.name).toBe('Kai Tanaka, Lyra Moonwhisper');
  });
});
