import { describe, expect, it } from 'vitest';
import { postgresAvailable, seededMate, signUp, rowsOf } from './harness';
import { serverWithDouble } from './server-with-double';
import { startTurn } from '../src/chat/turn-service';
import { failIfEmpty } from '../src/chat/turn-repository';
import { refundChat } from '../src/accounts/benefits';

const withPostgres = await postgresAvailable();

// A regeneration gives back the chat of an empty reply it replaces (a server died, or lost its
// lock, before the reply's first word). Another may be giving it back at that moment (that
// server's own failure, or the unfinished-reply sweep): whichever marks the reply failed, by
// one conditional update, refunds it, once. The regeneration had read it with a plain select and
// refunded it as well (found by an outside review). PostgreSQL only: SQLite runs one writer at
// a time, so the two cannot overlap.
describe('a regeneration beside another refund of the reply it replaces, on postgres', () => {
  const suite = serverWithDouble('postgres', { skip: !withPostgres });
  it.skipIf(!withPostgres)('gives back one chat for one abandoned reply', async () => {
    const { client, userInfo } = await signUp(suite.server);
    const { db } = suite.server;
    const mate = await seededMate(db, 'Kai Tanaka');
    const { roomId } = await client.room.createRoom({ mateId: mate.id });
    const chats = async () => (await client.user.benefits()).chats;
    const before = await chats();
    const { user, room } = await rowsOf(db, userInfo.uuid, roomId);
    // Server A's turn: charged, reply empty and partial (A's lock then lapses / the sweep finds it).
    const a = await startTurn(db, user, room, { roomId, content: 'Tell me a story.' });
    expect(before - (await chats())).toBe(1);
    // A's failEmptyReply (or the sweep's) is in its transaction, not yet committed...
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let marked!: () => void;
    const didMark = new Promise<void>((r) => (marked = r));
    const failing = db.transaction().execute(async (trx) => {
      if (!(await failIfEmpty(trx, a.reply.id))) return false;
      await refundChat(trx, user.id, {
        reason: { key: 'ledger.reasons.refundNoReply' },
        reference: { type: 'message', id: a.reply.id },
      });
      marked();
      await gate;
      return true;
    });
    await didMark;
    // ...while server B runs the person's regeneration (it took the room's lock).
    const regen = startTurn(db, user, room, { roomId, regenerate: true });
    await new Promise((r) => setTimeout(r, 300));
    release();
    expect(await failing).toBe(true);
    await regen;
    // Spent: A's chat and B's regeneration; given back: A's once. Net 1.
    expect(before - (await chats())).toBe(1);
  });
});
