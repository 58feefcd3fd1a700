import type { Kysely } from 'kysely';
import type { MateFeedbackReason, UserFeedbackCategory } from '@mates/api-client';
import type { Database } from '../db/schema';
import { now, type DialectName } from '../db/dialect';
import { inUserTransaction } from '../db/user-lock';

/** What someone reports about a mate. */
export interface MateReport {
  mateId: string;
  reason: MateFeedbackReason;
  content: string;
}

/** Adds a report by someone not signed in: each one is a new row. */
export async function addAnonymousReport(db: Kysely<Database>, report: MateReport): Promise<void> {
  await db
    .insertInto('mate_feedback')
    .values({
      reason: report.reason,
      content: report.content,
      created_at: now(),
      user_id: null,
      mate_id: report.mateId,
    })
    .execute();
}

/**
 * Files `userId`'s report: their open report on the mate takes the new reason and words, or a
 * new one opens. One reporter's calls run one after the other (the user's lock): two at once
 * cannot open two reports.
 */
export function fileReport(
  db: Kysely<Database>,
  dialect: DialectName,
  userId: string,
  report: MateReport,
): Promise<void> {
  const fields = { reason: report.reason, content: report.content, created_at: now() };
  return inUserTransaction(db, dialect, userId, async (trx) => {
    const open = await trx
      .selectFrom('mate_feedback')
      .select('id')
      .where('user_id', '=', userId)
      .where('mate_id', '=', report.mateId)
      .where('closed_at', 'is', null)
      .executeTakeFirst();
    if (open)
      await trx.updateTable('mate_feedback').set(fields).where('id', '=', open.id).execute();
    else
      await trx
        .insertInto('mate_feedback')
        .values({ ...fields, user_id: userId, mate_id: report.mateId })
        .execute();
  });
}

/** What someone tells the team about the product (`/user/feedback`). */
export interface UserFeedback {
  category: UserFeedbackCategory;
  content: string;
  contact: string;
}

/** Keeps feedback for the team, with its sender when signed in. */
export async function addUserFeedback(
  db: Kysely<Database>,
  userId: string | null,
  feedback: UserFeedback,
): Promise<void> {
  await db
    .insertInto('user_feedback')
    .values({ user_id: userId, ...feedback, created_at: now() })
    .execute();
}
