import { PostgresAdapter, sql, type Kysely, type Transaction } from 'kysely';
import type { MessageStatus } from '@mates/api-client';
import type { Database } from '../db/schema';
import { toJson } from '../db/dialect';
import { preparedQuery } from '../db/prepared-query';
import { atOnceOnSqlite, type RunNow } from '../db/sqlite-dialect';
import { takeChatIfUncappedNow } from '../accounts/benefits-repository';
import { insertLedgerRowNow } from '../accounts/ledger-repository';
import { storedReason } from '../accounts/ledger-reasons';
import { appendTwoNow, storedStatuses } from './message-repository';
import { countedToday, recordChatForTrending } from '../catalog/trending-repository';
import { dayOf } from '../catalog/hot-word-repository';

/** The database, or a transaction on it: every function here runs in either. */
type Db = Kysely<Database> | Transaction<Database>;

// Once per batch of chats: compiled once (see `preparedQuery`).
const countMessagesQuery = preparedQuery((db, v: { mateId: string; count: number }) =>
  db
    .updateTable('mates')
    .set((eb) => ({ messages_count: eb('messages_count', '+', v.count) }))
    .where('id', '=', v.mateId),
);

interface Chat {
  mateId: string;
  userId: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The chats counted while the server handled one round of its work, written together (in one
 * transaction on SQLite; on PostgreSQL see {@link countOnPostgres}): each mate's message count
 * moved once by their number, and each person's day with the mate for trending. Sends to one
 * popular mate all write its row: on PostgreSQL each would hold the row's lock until its
 * commit, and the sends' turns would queue behind each other for it.
 */
function chatCounter(db: Kysely<Database>) {
  let pending: Chat[] = [];
  const flush = async () => {
    const batch = pending;
    pending = [];
    const perMate = new Map<string, number>();
    for (const { mateId } of batch) perMate.set(mateId, (perMate.get(mateId) ?? 0) + 1);
    try {
      if (db.getExecutor().adapter instanceof PostgresAdapter)
        await countOnPostgres(db, batch, perMate);
      else
        await db.transaction().execute(async (trx) => {
          // Rows are locked in one order (by mate) on every server: two batches never wait for
          // each other's locks crosswise.
          const byMate = [...batch].sort((a, b) => a.mateId.localeCompare(b.mateId));
          // Most people chatting are counted for the day already: one read finds them.
          const counted = await countedToday(trx, byMate);
          for (const chat of byMate)
            if (!counted.has(`${chat.mateId} ${chat.userId}`))
              await recordChatForTrending(trx, chat);
          // The mates' rows last, each once, held for the least time.
          for (const [mateId, count] of [...perMate].sort(([a], [b]) => a.localeCompare(b)))
            await countMessagesQuery(trx, { mateId, count });
        });
    } catch (error) {
      for (const chat of batch) chat.reject(error);
      return;
    }
    for (const chat of batch) chat.resolve();
  };
  return (chat: { mateId: string; userId: string }): Promise<void> =>
    new Promise((resolve, reject) => {
      if (pending.length === 0) setImmediate(() => void flush());
      pending.push({ ...chat, resolve, reject });
    });
}

// A batch's messages counted and, in the same statement, who of it is counted today already.
const countedAtOnce = preparedQuery(
  (_db, v: { mateIds: string[]; counts: number[]; people: string[]; today: string }) =>
    sql<{ mate_id: string; user_id: string }>`
      with locked as (
        select id from mates where id = any(${v.mateIds}::text[])
        order by id collate "C" for update
      ),
      moved as (
        update mates set messages_count = messages_count + counts.n
        from unnest(${v.mateIds}::text[], ${v.counts}::int[]) as counts (id, n)
        where mates.id = counts.id and mates.id in (select id from locked)
        returning mates.id
      )
      select mate_id, user_id from mate_chatters
      where last_day = ${v.today} and user_id = any(${v.people}::text[])
        and mate_id = any(${v.mateIds}::text[])
    `,
);

/**
 * A batch of chats counted on PostgreSQL: one statement moves each mate's message count by its
 * number (the rows locked in one order, by id, on every server) and answers who of the batch is
 * counted for today already; only the others, a person's first chat of the day with a mate,
 * then take a transaction for trending. Four round trips a batch were one transaction's.
 */
async function countOnPostgres(
  db: Kysely<Database>,
  batch: Chat[],
  /** How many of the batch's chats are with each mate. */
  perMate: Map<string, number>,
): Promise<void> {
  const { rows } = await countedAtOnce(db, {
    mateIds: [...perMate.keys()],
    counts: [...perMate.values()],
    people: [...new Set(batch.map((chat) => chat.userId))],
    today: dayOf(Date.now()),
  });
  const counted = new Set(rows.map((row) => `${row.mate_id} ${row.user_id}`));
  const first = batch
    .filter((chat) => !counted.has(`${chat.mateId} ${chat.userId}`))
    .sort((a, b) => a.mateId.localeCompare(b.mateId));
  if (first.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const chat of first) await recordChatForTrending(trx, chat);
  });
}

const counters = new WeakMap<Kysely<Database>, ReturnType<typeof chatCounter>>();

/**
 * Counts a chat with a mate: its message count, and the person's day with it for trending.
 * Resolves once written, in a transaction shared with the other chats counted meanwhile.
 */
export function countChat(
  db: Kysely<Database>,
  chat: { mateId: string; userId: string },
): Promise<void> {
  let count = counters.get(db);
  if (!count) counters.set(db, (count = chatCounter(db)));
  return count(chat);
}

/**
 * The position of the person's message a regeneration answers again: `messageId`'s, or their
 * last one in the room; `undefined` when there is none.
 */
export async function findAnsweredMessage(
  db: Db,
  roomId: string,
  messageId: string | undefined,
): Promise<{ position: number } | undefined> {
  return db
    .selectFrom('messages')
    .select(['position'])
    .where('room_id', '=', roomId)
    .where('role', '=', 'user')
    .$if(Boolean(messageId), (q) => q.where('id', '=', messageId!))
    .orderBy('position', 'desc')
    .executeTakeFirst();
}

/** The last reply of text (not a picture) after `position`, with its versions. */
export async function findLastReplyAfter(db: Db, roomId: string, position: number) {
  return db
    .selectFrom('messages')
    .select([
      'id',
      'position',
      'content',
      'status',
      'swipes',
      'swipe_index',
      'swipe_statuses',
      'speaker_id',
    ])
    .where('room_id', '=', roomId)
    .where('position', '>', position)
    .where('role', '=', 'mate')
    .where('image_prompt', 'is', null)
    .orderBy('position', 'desc')
    .executeTakeFirst();
}

/**
 * The room's replies after `position` still empty and unfinished: each was charged and its
 * server stopped before a word (a crash), or its send failed before its stream opened.
 */
export async function emptyRepliesAfter(db: Db, roomId: string, position: number) {
  const rows = await db
    .selectFrom('messages')
    .select('id')
    .where('room_id', '=', roomId)
    .where('position', '>', position)
    .where('role', '=', 'mate')
    .where('status', '=', 'partial')
    .where('content', '=', '')
    .where('image_prompt', 'is', null)
    .execute();
  return rows.map((row) => row.id);
}

/** Removes the room's messages of text after `position` (pictures stay). */
export async function deleteTextAfter(db: Db, roomId: string, position: number): Promise<void> {
  await db
    .deleteFrom('messages')
    .where('room_id', '=', roomId)
    .where('position', '>', position)
    .where('image_prompt', 'is', null)
    .execute();
}

/** Marks a reply failed if it is still empty and unfinished; whether it was. */
export async function failIfEmpty(db: Db, replyId: string): Promise<boolean> {
  const marked = await db
    .updateTable('messages')
    .set({ status: 'error' })
    .where('id', '=', replyId)
    .where('status', '=', 'partial')
    .where('content', '=', '')
    .executeTakeFirst();
  return Number(marked.numUpdatedRows) > 0;
}

/** {@link failIfEmpty} for a reply of text of the room `roomId` only. */
export async function failUnwrittenIn(db: Db, roomId: string, replyId: string): Promise<boolean> {
  const marked = await db
    .updateTable('messages')
    .set({ status: 'error' })
    .where('id', '=', replyId)
    .where('room_id', '=', roomId)
    .where('role', '=', 'mate')
    .where('image_prompt', 'is', null)
    .where('status', '=', 'partial')
    .where('content', '=', '')
    .executeTakeFirst();
  return Number(marked.numUpdatedRows) > 0;
}

/** A reply still empty and unfinished: its stored versions (`swipes`); else `undefined`. */
export async function findEmptyReply(db: Db, replyId: string) {
  return db
    .selectFrom('messages')
    .select(['swipes', 'swipe_statuses'])
    .where('id', '=', replyId)
    .where('status', '=', 'partial')
    .where('content', '=', '')
    .executeTakeFirst();
}

/** Removes a reply if it is still empty and unfinished; whether it was. */
export async function deleteIfEmpty(db: Db, replyId: string): Promise<boolean> {
  const taken = await db
    .deleteFrom('messages')
    .where('id', '=', replyId)
    .where('status', '=', 'partial')
    .where('content', '=', '')
    .executeTakeFirst();
  return Number(taken.numDeletedRows) > 0;
}

/**
 * Gives an empty, unfinished reply back one of its kept versions (`kept`, oldest first, not
 * empty, each with its state in `statuses`): the `shown` one, else the last. Whether it was
 * still empty.
 */
export async function restoreIfEmpty(
  db: Db,
  replyId: string,
  { kept, statuses }: { kept: string[]; statuses: MessageStatus[] },
  shown = kept.length - 1,
): Promise<boolean> {
  const others = kept.filter((_, index) => index !== shown);
  const taken = await db
    .updateTable('messages')
    .set({
      content: kept[shown]!,
      status: statuses[shown] ?? 'complete',
      swipes: others.length > 0 ? toJson(others) : null,
      swipe_index: shown,
      swipe_statuses:
        others.length > 0 ? storedStatuses(statuses.filter((_, index) => index !== shown)) : null,
    })
    .where('id', '=', replyId)
    .where('status', '=', 'partial')
    .where('content', '=', '')
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) > 0;
}

// Run a few times for every reply: compiled once (see `preparedQuery`).
const saveReply = preparedQuery(
  (db, v: { content: string; status: MessageStatus; replyId: string }) =>
    db
      .updateTable('messages')
      .set({ content: v.content, status: v.status })
      .where('id', '=', v.replyId),
);

/**
 * The saves of a batch as one statement, on PostgreSQL (one round trip rather than one each
 * and a transaction around them). A reply's saves are chained (`replySaver` in
 * reply-service.ts asks for the next once the last is stored), so none shares a batch with
 * another of the same reply; should one ever, its last save is kept, as when the saves run one
 * after the other (PostgreSQL would pick one of the rows of an `UPDATE … FROM` at will).
 */
async function saveAllAtOnce(db: Kysely<Database>, batch: Save[]): Promise<Set<string>> {
  const last = new Map(batch.map((save) => [save.replyId, save]));
  const rows = [...last.values()].map(
    (save) => sql`(${save.replyId}::text, ${save.content}::text, ${save.status}::text)`,
  );
  const { rows: kept } = await sql<{ id: string }>`
    update messages set content = saved.content, status = saved.status
    from (values ${sql.join(rows)}) as saved (id, content, status)
    where messages.id = saved.id
    returning messages.id
  `.execute(db);
  return new Set(kept.map((row) => row.id));
}

interface Save {
  replyId: string;
  content: string;
  status: MessageStatus;
  /** With whether the reply was still there to save (see {@link saveReplyText}). */
  resolve: (kept: boolean) => void;
  reject: (error: unknown) => void;
}

/**
 * The saves of growing replies asked for while the server handled one round of its work, run
 * together in one transaction: with many replies being written, each saving about once a
 * second, a transaction each cost a commit, its own WAL pages and a sync to wait for; together
 * they share them. Should the transaction fail, each save is tried on its own, so that one
 * reply's failure stays its own.
 */
function saveBatcher(db: Kysely<Database>) {
  let pending: Save[] = [];
  const kept = ({ numAffectedRows }: { numAffectedRows?: bigint }) => (numAffectedRows ?? 0n) > 0n;
  const runAlone = (save: Save) =>
    saveReply(db, save).then((result) => save.resolve(kept(result)), save.reject);
  const flush = async () => {
    const batch = pending;
    pending = [];
    if (batch.length === 1) return runAlone(batch[0]!);
    let saved: Set<string>;
    try {
      if (db.getExecutor().adapter instanceof PostgresAdapter)
        saved = await saveAllAtOnce(db, batch);
      else
        saved = await db.transaction().execute(async (trx) => {
          const there = new Set<string>();
          for (const save of batch) if (kept(await saveReply(trx, save))) there.add(save.replyId);
          return there;
        });
    } catch {
      for (const save of batch) await runAlone(save);
      return;
    }
    for (const save of batch) save.resolve(saved.has(save.replyId));
  };
  return (save: Omit<Save, 'resolve' | 'reject'>): Promise<boolean> =>
    new Promise((resolve, reject) => {
      if (pending.length === 0) setImmediate(() => void flush());
      pending.push({ ...save, resolve, reject });
    });
}

const batchers = new WeakMap<Kysely<Database>, ReturnType<typeof saveBatcher>>();

/**
 * Saves a reply's text and state; resolves once it is stored (durably, where the database
 * syncs commits), in a transaction shared with the other replies' saves asked for meanwhile,
 * with `false` when the reply was no longer there (its message or room deleted).
 */
export function saveReplyText(
  db: Kysely<Database>,
  save: { replyId: string; content: string; status: MessageStatus },
): Promise<boolean> {
  let saveLater = batchers.get(db);
  if (!saveLater) {
    saveLater = saveBatcher(db);
    batchers.set(db, saveLater);
  }
  return saveLater(save);
}

/** A new message's turn, written by {@link writeTurnAtOnce}. */
export type TurnAtOnce = {
  userId: string;
  roomId: string;
  content: string;
  /** The ids the user's message and the reply get. */
  userMessageId: string;
  replyId: string;
  at: string;
};

/** The ledger's reason for a chat spent on a reply, as stored (see `storedReason`). */
const CHAT_SPENT = storedReason({ key: 'ledger.reasons.chat' });

// The same text at every send: compiled once, and named on PostgreSQL (see `preparedQuery`).
const turnAtOnce = preparedQuery(
  (_db, v: TurnAtOnce) => sql<{ position: number | string }>`
    with room as (
      select id from rooms where id = ${v.roomId} for update
    ),
    spent as (
      update benefits set chats = chats - 1, updated_at = ${v.at}::timestamptz
      where user_id = ${v.userId} and chats >= 1
        and exists (select 1 from room)
        and exists (
          select 1 from users
          where id = ${v.userId} and daily_chats_cap is null and daily_gold_coins_cap is null
        )
      returning chats, gold_coins
    ),
    last as (
      select coalesce(max(position), 0) as position from messages where room_id = ${v.roomId}
    ),
    written as (
      insert into messages (id, room_id, position, role, content, status, created_at, swipe_index)
      select turn.id, ${v.roomId}, last.position + turn.step, turn.role, turn.content,
        turn.status, ${v.at}::timestamptz, 0
      from spent, last, (values
        (${v.userMessageId}::text, 1, 'user', ${v.content}::text, 'complete'),
        (${v.replyId}::text, 2, 'mate', '', 'partial')
      ) as turn (id, step, role, content, status)
      returning id
    ),
    used as (
      update rooms set updated_at = ${v.at}::timestamptz
      where id = ${v.roomId} and exists (select 1 from spent)
      returning id
    ),
    ledger as (
      insert into benefit_ledger (user_id, chats_delta, gold_coins_delta, kind, reason,
        reason_key, reference_type, reference_id, chats_after, gold_coins_after, created_at)
      select ${v.userId}, -1, 0, 'spend', ${CHAT_SPENT.reason}, ${CHAT_SPENT.reason_key},
        'message', ${v.replyId}, spent.chats, spent.gold_coins, ${v.at}::timestamptz
      from spent
      returning id
    )
    select last.position + 1 as position from spent, last
  `,
);

/**
 * A new message's turn at once: one chat taken from the user's balances (only if they have one
 * and no daily cap, which needs the day's spends counted), and then the user's message and the
 * empty `partial` reply appended, the room marked as used and the spend written to the ledger
 * naming the reply. On PostgreSQL one statement, one round trip instead of the transaction's
 * eight; on SQLite the transaction's statements back to back (see {@link turnOnSqlite}).
 * Either writes all of that or nothing. The position the user's message got, or `null` when
 * nothing was written: not a chat left, or a daily cap to check. The caller then takes the
 * transaction's way, which says why. On PostgreSQL the room's row is locked first, then the
 * balances, as every append takes them (see `appendMessages`); another append to the room
 * committed while this waited for the lock makes the statement fail on the room's positions (a
 * unique violation, nothing written), and the caller takes the transaction's way then too,
 * which reads the positions after the lock.
 */
export async function writeTurnAtOnce(db: Db, turn: TurnAtOnce): Promise<number | null> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter))
    return atOnceOnSqlite(db, (run) => turnOnSqlite(run, db, turn));
  const { rows } = await turnAtOnce(db, turn);
  return rows[0] ? Number(rows[0].position) : null;
}

/**
 * {@link writeTurnAtOnce} on SQLite, whose `with` takes no writes: the chat taken (one
 * statement that checks the caps too), then the transaction's own statements (both messages
 * appended, the ledger row), run back to back in one transaction (see `atOnceOnSqlite`),
 * which no other writer can come between. A chat is taken only from someone who has one and no daily cap; else nothing
 * is written (`null`) and the caller's transaction says why.
 */
function turnOnSqlite(run: RunNow, db: Kysely<Database>, v: TurnAtOnce): number | null {
  const after = takeChatIfUncappedNow(run, db, v.userId, v.at);
  if (!after) return null;
  const [user] = appendTwoNow(run, db, v.roomId, v.at, [
    { id: v.userMessageId, message: { role: 'user', content: v.content, status: 'complete' } },
    { id: v.replyId, message: { role: 'mate', content: '', status: 'partial' } },
  ]);
  insertLedgerRowNow(run, db, {
    user_id: v.userId,
    chats_delta: -1,
    gold_coins_delta: 0,
    kind: 'spend',
    ...CHAT_SPENT,
    reference_type: 'message',
    reference_id: v.replyId,
    chats_after: after.chats,
    gold_coins_after: after.gold_coins,
    created_at: v.at,
  });
  return user.position;
}

/**
 * A regenerated reply is the same message in a new row: where a path of the chat forked at the
 * reply replaced (`from`), it forks at the new one (`to`), in the room itself and in the paths
 * branched from it there. Takes the rows of those paths: call it before the balances.
 */
export async function moveForks(db: Db, roomId: string, from: string, to: string): Promise<void> {
  await db
    .updateTable('rooms')
    .set({ fork_message_id: to })
    .where('id', '=', roomId)
    .where('fork_message_id', '=', from)
    .execute();
  await db
    .updateTable('rooms')
    .set({ fork_parent_message_id: to })
    .where('parent_room_id', '=', roomId)
    .where('fork_parent_message_id', '=', from)
    .execute();
}
