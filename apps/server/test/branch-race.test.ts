import { describe, expect, it, onTestFinished } from 'vitest';
import { ApiError, type ChatStreamEvent } from '@mates/api-client';
import { DIALECTS, postgresAvailable, seededMate, signUp, rowsOf } from './harness';
import { serverWithDouble } from './server-with-double';
import { branchRoom } from '../src/chat/branch-service';

// "Branch from here" holds the room's lock while it reads and copies, as an edit does. It had
// only checked that the room was idle (`isBusy`) and then read its messages: a regeneration
// (another tab) that took the room between the branch's read of the reply and its read of the
// messages deleted that reply and wrote its new version in its place, and the branch was made
// of what was there then (the reply missing, or a frozen part of the new one, and no fork
// link), found by an outside review. Now the regeneration waits for the branch: it is refused
// as any send beside a change of the room's messages.
const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('a branch beside a regeneration, on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const suite = serverWithDouble(dialect, { skip, saveEveryMs: 20 });

  it.skipIf(skip).each([
    ['as the regeneration just started (no word saved yet: the usual case)', 0],
    ['once the regeneration saved a few words', 4],
  ])('holds the reply branched from, whole, %s', async (_, wordsFirst) => {
    const { client, userInfo } = await signUp(suite.server);
    const mate = await seededMate(suite.server.db, 'Kai Tanaka');
    const { roomId } = await client.room.createRoom({ mateId: mate.id });
    suite.double.next({ kind: 'stream', pieces: ['Once upon a time, a lighthouse.'] });
    await client.girl.chatSend({ roomId, content: 'Tell me a story.' }, { onData: () => {} });
    const reply = (await client.room.roomInfo({ roomId })).messages.at(-1)!;
    expect(reply.content).toBe('Once upon a time, a lighthouse.');

    const { deps, db } = suite.server;
    const { user } = await rowsOf(db, userInfo.uuid);
    // The regeneration (another tab) takes the room just after the branch found it idle, and
    // has written a few words when the branch reads the messages.
    // Through a route, not the queue: a refused regeneration leaves nothing queued for the next
    // test's send.
    let regenerationAsked = false;
    suite.double.route(() =>
      regenerationAsked
        ? {
            kind: 'stream',
            pieces: Array.from({ length: 30 }, (_, index) => `w${index} `),
            delayMs: 15,
          }
        : undefined,
    );
    onTestFinished(() => suite.double.route(() => undefined));
    let regenerating: Promise<unknown> = Promise.resolve();
    // Run where the branch counts itself against its rate limit: after the fork's read, before
    // the messages' read.
    const limiter = Object.create(deps.limits.branch) as typeof deps.limits.branch;
    limiter.consume = async (key: string | number) => {
      let deltas = 0;
      let enough!: () => void;
      const wrote = new Promise<void>((resolve) => (enough = resolve));
      regenerationAsked = true;
      regenerating = client.girl
        .chatSend(
          { roomId, regenerate: true },
          {
            onData: (event: ChatStreamEvent) => {
              if (event.type === 'reply-start' && wordsFirst === 0) enough();
              if (event.type === 'reply-delta' && ++deltas === wordsFirst) enough();
            },
          },
        )
        .then(
          () => 'written',
          (error: unknown) => (ApiError.isInstance(error) ? error.code : String(error)),
        );
      await Promise.race([wrote, regenerating]);
      // A save of the growing reply (every 20 ms here, every second by default).
      if (wordsFirst) await new Promise((resolve) => setTimeout(resolve, 60));
      return deps.limits.branch.consume(key);
    };
    const branch = await branchRoom(
      { db, config: deps.config, chat: deps.chat, limits: { branch: limiter } },
      user,
      { roomId, messageId: reply.messageId },
    );
    // Refused while the branch is made: the person's other tab says a change is under way.
    expect(await regenerating).toBe(5007);
    const copied = (await client.room.roomInfo({ roomId: branch.roomId })).messages;
    const { branches } = await client.room.branches({ roomId: branch.roomId });
    expect(copied.at(-1)).toMatchObject({
      content: 'Once upon a time, a lighthouse.',
      status: 'complete',
    });
    expect(branches.at(-1)!.fork?.messageId).toBe(copied.at(-1)!.messageId);
  });
});
