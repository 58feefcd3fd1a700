import { sql, type Kysely, type QueryResult, type Transaction } from 'kysely';
import { preparedQuery } from '../db/prepared-query';
import type { Database, UserTable } from '../db/schema';
import { matesWithCreators, visibleTo, type MateRow } from './mate-rows';
import { dayOf, firstDayOf } from './hot-word-repository';

/** How far back trending looks (in whole UTC days, today included). */
export const TRENDING_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

// Run inside every send's transaction: each compiled once (see `preparedQuery`).
const chatterDay = preparedQuery((db, v: { mateId: string; userId: string }) =>
  db
    .selectFrom('mate_chatters')
    .select('last_day')
    .where('mate_id', '=', v.mateId)
    .where('user_id', '=', v.userId),
);
// Two first messages at once (PostgreSQL): only the one whose row went in counts.
// Only for a person whose account is there and not closing: a reply still being written as its
// account is deleted must not bring back a row naming them once the deletion removed theirs.
const newChatter = preparedQuery((db, v: { mateId: string; userId: string; day: string }) =>
  db
    .insertInto('mate_chatters')
    .columns(['mate_id', 'user_id', 'last_day'])
    .expression(
      db
        .selectNoFrom((eb) => [
          eb.val(v.mateId).as('mate_id'),
          eb.val(v.userId).as('user_id'),
          eb.val(v.day).as('last_day'),
        ])
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('users')
              .select('id')
              .where('id', '=', v.userId)
              .where('closing_at', 'is', null),
          ),
        ),
    )
    .onConflict((oc) => oc.doNothing()),
);
const countChatter = preparedQuery((db, v: { mateId: string }) =>
  db
    .updateTable('mates')
    .set((eb) => ({ chats_count: eb('chats_count', '+', 1) }))
    .where('id', '=', v.mateId),
);
const moveChatter = preparedQuery(
  (db, v: { mateId: string; userId: string; from: string; to: string }) =>
    db
      .updateTable('mate_chatters')
      .set({ last_day: v.to })
      .where('mate_id', '=', v.mateId)
      .where('user_id', '=', v.userId)
      .where('last_day', '=', v.from),
);
/** Adds `delta` users to a mate's trending count of `day`. */
const countDay = preparedQuery((db, v: { mateId: string; day: string; delta: number }) =>
  db
    .insertInto('mate_trend_days')
    .values({ mate_id: v.mateId, day: v.day, users: v.delta })
    .onConflict((oc) =>
      oc
        .columns(['mate_id', 'day'])
        .doUpdateSet((eb) => ({ users: eb('mate_trend_days.users', '+', v.delta) })),
    ),
);

/** Rows a prepared write changed. */
const changed = (result: QueryResult<unknown>) => Number(result.numAffectedRows ?? 0);

/**
 * Records that `userId` sent a message to `mateId`: the send route calls it inside the
 * transaction that saves the user's message (not when a room is opened, so empty rooms
 * count for nothing). The mate's chat counter grows once per user who ever chatted with it;
 * trending counts each user once per mate in its window: a user is counted on the last day
 * they chatted with the mate, and moved to today when they chat again. Most messages cost one
 * primary-key read; the first of a day for a user and a mate writes two small rows.
 */
export async function recordChatForTrending(
  trx: Transaction<Database>,
  chat: { mateId: string; userId: string },
): Promise<void> {
  const { mateId, userId } = chat;
  const today = dayOf(Date.now());
  const known = (await chatterDay(trx, { mateId, userId })).rows[0];
  if (known?.last_day === today) return;
  if (!known) {
    if (changed(await newChatter(trx, { mateId, userId, day: today })) === 0) return;
    await countDay(trx, { mateId, day: today, delta: 1 });
    await countChatter(trx, { mateId });
    return;
  }
  const moved = await moveChatter(trx, { mateId, userId, from: known.last_day, to: today });
  if (changed(moved) === 0) return;
  await countDay(trx, { mateId, day: known.last_day, delta: -1 });
  await countDay(trx, { mateId, day: today, delta: 1 });
}

// The people and mates go as two JSON arrays: one statement whatever their number, compiled once
// (a list of bound values would be a new statement, built and compiled, for each batch's size).
const countedTodayQuery = preparedQuery(
  (_db, v: { today: string; people: string; mates: string }) =>
    sql<{ mate_id: string; user_id: string }>`
    select mate_id, user_id from mate_chatters
    where last_day = ${v.today}
      and user_id in (select value from json_each(${v.people}))
      and mate_id in (select value from json_each(${v.mates}))
  `,
);

/**
 * Of `chats`, those whose person is already counted today for the mate, as `mateId userId`
 * keys: for them {@link recordChatForTrending} would read one row and write nothing, and a
 * batch of chats learns it in one read instead of one each. SQLite's (PostgreSQL reads it in
 * the statement that counts the batch's messages, see `turn-repository.ts`).
 */
export async function countedToday(
  db: Kysely<Database> | Transaction<Database>,
  chats: { mateId: string; userId: string }[],
): Promise<Set<string>> {
  const { rows } = await countedTodayQuery(db, {
    today: dayOf(Date.now()),
    people: JSON.stringify([...new Set(chats.map((chat) => chat.userId))]),
    mates: JSON.stringify([...new Set(chats.map((chat) => chat.mateId))]),
  });
  return new Set(rows.map((row) => `${row.mate_id} ${row.user_id}`));
}

/** A trending mate: the mate's row and how many people chatted with it in the window. */
export type TrendingRow = MateRow & { recent_chats: number };

/**
 * The ten mates `viewer` may see with the most people chatting with them lately, ties broken
 * by chat count, then newest. Reads the mates counted in the window (at most seven small rows
 * each, whatever the number of messages sent) and, when fewer than ten, tops them up with the
 * most chatted-with mates in the listing index's order: no scan of every mate.
 */
export async function trendingMates(
  db: Kysely<Database>,
  viewer: UserTable | null,
): Promise<TrendingRow[]> {
  const recent = db
    .selectFrom('mate_trend_days')
    .select(['mate_id', (eb) => eb.fn.sum<number>('users').as('users')])
    .where('day', '>=', firstDayOf(TRENDING_WINDOW_MS))
    .groupBy('mate_id')
    .having((eb) => eb.fn.sum('users'), '>', 0)
    .as('recent');
  const counted = await visibleTo(matesWithCreators(db), viewer)
    .innerJoin(recent, 'recent.mate_id', 'mates.id')
    .select('recent.users as recent_chats')
    .orderBy('recent_chats', 'desc')
    .orderBy('mates.chats_count', 'desc')
    .orderBy('mates.created_at', 'desc')
    .orderBy('mates.id')
    .limit(10)
    .execute();
  const rows: TrendingRow[] = counted.map((row) => ({
    ...row,
    recent_chats: Number(row.recent_chats),
  }));
  if (rows.length === 10) return rows;
  let rest = visibleTo(matesWithCreators(db), viewer);
  if (rows.length)
    rest = rest.where(
      'mates.id',
      'not in',
      rows.map((row) => row.id),
    );
  const quiet = await rest
    .orderBy('mates.chats_count', 'desc')
    .orderBy('mates.created_at', 'desc')
    .orderBy('mates.id')
    .limit(10 - rows.length)
    .execute();
  return [...rows, ...quiet.map((row) => ({ ...row, recent_chats: 0 }))];
}
