import type {
  HotWord,
  Mate,
  MateExtraInfo,
  MateSummary,
  Paged,
  Review,
  TrendingEntry,
} from '@mates/api-client';
import type { UserTable } from '../db/schema';
import { now, toBool } from '../db/dialect';
import { forbidden, missing } from '../domain/errors';
import { isAdmin } from '../accounts/user-info';
import { visibilityClass } from './catalog-cache';
import type { CatalogDeps, ReadyAnswer } from './catalog-deps';
import { toMate, toMateSummary, type MateRow, type MateViewer } from './mate-rows';
import { isReported, liveMateRow } from './mate-repository';
import { recommendedMates, type ListingFilters } from './listing-repository';
import { creatorOf } from './creator-repository';
import { reviewsOf, saveReview, type ReviewFields } from './review-repository';
import { isFavorite } from './favorite-repository';
import { isFollowing } from './follow-repository';
import { dayOf, hotWords } from './hot-word-repository';
import { trendingMates } from './trending-repository';
import { addAnonymousReport, fileReport, type MateReport } from './report-repository';

/** A mate's row and its detail as everyone but its creator and administrators sees it. */
interface MateEntry {
  row: MateRow;
  detail: ReadyAnswer<Mate>;
}

/**
 * A mate's row and shared detail from the catalog cache (both the same for every viewer: who
 * may see the mate is decided per request, see {@link visibleEntry}); no row for a mate that
 * is deleted or unknown.
 */
function cachedMate(deps: CatalogDeps, mateId: string) {
  return deps.cache.get(['mates'], `mate|${mateId}`, async () => {
    const row = await liveMateRow(deps.db, mateId);
    return { row, detail: row && deps.ready(toMate(row)) };
  });
}

/**
 * A mate the caller may see with its shared detail, or a refusal: 4004 for a mate that is
 * unknown, deleted, not public (unless the caller's), or hidden by moderators (#14); 4003 for a
 * mate for adults when the caller did not turn mature content on. With `asModerator`,
 * administrators also see mates that moderators hid or that someone reported.
 */
export async function visibleEntry(
  deps: CatalogDeps,
  mateId: string,
  viewer: UserTable | null,
  options: { asModerator?: boolean } = {},
): Promise<MateEntry> {
  const { row, detail } = await cachedMate(deps, mateId);
  const isOwn = Boolean(viewer && row && row.creator_id === viewer.id);
  if (row && !isOwn && options.asModerator && (await moderates(deps, row, viewer)))
    return { row, detail: detail! };
  if (!row || (row.visibility !== 'public' && !isOwn)) throw missing('notices.notFound.mate');
  // A mate moderators hid is gone for everyone but its creator (#14).
  if (row.hidden_at && !isOwn) throw missing('notices.notFound.mate');
  if (toBool(row.nsfw) && !isOwn && !(viewer && toBool(viewer.nfsw)))
    throw forbidden('notices.mates.matureView');
  return { row, detail: detail! };
}

/** Whether `viewer` is an administrator looking at a mate in the moderation queue. */
async function moderates(
  deps: CatalogDeps,
  row: MateRow,
  viewer: UserTable | null,
): Promise<boolean> {
  if (!isAdmin(viewer, deps.adminEmails)) return false;
  return Boolean(row.hidden_at) || (await isReported(deps.db, row.id));
}

/** Who looks, for what only a mate's creator and administrators learn. */
const viewerOf = (deps: CatalogDeps, viewer: UserTable | null): MateViewer => ({
  userId: viewer?.id ?? null,
  isAdmin: isAdmin(viewer, deps.adminEmails),
});

/** `/mate/recommend`: mates that share more of the chosen tags first, then the most chatted with. */
export function recommend(
  deps: CatalogDeps,
  filters: ListingFilters,
  viewer: UserTable | null,
): Promise<ReadyAnswer<Paged<MateSummary>>> {
  const key = `recommend|${visibilityClass(viewer)}|${JSON.stringify(filters)}`;
  return deps.cache.get(['mates'], key, async () =>
    deps.ready(await recommendedMates(deps.db, filters, viewer)),
  );
}

/** `/mate/getMateDetail`: the whole mate; its creator and administrators are told more. */
export async function mateDetail(
  deps: CatalogDeps,
  mateId: string,
  viewer: UserTable | null,
): Promise<Mate | ReadyAnswer<Mate>> {
  const { row, detail } = await visibleEntry(deps, mateId, viewer, { asModerator: true });
  const who = viewerOf(deps, viewer);
  return who.isAdmin || row.creator_id === who.userId ? toMate(row, who) : detail;
}

/** `/mate/mateExtraInfo`: the creator, counters, reviews, and the caller's favorite and follow. */
export async function mateExtraInfo(
  deps: CatalogDeps,
  mateId: string,
  viewer: UserTable | null,
): Promise<MateExtraInfo> {
  const { db } = deps;
  const { row: mate } = await visibleEntry(deps, mateId, viewer, { asModerator: true });
  const [creator, reviews, favorite, following] = await Promise.all([
    creatorOf(db, mate.creator_id, viewer),
    reviewsOf(db, mateId),
    viewer ? isFavorite(db, viewer.id, mateId) : false,
    viewer ? isFollowing(db, viewer.id, mate.creator_id) : false,
  ]);
  return {
    mateId,
    creator: creator!,
    counters: toMateSummary(mate).counters,
    reviewSummary: reviews.summary,
    recentReviews: reviews.recent,
    isFavorite: favorite,
    isFollowingCreator: following,
  };
}

// Hot words and trending count in whole UTC days: the day is part of the key, so a new day
// computes anew.

/** `/mate/hotWords`: the words searched most lately. */
export function hotWordsToday(deps: CatalogDeps): Promise<ReadyAnswer<HotWord[]>> {
  return deps.cache.get(['hot_words'], `hotWords|${dayOf(Date.now())}`, async () =>
    deps.ready(await hotWords(deps.db)),
  );
}

/** `/mate/trendingRank`: the ten mates the most people chatted with lately. */
export function trendingToday(
  deps: CatalogDeps,
  viewer: UserTable | null,
): Promise<ReadyAnswer<TrendingEntry[]>> {
  const key = `trending|${visibilityClass(viewer)}|${dayOf(Date.now())}`;
  return deps.cache.get(['mates', 'trending'], key, async () => {
    const rows = await trendingMates(deps.db, viewer);
    return deps.ready(
      rows.map((row, index): TrendingEntry => ({
        rank: index + 1,
        mate: toMateSummary(row),
        recentChats: Number(row.recent_chats),
      })),
    );
  });
}

/**
 * `/mate/review`: the caller's one review of a mate they may see (a new one, or over their
 * earlier one). A creator's own stars would only inflate the rating others rely on: refused.
 */
export async function reviewMate(
  deps: CatalogDeps,
  user: UserTable,
  review: ReviewFields,
): Promise<Review> {
  const { row: mate } = await visibleEntry(deps, review.mateId, user);
  if (mate.creator_id === user.id) throw forbidden('notices.mates.ownReview');
  const at = now();
  const { reviewId, content } = await saveReview(deps.db, deps.dialect, user.id, review, at);
  return {
    reviewId,
    mateId: review.mateId,
    author: { creatorId: user.id, name: user.nickname, avatar: user.avatar },
    rating: review.rating,
    content,
    createdAt: at,
  };
}

/**
 * `/mate/feedback`: a report reaches the moderators' queue. It names a mate the caller can see
 * (a private id answers like an unknown one); a creator cannot report their own mate. A
 * signed-in reporter has at most one open report per mate: reporting again while it is open
 * replaces its reason and words with the new ones (their latest say), and adds no row. Once
 * moderators closed it, a new report opens a new one (the mate may have changed since).
 */
export async function reportMate(
  deps: CatalogDeps,
  user: UserTable | null,
  report: MateReport,
): Promise<null> {
  const { row: mate } = await visibleEntry(deps, report.mateId, user);
  if (user && mate.creator_id === user.id) throw forbidden('notices.mates.ownReport');
  if (user) await fileReport(deps.db, deps.dialect, user.id, report);
  else await addAnonymousReport(deps.db, report);
  return null;
}
