import type { Kysely } from 'kysely';
import type { ReportQueueState } from '@mates/api-client';
import type { Database } from '../db/schema';

/** How many open reports one row of the queue carries. */
export const REPORTS_PER_MATE = 20;

/** Reports nobody has acted on yet: per mate, how many and when the newest came. */
function openReportCounts(db: Kysely<Database>) {
  return db
    .selectFrom('mate_feedback')
    .select([
      'mate_feedback.mate_id',
      (eb) => eb.fn.countAll<number>().as('open_reports'),
      (eb) => eb.fn.max('mate_feedback.created_at').as('last_open'),
    ])
    .where('mate_feedback.closed_at', 'is', null)
    .groupBy('mate_feedback.mate_id');
}

/** One entry of a page of the queue: a mate and how many open reports it has. */
export interface QueueEntry {
  id: string;
  open_reports: number | null;
}

/**
 * One page of the queue in `state` and how many mates it holds in all. `open`: reported mates
 * still shown to people, newest report first. `hidden`: what moderators hid, most recently
 * hidden first, with reports that came since. A mate its creator deleted is in neither.
 */
export async function reportQueuePage(
  db: Kysely<Database>,
  state: ReportQueueState,
  page: { limit: number; offset: number },
): Promise<{ entries: QueueEntry[]; total: number }> {
  const counts = openReportCounts(db).as('open');
  const base =
    state === 'open'
      ? db
          .selectFrom('mates')
          .innerJoin(counts, 'open.mate_id', 'mates.id')
          .where('mates.hidden_at', 'is', null)
      : db
          .selectFrom('mates')
          .leftJoin(counts, 'open.mate_id', 'mates.id')
          .where('mates.hidden_at', 'is not', null);
  const listed = base.where('mates.deleted_at', 'is', null);
  const ordered =
    state === 'open'
      ? listed.orderBy('open.last_open', 'desc')
      : listed.orderBy('mates.hidden_at', 'desc');
  const [total, entries] = await Promise.all([
    listed.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ordered
      .select(['mates.id', 'open.open_reports'])
      .orderBy('mates.id')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
  ]);
  return { entries, total: Number(total.n) };
}

/** When each of the mates of `ids` was last reported (a report of any state), by mate. */
export async function lastReportTimes(
  db: Kysely<Database>,
  ids: string[],
): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('mate_feedback')
    .select(['mate_id', (eb) => eb.fn.max('created_at').as('last')])
    .where('mate_id', 'in', ids)
    .groupBy('mate_id')
    .execute();
  return new Map(rows.map((row) => [row.mate_id, String(row.last)]));
}

/** The newest open reports of one mate ({@link REPORTS_PER_MATE} at most), with who sent them. */
export function openReportsOf(db: Kysely<Database>, mateId: string) {
  return db
    .selectFrom('mate_feedback')
    .leftJoin('users', 'users.id', 'mate_feedback.user_id')
    .select([
      'mate_feedback.id',
      'mate_feedback.reason',
      'mate_feedback.content',
      'mate_feedback.created_at',
      'users.id as reporter_id',
      'users.nickname',
      'users.avatar',
    ])
    .where('mate_feedback.mate_id', '=', mateId)
    .where('mate_feedback.closed_at', 'is', null)
    .orderBy('mate_feedback.created_at', 'desc')
    .orderBy('mate_feedback.id', 'desc')
    .limit(REPORTS_PER_MATE)
    .execute();
}

/** A mate the queue can act on (not deleted by its creator), or `undefined`. */
export function moderatedMate(
  db: Kysely<Database>,
  mateId: string,
): Promise<{ id: string; hidden_at: string | null } | undefined> {
  return db
    .selectFrom('mates')
    .select(['id', 'hidden_at'])
    .where('id', '=', mateId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** What a moderator decided about a mate's open reports. */
interface Closing {
  at: string;
  moderatorId: string;
  outcome: 'hidden' | 'dismissed';
}

/** Closes every open report of a mate with a moderator's decision. */
export async function closeOpenReports(
  db: Kysely<Database>,
  mateId: string,
  closing: Closing,
): Promise<void> {
  await db
    .updateTable('mate_feedback')
    .set({ closed_at: closing.at, closed_by: closing.moderatorId, outcome: closing.outcome })
    .where('mate_id', '=', mateId)
    .where('closed_at', 'is', null)
    .execute();
}

/** Hides a mate with a moderator's reason and note, and closes its open reports as hidden. */
export async function hideMateRow(
  db: Kysely<Database>,
  mateId: string,
  hiding: { at: string; moderatorId: string; reason: string; note: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('mates')
      .set({
        hidden_at: hiding.at,
        hidden_reason: hiding.reason,
        hidden_note: hiding.note,
        hidden_by: hiding.moderatorId,
      })
      .where('id', '=', mateId)
      .execute();
    await closeOpenReports(trx, mateId, { ...hiding, outcome: 'hidden' });
  });
}

/** Shows a hidden mate again: its moderation is cleared. */
export async function restoreMateRow(db: Kysely<Database>, mateId: string): Promise<void> {
  await db
    .updateTable('mates')
    .set({ hidden_at: null, hidden_reason: null, hidden_note: '', hidden_by: null })
    .where('id', '=', mateId)
    .execute();
}
