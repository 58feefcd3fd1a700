import type { Context } from 'hono';
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  MATE_FEEDBACK_REASONS,
  REPORT_QUEUE_STATES,
  type MateFeedbackReason,
  type MateModeration,
  type MateReport,
  type ReportedMate,
} from '@mates/api-client';
import type { Database, UserTable } from '../db/schema';
import { CODE, EnvelopeError, notFound } from '../http/envelope';
import { contract } from '../http/contract';
import { requireUser, type ApiEnv, type Deps } from '../http/context';
import { now } from '../db/dialect';
import { isAdmin } from '../accounts/user-info';
import { matesWithCreators, paging, toOwnMateSummary, toPage } from '../catalog/mate-rows';
import { id, pageFields } from '../catalog/query-schemas';

/** How many open reports one row of the queue carries. */
const REPORTS_PER_MATE = 20;

/**
 * The signed-in administrator, checked before the call's input is read: a visitor gets 5002,
 * anyone else 4003, whatever they sent.
 */
function requireAdmin(c: Context<ApiEnv>, adminEmails: ReadonlySet<string>): UserTable {
  const user = requireUser(c);
  if (!isAdmin(user, adminEmails))
    throw new EnvelopeError(CODE.forbidden, 'Only administrators can moderate reports.');
  return user;
}

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

/** The newest open reports of one mate, with who sent them. */
async function openReportsOf(db: Kysely<Database>, mateId: string): Promise<MateReport[]> {
  const rows = await db
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

/** `/admin/*`: the moderation queue of reported mates, for administrators (`ADMIN_EMAILS`). */
export function moderationRoutes(deps: Deps): Hono<ApiEnv> {
  const { db } = deps;
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/admin');
  const admin = (c: Context<ApiEnv>) => requireAdmin(c, deps.config.adminEmails);

  /** A mate the queue can act on (not deleted by its creator), or 4004. */
  async function moderatedMate(mateId: string) {
    const mate = await db
      .selectFrom('mates')
      .select(['id', 'hidden_at'])
      .where('id', '=', mateId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!mate) throw notFound('Mate');
    return mate;
  }

  const queueQuery = z.object({
    state: z.enum(REPORT_QUEUE_STATES).default(REPORT_QUEUE_STATES[0]),
    ...pageFields,
  });
  api.get('/admin/reports', queueQuery, async (c, read) => {
    admin(c);
    const input = await read();
    const pages = paging(input);
    const counts = openReportCounts(db).as('open');
    // `open`: reported mates still shown to people, newest report first. `hidden`: what
    // moderators hid, most recently hidden first, with reports that came since.
    const base =
      input.state === 'open'
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
      input.state === 'open'
        ? listed.orderBy('open.last_open', 'desc')
        : listed.orderBy('mates.hidden_at', 'desc');
    const [total, page] = await Promise.all([
      listed.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ordered
        .select(['mates.id', 'open.open_reports'])
        .orderBy('mates.id')
        .limit(pages.pageSize)
        .offset(pages.offset)
        .execute(),
    ]);
    const ids = page.map((row) => row.id);
    const [rows, latest] = await Promise.all([
      ids.length ? matesWithCreators(db).where('mates.id', 'in', ids).execute() : [],
      // The newest report of any state: for a hidden mate, the one that led to hiding it.
      ids.length
        ? db
            .selectFrom('mate_feedback')
            .select(['mate_id', (eb) => eb.fn.max('created_at').as('last')])
            .where('mate_id', 'in', ids)
            .groupBy('mate_id')
            .execute()
        : [],
    ]);
    const list: ReportedMate[] = await Promise.all(
      page.map(async (entry) => {
        const row = rows.find((mate) => mate.id === entry.id)!;
        const last = latest.find((report) => report.mate_id === entry.id)?.last;
        return {
          mate: toOwnMateSummary(row),
          reports: await openReportsOf(db, entry.id),
          openReports: Number(entry.open_reports ?? 0),
          lastReportedAt: last ? String(last) : null,
        };
      }),
    );
    return toPage(list, pages, total.n);
  });

  const hidePayload = z.object({
    mateId: id,
    reason: z.enum(MATE_FEEDBACK_REASONS),
    note: z.string().trim().max(2000).default(''),
  });
  api.post('/admin/hideMate', hidePayload, async (c, read) => {
    const moderator = admin(c);
    const input = await read();
    await moderatedMate(input.mateId);
    const at = now();
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('mates')
        .set({
          hidden_at: at,
          hidden_reason: input.reason,
          hidden_note: input.note,
          hidden_by: moderator.id,
        })
        .where('id', '=', input.mateId)
        .execute();
      await trx
        .updateTable('mate_feedback')
        .set({ closed_at: at, closed_by: moderator.id, outcome: 'hidden' })
        .where('mate_id', '=', input.mateId)
        .where('closed_at', 'is', null)
        .execute();
    });
    const result: MateModeration = { reason: input.reason, note: input.note, hiddenAt: at };
    return result;
  });

  const mateQuery = z.object({ mateId: id });
  api.post('/admin/restoreMate', mateQuery, async (c, read) => {
    admin(c);
    const { mateId } = await read();
    await moderatedMate(mateId);
    await db
      .updateTable('mates')
      .set({ hidden_at: null, hidden_reason: null, hidden_note: '', hidden_by: null })
      .where('id', '=', mateId)
      .execute();
    return null;
  });

  api.post('/admin/dismissReports', mateQuery, async (c, read) => {
    const moderator = admin(c);
    const { mateId } = await read();
    await moderatedMate(mateId);
    await db
      .updateTable('mate_feedback')
      .set({ closed_at: now(), closed_by: moderator.id, outcome: 'dismissed' })
      .where('mate_id', '=', mateId)
      .where('closed_at', 'is', null)
      .execute();
    return null;
  });
  return routes;
}
