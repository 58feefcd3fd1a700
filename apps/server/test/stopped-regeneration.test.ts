import { describe, expect, it } from 'vitest';
import {
  DIALECTS,
  postgresAvailable,
  regenerateWithReaderGone,
  seededMate,
  signUp,
} from './harness';
import { serverWithDouble } from './server-with-double';

// A regeneration taken back before its first word ("Stop" at once, or the tab closed) gives
// back the version it was to replace, the one the person had chosen (`dropStoppedReply`), not
// the last of the reply's versions (found by an outside review).
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
    await regenerateWithReaderGone(suite.server.deps, userInfo.uuid, roomId);
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
