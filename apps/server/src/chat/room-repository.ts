import {
  PostgresAdapter,
  sql,
  type Kysely,
  type SelectQueryBuilder,
  type Transaction,
} from 'kysely';
import type { Database, RoomTable, UserTable } from '../db/schema';
import {
  mateColumnsAs,
  mateFromRow,
  matesWithCreators,
  PROMPT_MATE_COLUMNS,
  visibleTo,
  type PromptMate,
} from '../catalog/mate-rows';
import { inFamily } from './branch-repository';
import { preparedQuery } from '../db/prepared-query';
import { toBool } from '../db/dialect';
import { newestWords, PROMPT_FIRST_READ, type PromptWords } from './conversation-repository';

/** The database, or a transaction on it. */
type Db = Kysely<Database> | Transaction<Database>;

// Asked at every send: compiled once (see `preparedQuery`).
const ownRoom = preparedQuery((db, v: { roomId: string; userId: string }) =>
  db.selectFrom('rooms').selectAll().where('id', '=', v.roomId).where('user_id', '=', v.userId),
);

/** The user's own room, or `undefined` (another user's room is none of theirs). */
export async function findOwnRoomRow(
  db: Kysely<Database>,
  userId: string,
  roomId: string,
): Promise<RoomTable | undefined> {
  const [room] = (await ownRoom(db, { roomId, userId })).rows;
  return room;
}

/** The ids of the mates `userId` may see by {@link visibleTo}'s rule, their own included. */
const seeableMates = (db: Kysely<Database>, userId: string, adult: boolean) =>
  visibleTo(
    db.selectFrom('mates').innerJoin('users as creator', 'creator.id', 'mates.creator_id'),
    { id: userId, nfsw: adult } as UserTable,
    { includeOwn: true },
  ).select('mates.id');

/**
 * Whether a user may see one mate, by {@link visibleTo}'s rule: asked before every picture and
 * inspiration (a send asks it in {@link sendContext}), so compiled once (see `preparedQuery`) for viewers of adult content and once for the others,
 * the one difference in the rule's shape. It reads the mate's id only.
 */
const mateVisibleTo = ([false, true] as const).map((adult) =>
  preparedQuery((db, v: { mateId: string; userId: string }) =>
    seeableMates(db, v.userId, adult).where('mates.id', '=', v.mateId),
  ),
);

/**
 * Whether `user` may still see the mate `mateId` (public, their own, adult only if they opted
 * in).
 */
export async function mayStillSee(
  db: Kysely<Database>,
  user: UserTable,
  mateId: string,
): Promise<boolean> {
  const visible = mateVisibleTo[toBool(user.nfsw) ? 1 : 0]!;
  return (await visible(db, { mateId, userId: user.id })).rows.length > 0;
}

/**
 * What a send reads before anything else, in one statement (it is asked at every send, compiled
 * once per rule shape as {@link mateVisibleTo} is, with and without the words): the caller's own
 * room, whether they may still see its mate, how many chats they have left (`null`: no
 * balances row) and their daily cap on chats, and the mate's row, which its prompt is written
 * from (one round trip fewer on PostgreSQL before the first words). On PostgreSQL, for a new
 * message in a room not a group's, also the room's newest words, which its prompt is written
 * from before the turn, as one JSON array (another round trip fewer); a regeneration's prompt
 * is read after its turn, and a group's per speaker. Not on SQLite, in the server's own
 * thread: no round trip to save, and building the words as JSON cost more than reading them
 * (1.45 against 1.2 ms of a send's first read and prompt).
 */
const sendContextOf = ([false, true] as const).map((adult) =>
  ([false, true] as const).map((withWords) =>
    preparedQuery((db, v: { roomId: string; userId: string }) =>
      db
        .selectFrom('rooms')
        .$if(withWords && db.getExecutor().adapter instanceof PostgresAdapter, (query) =>
          query.select((eb) =>
            // Not a group's: each of its speakers' prompts is read apart (`null`, not `[]`).
            eb
              .case()
              .when('rooms.group_name', 'is', null)
              .then(
                wordsAsJson(
                  newestWords(
                    eb.selectFrom('messages').whereRef('messages.room_id', '=', 'rooms.id'),
                    PROMPT_FIRST_READ,
                  ),
                ),
              )
              .end()
              .as('words'),
          ),
        )
        .leftJoin('benefits', 'benefits.user_id', 'rooms.user_id')
        .innerJoin('users', 'users.id', 'rooms.user_id')
        .leftJoin('mates', 'mates.id', 'rooms.mate_id')
        .selectAll('rooms')
        .select(mateColumnsAs(MATE_PREFIX, PROMPT_MATE_COLUMNS))
        .select((eb) => [
          eb
            .exists(
              seeableMates(db, v.userId, adult).where(
                'mates.id',
                '=',
                sql.ref<string>('rooms.mate_id'),
              ),
            )
            .as('mate_visible'),
          'benefits.chats as chats_left',
          'users.daily_chats_cap as chats_cap',
        ])
        .where('rooms.id', '=', v.roomId)
        .where('rooms.user_id', '=', v.userId),
    ),
  ),
);

/**
 * A room's words (see `newestWords`) as one JSON array on PostgreSQL, newest first: ordered by
 * `json_agg` itself, since a subquery's order is kept only in practice, not by contract
 * (Kysely's `jsonArrayFrom` relies on it).
 */
const wordsAsJson = <O>(words: SelectQueryBuilder<Database, 'messages', O>) =>
  sql<PromptWords>`(select coalesce(json_agg(agg order by agg.position desc), '[]') from ${words} as agg)`;

/**
 * Where the send's first read puts the mate's columns (`mate__name` …) beside the room's: two
 * underscores, since the room has columns named `mate_…` of its own.
 */
const MATE_PREFIX = 'mate__';

/** A send's room, with whether its mate is still visible to the caller and their chats left. */
export interface SendContext {
  room: RoomTable;
  mateVisible: boolean;
  chatsLeft: number;
  /** The caller's daily cap on chats (`null`: none): whether it lets a chat through is counted. */
  chatsCap: number | null;
  /** The room's mate as stored, as a prompt reads it (`undefined`: gone). */
  mate: PromptMate | undefined;
  /**
   * The room's {@link PROMPT_FIRST_READ} newest words, read before the room's reply lock was
   * taken: `undefined` on SQLite, for a regeneration or a group's room, and when the newest is a
   * `partial` reply (which may have been being written then, and may have ended since: a reply
   * being written is always the room's newest word, as nothing is appended meanwhile but
   * pictures); the prompt reads them itself then.
   */
  words: PromptWords | undefined;
}

/** {@link SendContext} for `user`'s room `roomId`, or `undefined` when it is not theirs. */
export async function sendContext(
  db: Kysely<Database>,
  user: UserTable,
  roomId: string,
  /** Whether the send writes a new message, whose prompt is built before its turn. */
  newMessage: boolean,
): Promise<SendContext | undefined> {
  const query = sendContextOf[toBool(user.nfsw) ? 1 : 0]![newMessage ? 1 : 0]!;
  const [row] = (await query(db, { roomId, userId: user.id })).rows;
  if (!row) return undefined;
  const { mate_visible, chats_left, chats_cap, words, ...rest } = row;
  const { picked: mate, others: room } = mateFromRow(rest, MATE_PREFIX);
  return {
    room: room as unknown as RoomTable,
    mateVisible: toBool(mate_visible),
    chatsLeft: Number(chats_left ?? 0),
    chatsCap: chats_cap === null || chats_cap === undefined ? null : Number(chats_cap),
    mate,
    words: !words || words[0]?.status === 'partial' ? undefined : words,
  };
}

/** Which of `mateIds` `user` may still see; their rooms with the others are read-only. */
export async function visibleMateIds(
  db: Kysely<Database>,
  user: UserTable,
  mateIds: string[],
): Promise<Set<string>> {
  if (mateIds.length === 0) return new Set();
  const rows = await visibleTo(matesWithCreators(db), user, { includeOwn: true })
    .select('mates.id')
    .where('mates.id', 'in', mateIds)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** Writes a new room. */
/**
 * A new room's row: a chat's first path, with nothing remembered yet; `room` gives the rest
 * (its times default to now).
 */
export function newRoomRow(
  room: Pick<RoomTable, 'id' | 'user_id' | 'mate_id'> & Partial<RoomTable>,
): RoomTable {
  const at = room.created_at ?? new Date().toISOString();
  return {
    persona_id: null,
    created_at: at,
    updated_at: at,
    memory_through: 0,
    memory_error: null,
    memory_version: 0,
    family_id: null,
    parent_room_id: null,
    fork_parent_message_id: null,
    fork_message_id: null,
    group_name: null,
    group_scenario: null,
    turn_order: null,
    nexts_in_row: 0,
    ...room,
  };
}

export async function insertRoom(db: Db, room: RoomTable): Promise<void> {
  await db.insertInto('rooms').values(room).execute();
}

/**
 * One page of the user's rooms, the most recently used first, and how many there are; with a
 * keyword, those whose mate's name holds it (any case).
 */
export async function roomPage(
  db: Kysely<Database>,
  userId: string,
  filter: { keyword: string; pageSize: number; offset: number },
): Promise<{ total: number; rooms: (RoomTable & { branch_count: number | string | null })[] }> {
  // A chat once, by its path used last: no other path of its family was used later.
  const family = sql<string>`coalesce(rooms.family_id, rooms.id)`;
  let mine = db
    .selectFrom('rooms')
    .innerJoin('mates', 'mates.id', 'rooms.mate_id')
    .where('rooms.user_id', '=', userId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('rooms as later')
            .select(sql<number>`1`.as('one'))
            .where(inFamily('later', family))
            .where((later) =>
              later.or([
                later('later.updated_at', '>', later.ref('rooms.updated_at')),
                later.and([
                  later('later.updated_at', '=', later.ref('rooms.updated_at')),
                  later('later.id', '<', later.ref('rooms.id')),
                ]),
              ]),
            ),
        ),
      ),
    );
  if (filter.keyword) {
    const pattern = `%${filter.keyword.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    mine = mine.where(sql<boolean>`lower(mates.name) like ${pattern} escape '\\'`);
  }
  const [total, rooms] = await Promise.all([
    mine.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    mine
      .selectAll('rooms')
      .select((eb) =>
        eb
          .selectFrom('rooms as path')
          .select((inner) => inner.fn.countAll<number | string>().as('n'))
          .where(inFamily('path', family))
          .as('branch_count'),
      )
      .orderBy('rooms.updated_at', 'desc')
      .orderBy('rooms.id')
      .limit(filter.pageSize)
      .offset(filter.offset)
      .execute(),
  ]);
  return { total: Number(total.n), rooms };
}

/** Sets who the person plays in a room. */
export async function setRoomPersona(
  db: Kysely<Database>,
  roomId: string,
  personaId: string | null,
): Promise<void> {
  await db.updateTable('rooms').set({ persona_id: personaId }).where('id', '=', roomId).execute();
}

/**
 * The most chats a new name readdresses at once (see `personaGreetings`), the newest: a person
 * renaming again and again must not have the server rewrite thousands of rooms each time.
 */
const GREETINGS_READDRESSED = 100;

/**
 * The person's newest {@link GREETINGS_READDRESSED} rooms played as `personaId` (`null`: as
 * themself) where nothing but the greeting is written yet: a room with one message (its first
 * two looked at, however long the room).
 */
export async function greetingOnlyRooms(
  db: Kysely<Database>,
  userId: string,
  personaId: string | null,
): Promise<RoomTable[]> {
  return db
    .selectFrom('rooms')
    .selectAll()
    .where('user_id', '=', userId)
    .where('persona_id', personaId === null ? 'is' : '=', personaId)
    .where(
      (eb) =>
        eb
          .selectFrom(
            eb
              .selectFrom('messages')
              .select('messages.id')
              .whereRef('messages.room_id', '=', 'rooms.id')
              .limit(2)
              .as('first'),
          )
          .select(eb.fn.countAll().as('n')),
      '=',
      1,
    )
    .orderBy('created_at', 'desc')
    .limit(GREETINGS_READDRESSED)
    .execute();
}

/** Removes a room's row (its messages go first: see `deleteRoomPictures`). */
export async function deleteRoomRow(db: Kysely<Database>, roomId: string): Promise<void> {
  await db.deleteFrom('rooms').where('id', '=', roomId).execute();
}
