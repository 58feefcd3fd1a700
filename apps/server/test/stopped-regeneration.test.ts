import { describe, expect, it } from 'vitest';
import { DIALECTS, postgresAvailable, seededMate, signUp, rowsOf } from './harness';
import { serverWithDouble } from './server-with-double';
import { sendTurn } from '../src/chat/send-service';
import { silentLogger } from '../src/logging/logger';

// a regeneration taken back before its first word ("Stop" at once, or the tab closed)
// is meant to give back the version it was to replace (`dropStoppedReply`). It gives back the
// LAST of the reply's versions instead, whichever the person had chosen (`kept.at(-1)`).
const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('a regeneration stopped before its first word, on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const suite = serverWithDouble(dialect, { skip });

  it.skipIf(skip)('gives back the version the person had chosen', async () => {
    const { client, userInfo } = await signUp(suite.server);
    const mate = await seededMate(suite.server.db, 'Kai Tanaka');
    const { roomId } = await client.room.createRoom({ mateId: mate.id });
    const send = (payload: Parameters<typeof client.girl.chatSend>[0]) =>
      client.girl.chatSend(payload, { onData: () => {} });
    suite.double.next({ kind: 'stream', pieces: ['The answer I like.'] });
    await send({ roomId, content: 'Tell me a story.' });
    suite.double.next({ kind: 'stream', pieces: ['An answer I do not like.'] });
    await send({ roomId, regenerate: true });
    let last = (await client.room.roomInfo({ roomId })).messages.at(-1)!;
    // The person goes back to the version they like, and edits it a little.
    last = await client.room.chooseSwipe({ roomId, messageId: last.messageId, index: 0 });
    await client.room.editMessage({
      roomId,
      messageId: last.messageId,
      content: 'The answer I like, in my words.',
    });
    const before = (await client.room.roomInfo({ roomId })).messages.at(-1)!;
    expect(before).toMatchObject({
      content: 'The answer I like, in my words.',
      swipes: { index: 0, count: 2 },
    });

    // They regenerate once more, and the tab closes before a word comes (as swipes.test.ts).
    const { deps } = suite.server;
    const { user } = await rowsOf(deps.db, userInfo.uuid);
    await sendTurn(
      { db: deps.db, chat: deps.chat, config: deps.config },
      {
        user,
        request: { roomId, regenerate: true },
        language: 'en',
        log: silentLogger(),
        started: () => {},
        open: (controller) => {
          controller.abort();
          return { send: () => {}, done: () => {} };
        },
      },
    );
    const after = (await client.room.roomInfo({ roomId })).messages.at(-1)!;
    expect({ content: after.content, swipes: after.swipes }).toEqual({
      content: before.content,
      swipes: before.swipes,
    });
    // What the model is shown next: the version the person chose.
    suite.double.next({ kind: 'stream', pieces: ['Ok.'] });
    await send({ roomId, content: 'Go on.' });
    const prompt = JSON.stringify(suite.double.requests.at(-1)!.body.messages);
    expect(prompt).toContain('in my words');
    expect(prompt).not.toContain('An answer I do not like.');
  });
});
