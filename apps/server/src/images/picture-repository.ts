import type { Kysely, Transaction } from 'kysely';
import type { Database, JobTable, MateTable, MessageTable } from '../db/schema';
import type { PicturePayload } from './picture-messages';

/** The database, or a transaction of it. */
type Db = Kysely<Database> | Transaction<Database>;

/** What a picture message shows of its job. */
export type PictureJobFields = Pick<JobTable, 'id' | 'state' | 'progress' | 'error' | 'created_at'>;

/** The jobs of the picture messages among `rows`, by id. */
export async function jobsOf(db: Db, rows: MessageTable[]): Promise<Map<string, PictureJobFields>> {
  const ids = rows.flatMap((row) => (row.image_job_id ? [row.image_job_id] : []));
  if (ids.length === 0) return new Map();
  const jobs = await db
    .selectFrom('jobs')
    .select(['id', 'state', 'progress', 'error', 'created_at'])
    .where('id', 'in', ids)
    .execute();
  return new Map(jobs.map((job) => [job.id, job]));
}

/** The stored file of a message's picture, or `null` (no such message, or not drawn). */
export async function pictureFileOf(db: Db, messageId: string): Promise<string | null> {
  const row = await db
    .selectFrom('messages')
    .select('image_file')
    .where('id', '=', messageId)
    .executeTakeFirst();
  return row?.image_file ?? null;
}

/**
 * The stored file of the picture shared under `shareId`, or `null`: none is shared under it,
 * or its mate is hidden by moderators or deleted.
 */
export async function sharedPictureFileOf(db: Db, shareId: string): Promise<string | null> {
  const row = await db
    .selectFrom('messages')
    .innerJoin('rooms', 'rooms.id', 'messages.room_id')
    .innerJoin('mates', 'mates.id', 'rooms.mate_id')
    .select('messages.image_file')
    .where('messages.image_share_id', '=', shareId)
    .where('mates.hidden_at', 'is', null)
    .where('mates.deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.image_file ?? null;
}

/** Writes the file a picture was stored under; `false` when its message is gone. */
export async function setPictureFile(db: Db, messageId: string, file: string): Promise<boolean> {
  const recorded = await db
    .updateTable('messages')
    .set({ image_file: file })
    .where('id', '=', messageId)
    .executeTakeFirst();
  return Number(recorded.numUpdatedRows) > 0;
}

/** The picture message whose job is `jobId`, in one of `userId`'s rooms. */
export function ownPictureByJob(
  db: Db,
  userId: string,
  jobId: string,
): Promise<MessageTable | undefined> {
  return db
    .selectFrom('messages')
    .innerJoin('rooms', 'rooms.id', 'messages.room_id')
    .selectAll('messages')
    .where('messages.image_job_id', '=', jobId)
    .where('rooms.user_id', '=', userId)
    .executeTakeFirst();
}

/** A mate's mature-content flag (the mate must exist). */
export async function mateNsfwOf(db: Db, mateId: string): Promise<MateTable['nsfw']> {
  const mate = await db
    .selectFrom('mates')
    .select('nsfw')
    .where('id', '=', mateId)
    .executeTakeFirstOrThrow();
  return mate.nsfw;
}

/** Writes the id of the job that draws a picture message. */
export async function setPictureJob(db: Db, messageId: string, jobId: string): Promise<void> {
  await db
    .updateTable('messages')
    .set({ image_job_id: jobId })
    .where('id', '=', messageId)
    .execute();
}

/** The picture messages of a room that were drawn: succeeded, file kept. */
const finishedPictures = (db: Db, roomId: string) =>
  db
    .selectFrom('messages')
    .innerJoin('jobs', 'jobs.id', 'messages.image_job_id')
    .where('messages.room_id', '=', roomId)
    .where('messages.image_file', 'is not', null)
    .where('messages.image_error', 'is', null)
    .where('jobs.state', '=', 'succeeded');

/** How many pictures of a room were drawn (a string on PostgreSQL). */
export async function countFinishedPictures(db: Db, roomId: string): Promise<number | string> {
  const total = await finishedPictures(db, roomId)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return total.n;
}

/** One page of the pictures of a room that were drawn, newest first. */
export function finishedPicturesPage(
  db: Db,
  roomId: string,
  page: { pageSize: number; offset: number },
): Promise<MessageTable[]> {
  return finishedPictures(db, roomId)
    .selectAll('messages')
    .orderBy('messages.position', 'desc')
    .limit(page.pageSize)
    .offset(page.offset)
    .execute();
}

/** Whether the message `messageId` of a room is a picture that was drawn. */
export async function isFinishedPicture(
  db: Db,
  roomId: string,
  messageId: string,
): Promise<boolean> {
  const finished = await finishedPictures(db, roomId)
    .where('messages.id', '=', messageId)
    .select('messages.id')
    .executeTakeFirst();
  return finished !== undefined;
}

/**
 * The message `messageId` in one of `userId`'s rooms, unless its mate is hidden by moderators
 * or deleted (a picture of such a mate cannot be shared).
 */
export function shareableMessage(
  db: Db,
  userId: string,
  messageId: string,
): Promise<MessageTable | undefined> {
  return db
    .selectFrom('messages')
    .innerJoin('rooms', 'rooms.id', 'messages.room_id')
    .selectAll('messages')
    .innerJoin('mates', 'mates.id', 'rooms.mate_id')
    .where('messages.id', '=', messageId)
    .where('rooms.user_id', '=', userId)
    .where('mates.hidden_at', 'is', null)
    .where('mates.deleted_at', 'is', null)
    .executeTakeFirst();
}

/**
 * Shares a picture under `shareId` (only when it has no share id yet: sharing twice keeps the
 * first link), or with `null` unshares it (the old link finds nothing at once).
 */
export async function setPictureShare(
  db: Db,
  messageId: string,
  shareId: string | null,
): Promise<void> {
  await db
    .updateTable('messages')
    .set({ image_share_id: shareId })
    .where('id', '=', messageId)
    .$if(shareId !== null, (q) => q.where('image_share_id', 'is', null))
    .execute();
}

/** A message by id. */
export function messageById(db: Db, messageId: string): Promise<MessageTable | undefined> {
  return db.selectFrom('messages').selectAll().where('id', '=', messageId).executeTakeFirst();
}

/** What the picture job `jobId` was given, or `undefined` when there is no such job. */
export async function picturePayloadOf(db: Db, jobId: string): Promise<PicturePayload | undefined> {
  const stored = await db
    .selectFrom('jobs')
    .select('payload')
    .where('id', '=', jobId)
    .executeTakeFirst();
  // JSON text on SQLite, an object on PostgreSQL.
  const raw: unknown = stored?.payload;
  return (typeof raw === 'string' ? JSON.parse(raw) : raw) as PicturePayload | undefined;
}

/**
 * Pictures asked for before `askedBefore` that have no job, no file and no error: written and
 * charged, then the process died before the job was stored.
 */
export function unqueuedPictures(
  db: Db,
  askedBefore: Date,
): Promise<{ id: string; user_id: string }[]> {
  return db
    .selectFrom('messages')
    .innerJoin('rooms', 'rooms.id', 'messages.room_id')
    .leftJoin('jobs', 'jobs.id', 'messages.image_job_id')
    .select(['messages.id', 'rooms.user_id'])
    .where('messages.image_prompt', 'is not', null)
    .where('messages.image_error', 'is', null)
    .where('messages.image_file', 'is', null)
    .where('jobs.id', 'is', null)
    .where('messages.created_at', '<', askedBefore.toISOString())
    .execute();
}

/**
 * Marks a picture message failed with `error` unless it already failed; `true` only for the
 * caller whose update changed it (several servers may look at once).
 */
export async function failPictureOnce(db: Db, messageId: string, error: string): Promise<boolean> {
  const marked = await db
    .updateTable('messages')
    .set({ status: 'error', image_error: error })
    .where('id', '=', messageId)
    .where('image_error', 'is', null)
    .executeTakeFirst();
  return Number(marked.numUpdatedRows) > 0;
}

/**
 * What a message cost `userId` in gold coins and was not given back, from the ledger's rows
 * about it.
 */
export async function coinsOwedFor(db: Db, userId: string, messageId: string): Promise<number> {
  const moved = await db
    .selectFrom('benefit_ledger')
    .select((eb) => eb.fn.sum<number | string>('gold_coins_delta').as('net'))
    .where('user_id', '=', userId)
    .where('reference_type', '=', 'message')
    .where('reference_id', '=', messageId)
    .executeTakeFirst();
  return -Number(moved?.net ?? 0);
}
