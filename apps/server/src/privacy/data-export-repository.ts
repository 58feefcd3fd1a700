import type { Kysely } from 'kysely';
import type { Database, DataExportTable } from '../db/schema';

/** How many rows a page of a long list (ledger, pictures) reads at once. */
export const EXPORT_PAGE = 500;

/** Records a new export (its job's id) of `userId`'s. */
export async function insertDataExport(
  db: Kysely<Database>,
  row: Pick<DataExportTable, 'id' | 'user_id' | 'created_at'>,
): Promise<void> {
  await db
    .insertInto('data_exports')
    .values({ ...row, file: null, size: null, ready_at: null, expires_at: null })
    .execute();
}

/** Forgets an export that never started. */
export async function deleteDataExport(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('data_exports').where('id', '=', id).execute();
}

/** The newest export of `userId`'s, or `undefined`. */
export function newestDataExport(
  db: Kysely<Database>,
  userId: string,
): Promise<DataExportTable | undefined> {
  return db
    .selectFrom('data_exports')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** One export by its id. */
export function dataExportById(
  db: Kysely<Database>,
  id: string,
): Promise<DataExportTable | undefined> {
  return db.selectFrom('data_exports').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Records an export's stored zip. */
export async function markDataExportReady(
  db: Kysely<Database>,
  id: string,
  ready: { file: string; size: number; readyAt: string; expiresAt: string },
): Promise<void> {
  await db
    .updateTable('data_exports')
    .set({
      file: ready.file,
      size: ready.size,
      ready_at: ready.readyAt,
      expires_at: ready.expiresAt,
    })
    .where('id', '=', id)
    .execute();
}

/** Exports whose zip expired before `at` and still has a file (of one user, or everyone's). */
export function expiredDataExports(
  db: Kysely<Database>,
  at: string,
  userId?: string,
): Promise<Pick<DataExportTable, 'id' | 'file'>[]> {
  let query = db
    .selectFrom('data_exports')
    .select(['id', 'file'])
    .where('file', 'is not', null)
    .where('expires_at', '<', at);
  if (userId) query = query.where('user_id', '=', userId);
  return query.execute();
}

/** `userId`'s exports other than `exceptId` that still have a file. */
export function olderDataExports(
  db: Kysely<Database>,
  userId: string,
  exceptId: string,
): Promise<Pick<DataExportTable, 'id' | 'file'>[]> {
  return db
    .selectFrom('data_exports')
    .select(['id', 'file'])
    .where('user_id', '=', userId)
    .where('id', '!=', exceptId)
    .where('file', 'is not', null)
    .execute();
}

/** Forgets an expired export's file (the row stays, so its state reads `expired`). */
export async function clearDataExportFile(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('data_exports').set({ file: null }).where('id', '=', id).execute();
}

/** The account as the export tells it: the user's row, personas and memory settings. */
export async function accountOf(db: Kysely<Database>, userId: string) {
  const [user, personas, memorySettings, subscription] = await Promise.all([
    db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow(),
    db
      .selectFrom('personas')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('memory_settings')
      .innerJoin('mates', 'mates.id', 'memory_settings.mate_id')
      .select(['memory_settings.mate_id', 'mates.name', 'memory_settings.across_chats'])
      .where('memory_settings.user_id', '=', userId)
      .execute(),
    db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).executeTakeFirst(),
  ]);
  return { user, personas, memorySettings, subscription };
}

/**
 * Every path of every chat of `userId`'s, oldest first, with its mate's name (a group's first
 * member's) and, in a group chat, the group's name.
 */
export function roomsOf(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('rooms')
    .innerJoin('mates', 'mates.id', 'rooms.mate_id')
    .select([
      'rooms.id',
      'rooms.mate_id',
      'mates.name as mate_name',
      'rooms.group_name',
      'rooms.family_id',
      'rooms.parent_room_id',
      'rooms.created_at',
      'rooms.updated_at',
    ])
    .where('rooms.user_id', '=', userId)
    .orderBy('rooms.created_at')
    .orderBy('rooms.id')
    .execute();
}

/** The ids and names of `userId`'s own mates that are not deleted. */
export function ownMatesOf(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('mates')
    .select(['id', 'name', 'visibility', 'hidden_at'])
    .where('creator_id', '=', userId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** A page of the drawn pictures in `userId`'s chats, after message `afterId` (by id). */
export function picturesPage(db: Kysely<Database>, userId: string, afterId: string) {
  return db
    .selectFrom('messages')
    .innerJoin('rooms', 'rooms.id', 'messages.room_id')
    .select(['messages.id', 'messages.room_id', 'messages.image_file'])
    .where('rooms.user_id', '=', userId)
    .where('messages.image_file', 'is not', null)
    .where('messages.id', '>', afterId)
    .orderBy('messages.id')
    .limit(EXPORT_PAGE)
    .execute();
}

/** A page of `userId`'s made voice clips, after clip `afterId` (by id). */
export function voiceClipsPage(db: Kysely<Database>, userId: string, afterId: string) {
  return db
    .selectFrom('speech_clips')
    .select(['id', 'message_id', 'voice', 'file', 'mime_type', 'created_at'])
    .where('user_id', '=', userId)
    .where('state', '=', 'ready')
    .where('file', 'is not', null)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(EXPORT_PAGE)
    .execute();
}

/** How many pictures and voice clips `userId` has, for the export's progress. */
export async function fileCounts(db: Kysely<Database>, userId: string) {
  const [pictures, clips] = await Promise.all([
    db
      .selectFrom('messages')
      .innerJoin('rooms', 'rooms.id', 'messages.room_id')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('rooms.user_id', '=', userId)
      .where('messages.image_file', 'is not', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('speech_clips')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', userId)
      .where('state', '=', 'ready')
      .where('file', 'is not', null)
      .executeTakeFirstOrThrow(),
  ]);
  return { pictures: Number(pictures.count), clips: Number(clips.count) };
}

/** `userId`'s reviews, favorites and follows, with the names they are about. */
export async function socialOf(db: Kysely<Database>, userId: string) {
  const [reviews, favorites, follows] = await Promise.all([
    db
      .selectFrom('reviews')
      .innerJoin('mates', 'mates.id', 'reviews.mate_id')
      .select([
        'reviews.mate_id',
        'mates.name',
        'reviews.rating',
        'reviews.content',
        'reviews.created_at',
      ])
      .where('reviews.user_id', '=', userId)
      .orderBy('reviews.created_at')
      .execute(),
    db
      .selectFrom('favorites')
      .innerJoin('mates', 'mates.id', 'favorites.mate_id')
      .select(['favorites.mate_id', 'mates.name', 'favorites.created_at'])
      .where('favorites.user_id', '=', userId)
      .orderBy('favorites.created_at')
      .execute(),
    db
      .selectFrom('follows')
      .innerJoin('users as creator', 'creator.id', 'follows.creator_id')
      .select(['follows.creator_id', 'creator.nickname', 'follows.created_at'])
      .where('follows.user_id', '=', userId)
      .orderBy('follows.created_at')
      .execute(),
  ]);
  return { reviews, favorites, follows };
}

/**
 * What `userId` wrote to the team: their reports of mates (with the mate's name while it
 * exists, and when and how the report was dealt with: the mate hidden, or the report dismissed)
 * and their messages to support, oldest first.
 */
export async function writtenToTeamOf(db: Kysely<Database>, userId: string) {
  const [reports, feedback] = await Promise.all([
    db
      .selectFrom('mate_feedback')
      .leftJoin('mates', 'mates.id', 'mate_feedback.mate_id')
      .select([
        'mate_feedback.mate_id',
        'mates.name',
        'mate_feedback.reason',
        'mate_feedback.content',
        'mate_feedback.created_at',
        'mate_feedback.closed_at',
        'mate_feedback.outcome',
      ])
      .where('mate_feedback.user_id', '=', userId)
      .orderBy('mate_feedback.created_at')
      .orderBy('mate_feedback.id')
      .execute(),
    db
      .selectFrom('user_feedback')
      .select(['category', 'content', 'contact', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  return { reports, feedback };
}

/** A page of `userId`'s benefits ledger, oldest first, after row `afterId`. */
export function ledgerPage(db: Kysely<Database>, userId: string, afterId: number) {
  return db
    .selectFrom('benefit_ledger')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(EXPORT_PAGE)
    .execute();
}

/** `userId`'s purchases: Checkout sessions and plan payments. */
export async function paymentsOf(db: Kysely<Database>, userId: string) {
  const [checkouts, planPayments] = await Promise.all([
    db
      .selectFrom('checkouts')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('plan_payments')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute(),
  ]);
  return { checkouts, planPayments };
}

/**
 * Where `userId` is signed in: when each session began, was last used and ends (never its
 * token's hash), oldest first.
 */
export function sessionsOf(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('sessions')
    .select(['created_at', 'last_seen_at', 'expires_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('last_seen_at')
    .execute();
}

/** The searches kept of `userId` (a word once a day, for the hot words), oldest first. */
export function searchesOf(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('search_word_people')
    .select(['word', 'day'])
    .where('user_id', '=', userId)
    .orderBy('day')
    .orderBy('word')
    .execute();
}

/** `userId`'s account while it is open: `undefined` once its deletion has begun, or it is gone. */
export async function openAccountOf(db: Kysely<Database>, userId: string) {
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  return user && !user.closing_at ? user : undefined;
}
