import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { DialectName } from '../db/dialect';

/** How many ids one statement names at most (SQLite allows 32,766 variables; kept far below). */
const CHUNK = 500;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += CHUNK) out.push(items.slice(at, at + CHUNK));
  return out;
}

/** The address a closing account carries until it is gone (nobody can sign in with it). */
export const closingAddress = (userId: string) => `closing-${userId}@closing.invalid`;

/**
 * Marks `userId`'s account as being deleted, in one transaction: the choice for their public
 * mates, every way of signing in taken away (password, Google, Discord, the address, so that
 * it can sign up again at once as a new person), every session ended, pending sign-up and
 * reset links gone. What is left is completed by {@link deleteAccountRows}.
 */
export async function markClosing(
  db: Kysely<Database>,
  dialect: DialectName,
  userId: string,
  keepPublicMates: boolean,
  at: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({
        closing_at: at,
        closing_keeps_mates: dialect === 'sqlite' ? Number(keepPublicMates) : keepPublicMates,
        email: closingAddress(userId),
        email_verified_at: null,
        password_hash: null,
        google_sub: null,
        discord_id: null,
        updated_at: at,
      })
      .where('id', '=', userId)
      .execute();
    await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
    await trx.deleteFrom('email_verifications').where('user_id', '=', userId).execute();
    await trx.deleteFrom('password_resets').where('user_id', '=', userId).execute();
  });
}

/** The accounts marked as being deleted (a deletion a kill interrupted). */
export function closingAccounts(db: Kysely<Database>) {
  return db
    .selectFrom('users')
    .select(['id', 'closing_keeps_mates'])
    .where('closing_at', 'is not', null)
    .execute();
}

/** What deleting `userId`'s account would delete, counted. */
export async function accountCounts(db: Kysely<Database>, userId: string) {
  const [chats, personas, pictures, clips, mates, plan] = await Promise.all([
    db
      .selectFrom('rooms')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('personas')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
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
      .where('file', 'is not', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('mates')
      .select(['visibility'])
      .where('creator_id', '=', userId)
      .where('deleted_at', 'is', null)
      .execute(),
    subscriptionRow(db, userId),
  ]);
  return {
    chats: Number(chats.count),
    personas: Number(personas.count),
    pictures: Number(pictures.count),
    voiceClips: Number(clips.count),
    publicMates: mates.filter((mate) => mate.visibility === 'public').length,
    privateMates: mates.filter((mate) => mate.visibility !== 'public').length,
    plan,
  };
}

/** The subscription of `userId`, if any. */
export function subscriptionRow(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Records that a plan was cancelled at Stripe (before its account goes). */
export async function markPlanCancelled(db: Kysely<Database>, userId: string): Promise<void> {
  await db
    .updateTable('subscriptions')
    .set({ status: 'canceled' })
    .where('user_id', '=', userId)
    .execute();
}

/** The ids of `userId`'s chats. */
export async function roomIdsOf(db: Kysely<Database>, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('rooms').select('id').where('user_id', '=', userId).execute();
  return rows.map((row) => row.id);
}

/** Every stored file of `userId`'s, as media store keys, and the jobs working for them. */
export async function filesAndJobsOf(db: Kysely<Database>, userId: string) {
  const [pictures, clips, exports, personas, user, rooms] = await Promise.all([
    db
      .selectFrom('messages')
      .innerJoin('rooms', 'rooms.id', 'messages.room_id')
      .select(['messages.image_file', 'messages.image_job_id'])
      .where('rooms.user_id', '=', userId)
      .where((eb) =>
        eb.or([
          eb('messages.image_file', 'is not', null),
          eb('messages.image_job_id', 'is not', null),
        ]),
      )
      .execute(),
    db
      .selectFrom('speech_clips')
      .leftJoin('messages', 'messages.id', 'speech_clips.message_id')
      .leftJoin('rooms', 'rooms.id', 'messages.room_id')
      .select(['speech_clips.file'])
      .where((eb) =>
        eb.or([eb('speech_clips.user_id', '=', userId), eb('rooms.user_id', '=', userId)]),
      )
      .where('speech_clips.file', 'is not', null)
      .execute(),
    db.selectFrom('data_exports').select(['id', 'file']).where('user_id', '=', userId).execute(),
    db.selectFrom('personas').select('avatar').where('user_id', '=', userId).execute(),
    db.selectFrom('users').select('avatar').where('id', '=', userId).executeTakeFirst(),
    roomIdsOf(db, userId),
  ]);
  return {
    keys: [
      ...pictures.filter((row) => row.image_file).map((row) => `pictures/${row.image_file}`),
      ...clips.map((row) => `speech/${row.file}`),
      ...exports.filter((row) => row.file).map((row) => row.file!),
    ],
    avatars: [user?.avatar, ...personas.map((row) => row.avatar)].filter(
      (avatar): avatar is string => Boolean(avatar),
    ),
    jobIds: [
      ...pictures.filter((row) => row.image_job_id).map((row) => row.image_job_id!),
      ...exports.map((row) => row.id),
    ],
    roomIds: rooms,
  };
}

/** `userId`'s mates (deleted ones too), and whether anyone else has a chat with each. */
export async function matesToSettle(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('mates')
    .select((eb) => [
      'mates.id',
      'mates.avatar',
      'mates.visibility',
      'mates.deleted_at',
      'mates.hidden_at',
      eb
        .exists(
          eb
            .selectFrom('rooms')
            .select('rooms.id')
            .whereRef('rooms.mate_id', '=', 'mates.id')
            .where('rooms.user_id', '!=', userId),
        )
        .as('others_chat'),
    ])
    .where('creator_id', '=', userId)
    .execute();
}

/** What happens to each of the person's mates, decided before the transaction. */
export interface MateFates {
  /** Kept as they are, under "a former member". */
  keep: string[];
  /** Deleted, but kept as rows under "a former member": others' chats with them stay readable. */
  retire: string[];
  /** Deleted outright. */
  remove: string[];
}

/**
 * Deletes every row of `userId`'s in one transaction. Their kept and retired mates, their
 * ledger, purchases and plan payments go to `formerId`, a new anonymous "a former member" row
 * (made only when something needs it); the jobs working for them go; their reports are
 * withdrawn and their name taken off moderation they did; the user row then takes the rest
 * with it (sessions, rooms and messages, personas, favorites, follows, reviews, …).
 */
export async function deleteAccountRows(
  db: Kysely<Database>,
  dialect: DialectName,
  input: {
    userId: string;
    formerId: string;
    fates: MateFates;
    jobIds: string[];
    roomIds: string[];
  },
  at: string,
): Promise<void> {
  const { userId, formerId, fates } = input;
  await db.transaction().execute(async (trx) => {
    const [ledger, checkouts, payments] = await Promise.all([
      countOf(trx, 'benefit_ledger', userId),
      countOf(trx, 'checkouts', userId),
      countOf(trx, 'plan_payments', userId),
    ]);
    const needsFormer = fates.keep.length + fates.retire.length + ledger + checkouts + payments > 0;
    if (needsFormer) {
      const no = dialect === 'sqlite' ? 0 : false;
      await trx
        .insertInto('users')
        .values({
          id: formerId,
          email: `former-${formerId}@former-member.invalid`,
          password_hash: null,
          nickname: 'a former member',
          avatar: null,
          bio: '',
          language: 'en',
          nfsw: no,
          tags: '[]',
          gender: null,
          email_verified_at: null,
          google_sub: null,
          discord_id: null,
          former_member: dialect === 'sqlite' ? 1 : true,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      for (const ids of chunks([...fates.keep, ...fates.retire])) {
        await trx
          .updateTable('mates')
          .set({ creator_id: formerId })
          .where('id', 'in', ids)
          .execute();
      }
      for (const ids of chunks(fates.retire)) {
        await trx
          .updateTable('mates')
          .set({ deleted_at: at, updated_at: at })
          .where('id', 'in', ids)
          .where('deleted_at', 'is', null)
          .execute();
      }
      for (const table of ['benefit_ledger', 'checkouts', 'plan_payments'] as const) {
        await trx
          .updateTable(table)
          .set({ user_id: formerId })
          .where('user_id', '=', userId)
          .execute();
      }
    }
    for (const ids of chunks(fates.remove))
      await trx.deleteFrom('mates').where('id', 'in', ids).execute();
    // Jobs name the person (a picture's prompt, an export) or their rooms (memories).
    for (const ids of chunks(input.jobIds))
      await trx.deleteFrom('jobs').where('id', 'in', ids).execute();
    const payloadText = dialect === 'postgres' ? sql<string>`payload::text` : sql<string>`payload`;
    await trx.deleteFrom('jobs').where(payloadText, 'like', `%${userId}%`).execute();
    for (const ids of chunks(input.roomIds)) {
      await trx.deleteFrom('jobs').where('singleton_key', 'in', ids).execute();
    }
    await trx.deleteFrom('mate_feedback').where('user_id', '=', userId).execute();
    await trx
      .updateTable('mate_feedback')
      .set({ closed_by: null })
      .where('closed_by', '=', userId)
      .execute();
    await trx
      .updateTable('mates')
      .set({ hidden_by: null })
      .where('hidden_by', '=', userId)
      .execute();
    await trx.deleteFrom('user_feedback').where('user_id', '=', userId).execute();
    await trx.deleteFrom('mate_chatters').where('user_id', '=', userId).execute();
    await trx.deleteFrom('users').where('id', '=', userId).execute();
  });
}

async function countOf(
  trx: Transaction<Database>,
  table: 'benefit_ledger' | 'checkouts' | 'plan_payments',
  userId: string,
): Promise<number> {
  const row = await trx
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Whether anything that stays after `userId`'s deletion shows the picture at `url`: a mate
 * other than those in `goingMates`, another user, or another user's persona (a portrait copied
 * into someone's persona stays theirs).
 */
export async function portraitStays(
  db: Kysely<Database>,
  url: string,
  userId: string,
  goingMates: string[],
): Promise<boolean> {
  // The mates showing it, one more than are going at most (however many go, no `in` list):
  // if any of them is not going, the portrait stays.
  const going = new Set(goingMates);
  const [mates, user, persona] = await Promise.all([
    db
      .selectFrom('mates')
      .select('id')
      .where('avatar', '=', url)
      .limit(going.size + 1)
      .execute(),
    db
      .selectFrom('users')
      .select('id')
      .where('avatar', '=', url)
      .where('id', '!=', userId)
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom('personas')
      .select('id')
      .where('avatar', '=', url)
      .where('user_id', '!=', userId)
      .limit(1)
      .executeTakeFirst(),
  ]);
  return mates.some((mate) => !going.has(mate.id)) || Boolean(user || persona);
}
