import { sql, type Kysely } from 'kysely';
import type { Database, SpeechClipTable } from '../db/schema';

/** The database, or a transaction of it: every function here takes either. */
type Db = Kysely<Database>;

/** A clip's row as written when it is (re)claimed for making: everything but its keys. */
export type FreshClip = Omit<SpeechClipTable, 'id' | 'message_id' | 'voice'>;

/** The clip `id`, or `undefined`. */
export function findClip(db: Db, id: string): Promise<SpeechClipTable | undefined> {
  return db.selectFrom('speech_clips').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether the clip `id` still exists (inside a transaction: not dropped meanwhile). */
export async function clipExists(db: Db, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('speech_clips')
    .select('id')
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

/** The clip of a message in a voice, or `undefined`. */
export function findClipOf(
  db: Db,
  messageId: string,
  voice: string,
): Promise<SpeechClipTable | undefined> {
  return db
    .selectFrom('speech_clips')
    .selectAll()
    .where('message_id', '=', messageId)
    .where('voice', '=', voice)
    .executeTakeFirst();
}

/** A message's words, or `undefined` once it is gone. */
export async function messageContent(db: Db, messageId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('messages')
    .select('content')
    .where('id', '=', messageId)
    .executeTakeFirst();
  return row?.content;
}

/** A message of one of `userId`'s rooms, with what its clip needs of its mate. */
export interface MessageToSpeak {
  content: string;
  role: string;
  status: string;
  /** A call's reply the person interrupted: `partial`, yet finished (what was said). */
  call_cut?: boolean | number | null;
  /** The mate's own voice, if it chose one. */
  voice: string | null;
  gender: string;
}

/** The message `messageId` in one of `userId`'s rooms, or `undefined`. */
export function messageToSpeak(
  db: Db,
  userId: string,
  messageId: string,
): Promise<MessageToSpeak | undefined> {
  return (
    db
      .selectFrom('messages')
      .innerJoin('rooms', 'rooms.id', 'messages.room_id')
      // A group's reply is spoken in its speaker's voice.
      .innerJoin('mates', (join) =>
        join.on(sql<boolean>`mates.id = coalesce(messages.speaker_id, rooms.mate_id)`),
      )
      .select([
        'messages.content',
        'messages.role',
        'messages.status',
        'messages.call_cut',
        'mates.voice',
        'mates.gender',
      ])
      .where('messages.id', '=', messageId)
      .where('rooms.user_id', '=', userId)
      .executeTakeFirst()
  );
}

/** Marks a pending clip failed: whether this call did (a clip already failed, made or gone: no). */
export async function markClipFailed(db: Db, id: string): Promise<boolean> {
  const marked = await db
    .updateTable('speech_clips')
    .set({ state: 'failed' })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(marked.numUpdatedRows) > 0;
}

/**
 * Records a pending clip made: its file, media type and length. `false` when it is no longer
 * pending (its message changed or went while it was spoken).
 */
export async function recordClipMade(
  db: Db,
  id: string,
  made: { file: string; mimeType: string; durationMs: number },
): Promise<boolean> {
  const kept = await db
    .updateTable('speech_clips')
    .set({
      file: made.file,
      mime_type: made.mimeType,
      duration_ms: made.durationMs,
      state: 'ready',
    })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(kept.numUpdatedRows) > 0;
}

/**
 * Claims the making of a pending clip not made yet until `until` (milliseconds since the epoch),
 * unless another server's claim lasts past `at`: whether this call claimed it.
 */
export async function claimClipMaking(
  db: Db,
  id: string,
  at: number,
  until: number,
): Promise<boolean> {
  const claimed = await db
    .updateTable('speech_clips')
    .set({ making_until: new Date(until).toISOString() })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .where('file', 'is', null)
    .where((eb) =>
      eb.or([eb('making_until', 'is', null), eb('making_until', '<', new Date(at).toISOString())]),
    )
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) > 0;
}

/** Lets go of the claim on a pending clip's making. */
export async function releaseClipMaking(db: Db, id: string): Promise<void> {
  await db
    .updateTable('speech_clips')
    .set({ making_until: null })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .execute();
}

/**
 * Renews `existing` as `fresh`, only if nobody renewed it meanwhile (its state and words are
 * still those read): whether this call did.
 */
export async function renewClip(
  db: Db,
  existing: SpeechClipTable,
  fresh: FreshClip,
): Promise<boolean> {
  const renewed = await db
    .updateTable('speech_clips')
    .set(fresh)
    .where('id', '=', existing.id)
    .where('state', '=', existing.state)
    .where('text_hash', '=', existing.text_hash)
    .executeTakeFirst();
  return Number(renewed.numUpdatedRows) > 0;
}

/** Adds a message's clip in a voice, unless one exists already: whether this call added it. */
export async function insertClip(db: Db, clip: SpeechClipTable): Promise<boolean> {
  const inserted = await db
    .insertInto('speech_clips')
    .values(clip)
    .onConflict((conflict) => conflict.columns(['message_id', 'voice']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Which messages' clips to drop: by id, or a room's (those after a position). */
export type SpeechOfMessages = { ids: string[] } | { roomId: string; afterPosition?: number };

/** What is left to settle of a dropped clip: its file, and its charge if never made. */
export type DroppedClip = Pick<
  SpeechClipTable,
  'file' | 'state' | 'cost' | 'user_id' | 'message_id' | 'making_until'
>;

/** Deletes the clips of `messages` and answers what they were. */
export function deleteClipsOf(db: Db, messages: SpeechOfMessages): Promise<DroppedClip[]> {
  return db
    .deleteFrom('speech_clips')
    .where('message_id', 'in', (eb) => {
      let query = eb.selectFrom('messages').select('id');
      if ('ids' in messages) return query.where('id', 'in', messages.ids);
      query = query.where('room_id', '=', messages.roomId);
      if (messages.afterPosition !== undefined)
        query = query.where('position', '>', messages.afterPosition);
      return query;
    })
    .returning(['file', 'state', 'cost', 'user_id', 'message_id', 'making_until'])
    .execute();
}
