import { describe, expect, it } from 'vitest';
import { chattableMateId, DIALECTS, postgresAvailable, signUp } from './harness';
import { memoryRun, memoryServer, writerDeps } from './memory-helpers';
import { appendMessages } from '../src/chat/messages';
import { writeMemories } from '../src/chat/memory-writer';
import type { LanguageModel } from '../src/llm/language-model';

// An edit marks what was remembered of a message's old words for review (`markMemoriesOf`, in
// the edit's transaction). The memory writer reads a window of messages, asks the model
// (seconds), then writes its facts: an edit made while it asked found nothing to mark yet, and
// the facts of the old words were written unmarked, as if still true (found by an outside
// review). The writer now marks what it made of words changed since it read them.
const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('memories written while a message is edited, on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  const suite = memoryServer(dialect, { skip, contextSize: 4000 });

  /**
   * A room of twenty lines, the third "I am allergic to peanuts.", and a run of the memory
   * writer whose model (a fact of each line it is shown, citing it) waits for `release`.
   */
  async function writerAsking(user: Awaited<ReturnType<typeof signUp>>) {
    const db = suite.server.db;
    const { roomId } = await user.client.room.createRoom({ mateId: await chattableMateId(db) });
    const rows = await appendMessages(
      db,
      roomId,
      Array.from({ length: 20 }, (_, i) => ({
        role: i % 2 ? ('mate' as const) : ('user' as const),
        content: i === 2 ? 'I am allergic to peanuts.' : `Line ${i}.`,
        status: 'complete' as const,
      })),
    );
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const asking = new Promise<void>((resolve) => (asked = resolve));
    const model: LanguageModel = {
      ...suite.server.deps.chat.model,
      async generate(turns, _options, onText) {
        asked();
        await gate;
        const lines = turns[1]!.content.split('\n').filter((l) => /^\[\d+\] /.test(l));
        const facts = lines
          .map((l) => /^\[(\d+)\] [^:]+: (.*)$/.exec(l)!)
          .map((m) => ({ text: m[2], about: 'person', from: [Number(m[1])] }));
        onText(JSON.stringify({ summary: 'The person is allergic to peanuts.', facts }));
        return { finishReason: 'stop', promptTokens: 1, completionTokens: 1 };
      },
    };
    const run = writeMemories(writerDeps(suite.server, model), memoryRun(roomId, 18));
    await asking;
    const peanuts = rows.find((row) => row.content === 'I am allergic to peanuts.')!;
    return { roomId, peanuts, run, release };
  }

  /** The room's memories of the old words ("allergic to peanuts"). */
  const aboutPeanuts = async (user: Awaited<ReturnType<typeof signUp>>, roomId: string) =>
    (await user.client.room.memories({ roomId })).memories.filter((m) =>
      m.content.includes('allergic to peanuts'),
    );

  it.skipIf(skip)('never keeps, unmarked, a fact of words the person changed', async () => {
    const user = await signUp(suite.server);
    const { roomId, peanuts, run, release } = await writerAsking(user);
    // While the model writes, the person corrects their message.
    await user.client.room.editMessage({
      roomId,
      messageId: peanuts.id,
      content: 'I am allergic to shellfish, not peanuts.',
    });
    release();
    await run;
    const stale = await aboutPeanuts(user, roomId);
    expect(stale.length).toBeGreaterThan(0);
    // Each is marked for the person to check, as an edit made after it was written marks it.
    expect(stale.map((m) => [m.kind, m.content, m.needsReview])).toEqual(
      stale.map((m) => [m.kind, m.content, true]),
    );
  });

  it.skipIf(skip)(
    'keeps an edit or delete racing the writer’s write whole, and what is stale marked',
    async () => {
      const user = await signUp(suite.server);
      for (let round = 0; round < 6; round += 1) {
        const { roomId, peanuts, run, release } = await writerAsking(user);
        // The person's change goes as the writer writes: either may take the room first.
        release();
        const change =
          round % 2 === 0
            ? user.client.room.editMessage({
                roomId,
                messageId: peanuts.id,
                content: 'I am allergic to shellfish, not peanuts.',
              })
            : user.client.room.deleteMessage({ roomId, messageId: peanuts.id });
        // A message deleted under the writer makes its write fail on the message's foreign key,
        // and the job runs again later; a deadlock is never the reason.
        const ran = run.then(
          () => null,
          (error: Error) => error.message,
        );
        await change;
        expect(String(await ran)).not.toMatch(/deadlock/);
        for (const memory of await aboutPeanuts(user, roomId))
          expect([memory.kind, memory.content, memory.needsReview]).toEqual([
            memory.kind,
            memory.content,
            true,
          ]);
      }
    },
  );
});
