import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { ChatStreamEvent } from '@mates/api-client';
import { seededMate, signUp } from './harness';
import { serverWithDouble } from './server-with-double';

// A database fault as a group's next speaker is started (the first reply gone out already) ends
// the stream as every other fault does: an `error` event the person reads, then its end. It had
// thrown out of the open stream: no `error`, and the first reply's `reply-end`, held back a few
// milliseconds to go out with what followed, was lost with it (found by an outside review).
describe('a fault starting the next speaker of a group turn (sqlite)', () => {
  const suite = serverWithDouble('sqlite');

  it('is told in the stream, after the first reply’s end', async () => {
    const { db } = suite.server;
    const person = await signUp(suite.server);
    const [lyra, kai] = await Promise.all(
      ['Lyra Moonwhisper', 'Kai Tanaka'].map((name) => seededMate(db, name)),
    );
    const { roomId } = await person.client.room.createGroup({
      mateIds: [lyra!.id, kai!.id],
      turnOrder: 'list',
    });
    // The second speaker's empty reply cannot be written (a disk fault at that moment).
    await sql
      .raw(
        `create trigger review_fault before insert on messages when new.speaker_id = '${kai!.id}' and new.content = '' begin select raise(abort, 'disk I/O error'); end`,
      )
      .execute(db);
    suite.double.route(() => ({ kind: 'stream', pieces: ['Hello', ' there.'] }));
    const events: ChatStreamEvent[] = [];
    let failure: unknown = null;
    await person.client.girl
      .chatSend(
        { roomId, content: 'Hello both of you.' },
        { signal: AbortSignal.timeout(8000), onData: (event) => events.push(event) },
      )
      .catch((error: unknown) => (failure = error));
    await sql.raw('drop trigger review_fault').execute(db);
    // The first reply's text may come in one piece or two.
    const types = [...new Set(events.map((event) => event.type))];
    expect({ types, failure: failure ? String(failure) : null }).toEqual({
      types: ['reply-start', 'reply-delta', 'reply-end', 'error'],
      failure: null,
    });
    expect(events.at(-1)).toMatchObject({
      message: 'Something went wrong on our side. Please try again.',
    });
    expect(suite.server.logs.join('\n')).toMatch(/disk I\/O error/);
  }, 20_000);
});
