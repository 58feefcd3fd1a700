import type { IsoDateTime, PageQuery } from './common';
import type { CreatorSummary, MateFeedbackReason, MateModeration, OwnMateSummary } from './mate';

/** Every state `GET /admin/reports` filters by; the first is the default. */
export const REPORT_QUEUE_STATES = ['open', 'hidden'] as const;

/**
 * Which mates the queue lists: `open` (with reports nobody has acted on yet) or `hidden`
 * (hidden by moderators, to restore).
 */
export type ReportQueueState = (typeof REPORT_QUEUE_STATES)[number];

/** Query of `GET /admin/reports` (administrators only). */
export interface ReportQueueQuery extends PageQuery {
  /** Which mates; default `open`. */
  state?: ReportQueueState;
}

/** One report of a mate, as `POST /mate/feedback` stored it. */
export interface MateReport {
  /** Report id. */
  reportId: string;
  /** Why. */
  reason: MateFeedbackReason;
  /** The reporter's words; may be empty. */
  content: string;
  /** Who reported it, or `null` for a visitor who was not signed in. */
  reporter: CreatorSummary | null;
  /** When. */
  createdAt: IsoDateTime;
}

/** One row of the moderation queue: a reported (or hidden) mate and its open reports. */
export interface ReportedMate {
  /** The mate, with its visibility and moderation state. */
  mate: OwnMateSummary;
  /** Open reports, newest first (at most 20). */
  reports: MateReport[];
  /** How many open reports it has. */
  openReports: number;
  /** When the latest report came, or `null`. */
  lastReportedAt: IsoDateTime | null;
}

/** Payload of `POST /admin/hideMate`: hides a mate and closes its open reports. */
export interface HideMatePayload {
  /** The mate. */
  mateId: string;
  /** Why, told to the creator. */
  reason: MateFeedbackReason;
  /** Words for the creator, up to 2,000 characters. */
  note?: string;
}

/** Payload of `POST /admin/restoreMate` and `POST /admin/dismissReports`. */
export interface ModerateMateQuery {
  /** The mate. */
  mateId: string;
}

/** Answer of `POST /admin/hideMate`. */
export type HideMateResult = MateModeration;
