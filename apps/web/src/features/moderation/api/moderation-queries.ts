import type { ReportQueueState } from '@mates/api-client';

/** The query keys of moderation: the report queue's two tabs. */
export const moderationKeys = {
  /** Both tabs of the queue (refreshed after every moderator's action). */
  reports: () => ['reports'] as const,
  /** One tab: mates with open reports, or mates moderators hid. */
  queue: (state: ReportQueueState) => [...moderationKeys.reports(), state] as const,
};
