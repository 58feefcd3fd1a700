import type { Kysely } from 'kysely';
import type {
  MateFeedbackReason,
  MateModeration,
  MateReport,
  Paged,
  ReportQueueState,
  ReportedMate,
} from '@mates/api-client';
import type { Config } from '../config';
import type { Database, UserTable } from '../db/schema';
import { matesByIds } from '../catalog/mate-repository';
import { now } from '../db/dialect';
import { forbidden, missing } from '../domain/errors';
import { isAdmin } from '../accounts/user-info';
import { paging, toOwnMateSummary, toPage } from '../catalog/mate-rows';
import {
  closeOpenReports,
  hideMateRow,
  lastReportTimes,
  moderatedMate,
  openReportsOf,
  reportQueuePage,
  restoreMateRow,
} from './moderation-repository';

/** What the moderation services work with. */
export interface ModerationDeps {
  db: Kysely<Database>;
  config: Pick<Config, 'adminEmails'>;
}

/** `user` when they moderate reports (`ADMIN_EMAILS`), else a refusal (4003). */
export function moderator(deps: ModerationDeps, user: UserTable): UserTable {
  if (!isAdmin(user, deps.config.adminEmails)) throw forbidden('notices.mates.adminsOnly');
  return user;
}

/** The newest open reports of one mate, as the queue shows them. */
async function reportsOf(deps: ModerationDeps, mateId: string): Promise<MateReport[]> {
  const rows = await openReportsOf(deps.db, mateId);
  return rows.map((row) => ({
    reportId: String(row.id),
    reason: row.reason as MateFeedbackReason,
    content: row.content,
    reporter: row.reporter_id
      ? { creatorId: row.reporter_id, name: row.nickname ?? '', avatar: row.avatar ?? null }
      : null,
    createdAt: row.created_at,
  }));
}

/**
 * One page of the moderation queue: reported mates still shown (`open`), or the ones
 * moderators hid (`hidden`), each with its open reports and when it was last reported (for a
 * hidden mate, the report that led to hiding it).
 */
export async function reportQueue(
  deps: ModerationDeps,
  input: { state: ReportQueueState; page?: number; pageSize?: number },
): Promise<Paged<ReportedMate>> {
  const pages = paging(input);
  const { entries, total } = await reportQueuePage(deps.db, input.state, {
    limit: pages.pageSize,
    offset: pages.offset,
  });
  const ids = entries.map((entry) => entry.id);
  const [rows, latest] = await Promise.all([
    matesByIds(deps.db, ids),
    lastReportTimes(deps.db, ids),
  ]);
  const list = await Promise.all(
    entries.map(async (entry) => ({
      mate: toOwnMateSummary(rows.find((mate) => mate.id === entry.id)!),
      reports: await reportsOf(deps, entry.id),
      openReports: Number(entry.open_reports ?? 0),
      lastReportedAt: latest.get(entry.id) ?? null,
    })),
  );
  return toPage(list, pages, total);
}

/** The mate the queue acts on, or 4004 when there is none (or its creator deleted it). */
async function queuedMate(deps: ModerationDeps, mateId: string): Promise<void> {
  if (!(await moderatedMate(deps.db, mateId))) throw missing('notices.notFound.mate');
}

/** Hides a mate from everyone but its creator, with the moderator's reason; closes its reports. */
export async function hideMate(
  deps: ModerationDeps,
  moderatorUser: UserTable,
  input: { mateId: string; reason: MateFeedbackReason; note: string },
): Promise<MateModeration> {
  await queuedMate(deps, input.mateId);
  const at = now();
  await hideMateRow(deps.db, input.mateId, {
    at,
    moderatorId: moderatorUser.id,
    reason: input.reason,
    note: input.note,
  });
  return { reason: input.reason, note: input.note, hiddenAt: at };
}

/** Shows a hidden mate again. */
export async function restoreMate(deps: ModerationDeps, mateId: string): Promise<void> {
  await queuedMate(deps, mateId);
  await restoreMateRow(deps.db, mateId);
}

/** Closes a mate's open reports as dismissed: the mate stays as it is. */
export async function dismissReports(
  deps: ModerationDeps,
  moderatorUser: UserTable,
  mateId: string,
): Promise<void> {
  await queuedMate(deps, mateId);
  await closeOpenReports(deps.db, mateId, {
    at: now(),
    moderatorId: moderatorUser.id,
    outcome: 'dismissed',
  });
}
