import { sql, type Kysely, type Transaction, type Updateable } from 'kysely';
import type { CardSpec, MateDraft, MateVisibility } from '@mates/api-client';
import type { Database, MateTable } from '../db/schema';
import { now, toJson } from '../db/dialect';
import { preparedQuery } from '../db/prepared-query';
import { missing } from '../domain/errors';
import { matesWithCreators, type MateRow, type paging } from './mate-rows';

/**
 * What a new mate needs: the editable fields of the contract's `MateDraft` (tags are tag
 * keys, also written to the mate_tags index by {@link insertMates}) and where it belongs;
 * the rest (counters, timestamps, JSON encoding) is filled in.
 */
export interface NewMate extends MateDraft {
  id: string;
  creator_id: string;
  avatar: string;
  visibility: MateVisibility;
  extensions?: Record<string, unknown>;
  card_extra?: Record<string, unknown>;
  card_spec?: CardSpec;
  /** Its voice (an id of `GET /voice/voices`); absent or `null` for the default. */
  voice?: string | null;
  created_at?: string;
}

/** A mate row with zero counters, JSON columns written as both dialects accept them. */
export function newMateRow(mate: NewMate): MateTable {
  const at = mate.created_at ?? now();
  return {
    ...mate,
    alternate_greetings: toJson(mate.alternate_greetings),
    tags: toJson(mate.tags),
    extensions: toJson(mate.extensions ?? {}),
    card_extra: toJson(mate.card_extra ?? {}),
    card_spec: mate.card_spec ?? 'v2',
    voice: mate.voice ?? null,
    chats_count: 0,
    messages_count: 0,
    favorites_count: 0,
    reviews_count: 0,
    rating_sum: 0,
    deleted_at: null,
    hidden_at: null,
    hidden_reason: null,
    hidden_note: '',
    hidden_by: null,
    created_at: at,
    updated_at: at,
  };
}

/** Inserts mates and their tag index rows. */
export async function insertMates(
  db: Kysely<Database> | Transaction<Database>,
  mates: NewMate[],
): Promise<void> {
  if (mates.length === 0) return;
  await db.insertInto('mates').values(mates.map(newMateRow)).execute();
  const tags = mates.flatMap((mate) => mate.tags.map((tag_key) => ({ mate_id: mate.id, tag_key })));
  if (tags.length) await db.insertInto('mate_tags').values(tags).execute();
}

// Read again for every mate asked about once its cached answer is past its TTL: compiled once.
const liveMateRowById = preparedQuery((db, v: { id: string }) =>
  matesWithCreators(db).where('mates.id', '=', v.id).where('mates.deleted_at', 'is', null),
);

/** The mate with its creator's public fields, unless it is deleted or unknown. */
export async function liveMateRow(
  db: Kysely<Database>,
  mateId: string,
): Promise<MateRow | undefined> {
  return (await liveMateRowById(db, { id: mateId })).rows[0];
}

/** The mate with its creator's public fields, deleted or not; it must exist. */
export function mateRow(db: Kysely<Database>, mateId: string): Promise<MateRow> {
  return matesWithCreators(db).where('mates.id', '=', mateId).executeTakeFirstOrThrow();
}

/** Mates with their creators, by id (none asked: none read). */
export function matesByIds(db: Kysely<Database>, ids: string[]): Promise<MateRow[]> {
  return ids.length
    ? matesWithCreators(db).where('mates.id', 'in', ids).execute()
    : Promise.resolve([]);
}

/**
 * One of `userId`'s own mates that is not deleted, or a 4004: another user's mate answers
 * as if it did not exist, and so does a deleted one, for its owner too.
 */
export async function findOwnMate(
  db: Kysely<Database>,
  userId: string,
  mateId: string,
): Promise<MateTable> {
  const row = await db
    .selectFrom('mates')
    .selectAll()
    .where('id', '=', mateId)
    .where('creator_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw missing('notices.notFound.mate');
  return row;
}

/**
 * Writes `set` on `own` only while it is not deleted and its portrait (and, with
 * `visibility: true`, its visibility) is still as read; answers whether it did (another call
 * may have changed them meanwhile).
 */
export async function writeMateAsRead(
  db: Kysely<Database>,
  own: MateTable,
  set: Updateable<MateTable>,
  asRead: { visibility: boolean },
): Promise<boolean> {
  const written = await db
    .updateTable('mates')
    .set(set)
    .where('id', '=', own.id)
    .where('avatar', '=', own.avatar)
    .$if(asRead.visibility, (update) => update.where('visibility', '=', own.visibility))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return written.numUpdatedRows > 0n;
}

/** Gives a mate the tags `tags` (tag keys) in the tag index, and no others. */
export async function replaceMateTags(
  trx: Transaction<Database>,
  mateId: string,
  tags: string[],
): Promise<void> {
  await trx.deleteFrom('mate_tags').where('mate_id', '=', mateId).execute();
  if (tags.length)
    await trx
      .insertInto('mate_tags')
      .values(tags.map((tag_key) => ({ mate_id: mateId, tag_key })))
      .execute();
}

/** Hides mate `mateId` as moderators hid `source`: the same time, reason, note and moderator. */
export async function hideLike(
  trx: Transaction<Database>,
  mateId: string,
  source: MateTable,
): Promise<void> {
  await trx
    .updateTable('mates')
    .set({
      hidden_at: source.hidden_at,
      hidden_reason: source.hidden_reason,
      hidden_note: source.hidden_note,
      hidden_by: source.hidden_by,
    })
    .where('id', '=', mateId)
    .execute();
}

/** Whether a mate, a user or a persona shows the picture at `url`. */
export async function portraitInUse(db: Kysely<Database>, url: string): Promise<boolean> {
  const [mate, user, persona] = await Promise.all([
    db.selectFrom('mates').select('id').where('avatar', '=', url).limit(1).executeTakeFirst(),
    db.selectFrom('users').select('id').where('avatar', '=', url).limit(1).executeTakeFirst(),
    db.selectFrom('personas').select('id').where('avatar', '=', url).limit(1).executeTakeFirst(),
  ]);
  return Boolean(mate || user || persona);
}

/** How many mates `userId` keeps (deleted ones do not count). */
export async function countOwnMates(
  db: Kysely<Database> | Transaction<Database>,
  userId: string,
): Promise<number> {
  const { n } = await db
    .selectFrom('mates')
    .select(sql<number>`count(*)`.as('n'))
    .where('creator_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** One page of `userId`'s own mates (of one visibility, or all), most recently changed first. */
export async function ownMatesPage(
  db: Kysely<Database>,
  userId: string,
  visibility: MateVisibility | undefined,
  pages: ReturnType<typeof paging>,
): Promise<{ rows: MateRow[]; total: number }> {
  let own = matesWithCreators(db)
    .where('mates.creator_id', '=', userId)
    .where('mates.deleted_at', 'is', null);
  if (visibility) own = own.where('mates.visibility', '=', visibility);
  const [total, rows] = await Promise.all([
    own
      .clearSelect()
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow(),
    own
      .orderBy('mates.updated_at', 'desc')
      .orderBy('mates.id')
      .limit(pages.pageSize)
      .offset(pages.offset)
      .execute(),
  ]);
  return { rows, total: Number(total.n) };
}

/** Whether anyone reported the mate (an open or a closed report). */
export async function isReported(db: Kysely<Database>, mateId: string): Promise<boolean> {
  const report = await db
    .selectFrom('mate_feedback')
    .select('id')
    .where('mate_id', '=', mateId)
    .limit(1)
    .executeTakeFirst();
  return Boolean(report);
}
