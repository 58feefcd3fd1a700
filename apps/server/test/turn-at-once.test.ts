import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database, RoomTable, UserTable } from '../src/db/schema';
import { grantBenefits, spendGoldCoins } from '../src/accounts/benefits';
import { appendMessages } from '../src/chat/messages';
import { startTurn } from '../src/chat/turn-service';
import { writeTurnAtOnce } from '../src/chat/turn-repository';
import { DIALECTS, freshDatabase, insertUser, mateRow, postgresAvailable } from './harness';
import { newRoomRow } from '../src/chat/room-repository';

// #38: a new message's turn (the chat spent, both messages, the room, the ledger) is one
// statement on PostgreSQL, and on SQLite statements run back to back in one transaction without
// a pause; either must write what the transaction writes, and nothing when it cannot.
const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('a new turn written at once on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let db: Kysely<Database>;
  let mateId: string;
  let serial = 0;

  beforeAll(async () => {
    if (skip) return;
    database = await freshDatabase(dialect);
    db = database.db;
    await insertUser(db, { id: 'creator', email: 'creator@example.test' });
    const mate = mateRow('creator');
    await db.insertInto('mates').values(mate).execute();
    mateId = mate.id;
  });
  afterAll(async () => database?.drop());

  /** A user with `chats` chats (and a daily cap if asked) and a room with one greeting. */
  async function person(chats: number, cap: number | null = null) {
    serial += 1;
    const id = `person-${serial}`;
    await insertUser(db, { id, email: `${id}@example.test` });
    await db.updateTable('users').set({ daily_chats_cap: cap }).where('id', '=', id).execute();
    if (chats > 0)
      await grantBenefits(
        db,
        id,
        { chats, goldCoins: 0 },
        { kind: 'grant', reason: { text: 'test' }, reference: null },
      );
    const at = new Date().toISOString();
    const room = newRoomRow({
      id: `room-${serial}`,
      user_id: id,
      mate_id: mateId,
      persona_id: null,
      created_at: at,
      updated_at: '2000-01-01T00:00:00.000Z',
    });
    await db.insertInto('rooms').values(room).execute();
    await db
      .insertInto('messages')
      .values({
        id: `greeting-${serial}`,
        room_id: room.id,
        position: 1,
        role: 'mate',
        content: 'Hello there.',
        status: 'complete',
        created_at: at,
        swipe_index: 0,
      })
      .execute();
    const user = await db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return { user: user as UserTable, room };
  }

  /** What a turn left in the database, in a form two turns can be compared by. */
  async function written(userId: string, roomId: string) {
    const messages = await db
      .selectFrom('messages')
      .select([
        'id',
        'position',
        'role',
        'content',
        'status',
        'swipes',
        'swipe_index',
        'image_prompt',
        'speaker_id',
        'call_id',
        'call_cut',
        'edited_at',
      ])
      .where('room_id', '=', roomId)
      .orderBy('position')
      .execute();
    const ledger = await db
      .selectFrom('benefit_ledger')
      .select([
        'chats_delta',
        'gold_coins_delta',
        'kind',
        'reason',
        'reference_type',
        'reference_id',
        'chats_after',
        'gold_coins_after',
      ])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
    const balances = await db
      .selectFrom('benefits')
      .select('chats')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const room = await db
      .selectFrom('rooms')
      .select('updated_at')
      .where('id', '=', roomId)
      .executeTakeFirstOrThrow();
    return {
      messages,
      ledger,
      chats: balances?.chats,
      roomUsed: new Date(room.updated_at as string).getFullYear() > 2000,
    };
  }

  it.skipIf(skip)('writes what the transaction writes', async () => {
    const fast = await person(2);
    const slow = await person(2, 100); // a daily cap: the transaction's way, which counts the day
    const request = { roomId: '', content: 'Tell me about the sea.' };
    const one = await startTurn(db, fast.user, fast.room, { ...request, roomId: fast.room.id });
    const other = await startTurn(db, slow.user, slow.room, { ...request, roomId: slow.room.id });
    for (const [started, who] of [
      [one, fast],
      [other, slow],
    ] as const) {
      expect(started.userMessage).toMatchObject({
        position: 2,
        role: 'user',
        content: request.content,
        status: 'complete',
      });
      expect(started.reply).toMatchObject({
        position: 3,
        role: 'mate',
        content: '',
        status: 'partial',
        swipes: null,
      });
      const stored = await written(who.user.id, who.room.id);
      expect(stored.messages.map((m) => m.id)).toEqual([
        `greeting-${who.room.id.slice(5)}`,
        started.userMessage!.id,
        started.reply.id,
      ]);
      expect(stored.ledger.at(-1)).toEqual({
        chats_delta: -1,
        gold_coins_delta: 0,
        kind: 'spend',
        reason: 'chat',
        reference_type: 'message',
        reference_id: started.reply.id,
        chats_after: 1,
        gold_coins_after: 0,
      });
      expect(stored.chats).toBe(1);
      expect(stored.roomUsed).toBe(true);
    }
    // The same rows either way, ids aside.
    const shape = async (who: typeof fast) => {
      const stored = await written(who.user.id, who.room.id);
      return {
        ...stored,
        messages: stored.messages.map(({ id: _id, ...rest }) => rest),
        ledger: stored.ledger.map(({ reference_id: _reference, ...rest }) => rest),
      };
    };
    expect(await shape(fast)).toEqual(await shape(slow));
  });

  it.skipIf(skip)('writes at once, and nothing it cannot pay for', async () => {
    const rich = await person(1);
    const turn = (who: { user: UserTable; room: RoomTable }, suffix: string) => ({
      userId: who.user.id,
      roomId: who.room.id,
      content: 'Hi',
      userMessageId: `u-${suffix}`,
      replyId: `r-${suffix}`,
      at: new Date().toISOString(),
    });
    expect(await writeTurnAtOnce(db, turn(rich, 'a'))).toBe(2);
    // The last chat is spent: nothing more is written, and nothing is charged.
    const before = await written(rich.user.id, rich.room.id);
    expect(await writeTurnAtOnce(db, turn(rich, 'b'))).toBeNull();
    expect(await written(rich.user.id, rich.room.id)).toEqual(before);
    // A daily cap needs the day's spends counted: left to the transaction, nothing written.
    const capped = await person(5, 3);
    const cappedBefore = await written(capped.user.id, capped.room.id);
    expect(await writeTurnAtOnce(db, turn(capped, 'c'))).toBeNull();
    expect(await written(capped.user.id, capped.room.id)).toEqual(cappedBefore);
    expect(cappedBefore.roomUsed).toBe(false);
    // Nobody's balances at all.
    const none = await person(0);
    const noneBefore = await written(none.user.id, none.room.id);
    expect(await writeTurnAtOnce(db, turn(none, 'd'))).toBeNull();
    expect(await written(none.user.id, none.room.id)).toEqual(noneBefore);
    expect(noneBefore.roomUsed).toBe(false);
  });

  it.skipIf(skip || dialect === 'sqlite')(
    'waits for a picture being added to the room, then takes the place after it (PostgreSQL)',
    async () => {
      const who = await person(2);
      let charge!: () => void;
      const charging = new Promise<void>((resolve) => (charge = resolve));
      // A picture's transaction, as `chargePicture` runs it: its message, then its coins.
      await grantBenefits(
        db,
        who.user.id,
        { chats: 0, goldCoins: 10 },
        { kind: 'grant', reason: { text: 'test' }, reference: null },
      );
      const picture = db.transaction().execute(async (trx) => {
        const [row] = await appendMessages(trx, who.room.id, [
          {
            role: 'mate',
            content: '',
            status: 'complete',
            picture: { prompt: 'a lighthouse', size: '768x1024' },
          },
        ]);
        await charging; // the send starts between the picture's message and its charge
        expect(
          await spendGoldCoins(trx, who.user.id, 10, {
            reason: { key: 'ledger.reasons.picture' },
            reference: null,
          }),
        ).toBe('spent');
        return row!;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const send = startTurn(db, who.user, who.room, { roomId: who.room.id, content: 'And now?' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      charge();
      const [pictured, started] = await Promise.all([picture, send]);
      // Both written, none failed: the picture at 2, the send's turn after it.
      expect(pictured.position).toBe(2);
      expect([started.userMessage!.position, started.reply.position]).toEqual([3, 4]);
      const stored = await written(who.user.id, who.room.id);
      expect(stored.messages.map((message) => message.position)).toEqual([1, 2, 3, 4]);
      expect(stored.chats).toBe(1);
    },
  );
});
