import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { postgresAvailable, seededMate, signUp, rowsOf } from './harness';
import { serverWithDouble } from './server-with-double';
import { startTurn } from '../src/chat/turn-service';
import { appendMessage } from '../src/chat/message-repository';
import { spendGoldCoins } from '../src/accounts/benefits';

const withPostgres = await postgresAvailable();

// Every transaction that takes a room's row and a person's balances takes the room's first (a
// picture: its message appended, then its coins). A regeneration that gave back an abandoned
// reply's chat, or the coins of a clip paid for and never made, had taken the balances first,
// and deadlocked with a picture asked for at that moment (the first found by an outside
// review). PostgreSQL only: SQLite runs one writer at a time.
describe('a regeneration giving back a chat beside a picture being charged, on postgres', () => {
  const suite = serverWithDouble('postgres', { skip: !withPostgres });
  /** A room whose first turn `prepare` leaves as the regeneration finds it. */
  async function raceWithPicture(
    prepare: (turn: Awaited<ReturnType<typeof startTurn>>) => Promise<void>,
  ) {
    const { client, userInfo } = await signUp(suite.server);
    const { db } = suite.server;
    const mate = await seededMate(db, 'Kai Tanaka');
    const { roomId } = await client.room.createRoom({ mateId: mate.id });
    const { user, room } = await rowsOf(db, userInfo.uuid, roomId);
    await prepare(await startTurn(db, user, room, { roomId, content: 'Tell me a story.' }));
    // A picture being charged: its message appended (the room's row), then its coins.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let appended!: () => void;
    const didAppend = new Promise<void>((resolve) => (appended = resolve));
    const picture = db.transaction().execute(async (trx) => {
      const added = await appendMessage(trx, roomId, {
        role: 'mate',
        content: '',
        status: 'complete',
        picture: { prompt: 'a cat', size: '512x512' } as never,
      });
      appended();
      await gate;
      return spendGoldCoins(trx, user.id, 1, {
        reason: { key: 'ledger.reasons.picture' },
        reference: { type: 'message', id: added.id },
      });
    });
    await didAppend;
    const regen = startTurn(db, user, room, { roomId, regenerate: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    return Promise.allSettled([picture, regen]);
  }

  it.skipIf(!withPostgres)(
    'gives back an abandoned reply’s chat, and neither deadlocks',
    async () => {
      // A dead server's turn: charged, its reply left empty and partial.
      const results = await raceWithPicture(async () => {});
      expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
    },
  );

  it.skipIf(!withPostgres)(
    'gives back the coins of a clip paid for and never made, and neither deadlocks',
    async () => {
      const { db } = suite.server;
      const results = await raceWithPicture(async ({ reply, user }) => {
        await db
          .updateTable('messages')
          .set({ content: 'Once upon a time.', status: 'complete' })
          .where('id', '=', reply.id)
          .execute();
        // "Read it aloud" paid for, its clip not made yet (nobody is making it).
        await db
          .insertInto('speech_clips')
          .values({
            id: randomUUID(),
            message_id: reply.id,
            voice: 'alloy',
            text_hash: 'x'.repeat(64),
            file: null,
            mime_type: 'audio/mpeg',
            duration_ms: 0,
            cost: 1,
            user_id: user.id,
            state: 'pending',
            making_until: null,
            created_at: new Date().toISOString(),
          })
          .execute();
      });
      expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
    },
  );
});
