import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { chattableMateId, createTestApp, DIALECTS, postgresAvailable, signUp } from './harness';
import { saveReplyText } from '../src/chat/turn-repository';

const withPostgres = await postgresAvailable();

describe.each(DIALECTS)('saves of growing replies on %s', (dialect) => {
  const skip = dialect === 'postgres' && !withPostgres;
  let app: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    if (!skip) app = await createTestApp(dialect);
  });
  afterAll(async () => {
    if (!skip) await app.close();
  });

  /** A room's greeting: a mate message whose text the saves replace. */
  async function someReply() {
    const { client } = await signUp(app);
    const room = await client.room.createRoom({ mateId: await chattableMateId(app.db) });
    const row = await app.db
      .selectFrom('messages')
      .select('id')
      .where('room_id', '=', room.roomId)
      .executeTakeFirstOrThrow();
    return { roomId: room.roomId, replyId: row.id };
  }

  const textOf = (replyId: string) =>
    app.db
      .selectFrom('messages')
      .select(['content', 'status'])
      .where('id', '=', replyId)
      .executeTakeFirstOrThrow();

  it.skipIf(skip)(
    'stores saves asked for together, and fails only the one that fails',
    async () => {
      const [failing, fine, other] = [await someReply(), await someReply(), await someReply()];
      // Only the first room's reply cannot be stored, as if the disk were full for it.
      if (dialect === 'sqlite') {
        await sql`create trigger disk_full before update on messages
        when new.room_id = ${sql.lit(failing.roomId)}
        begin select raise(fail, 'database or disk is full'); end`.execute(app.db);
      } else {
        await sql`create function disk_full() returns trigger language plpgsql as $$
        begin if new.room_id = ${sql.lit(failing.roomId)} then
        raise exception 'could not extend file: No space left on device'; end if;
        return new; end $$`.execute(app.db);
        await sql`create trigger disk_full before update on messages for each row execute function disk_full()`.execute(
          app.db,
        );
      }
      try {
        // Asked for in one go: they share one transaction, which the failing one rolls back.
        const outcomes = await Promise.allSettled([
          saveReplyText(app.db, { replyId: fine.replyId, content: 'Kept', status: 'partial' }),
          saveReplyText(app.db, { replyId: failing.replyId, content: 'Lost', status: 'partial' }),
          saveReplyText(app.db, { replyId: other.replyId, content: 'Done.', status: 'complete' }),
        ]);
        expect(outcomes.map((outcome) => outcome.status)).toEqual([
          'fulfilled',
          'rejected',
          'fulfilled',
        ]);
        expect(await textOf(fine.replyId)).toEqual({ content: 'Kept', status: 'partial' });
        expect(await textOf(other.replyId)).toEqual({ content: 'Done.', status: 'complete' });
      } finally {
        await sql`drop trigger disk_full${sql.raw(dialect === 'postgres' ? ' on messages' : '')}`.execute(
          app.db,
        );
      }
    },
  );
});
