import { Hono } from 'hono';
import { sql } from 'kysely';
import { z } from 'zod';
import {
  MATE_FEEDBACK_REASONS,
  type MateExtraInfo,
  type Review,
  type TrendingEntry,
} from '@mates/api-client';
import { CODE, EnvelopeError, notFound } from '../http/envelope';
import { SharedAnswer } from '../http/shared-answer';
import { contract } from '../http/contract';
import type { SharedCalls } from '../http/shared-calls';
import { clientIp, requireUser, type ApiEnv, type Deps } from '../http/context';
import { consume } from '../accounts/rate-limits';
import { inUserTransaction } from '../db/user-lock';
import { preparedQuery } from '../db/prepared-query';
import { now, toBool } from '../db/dialect';
import {
  matesWithCreators,
  paging,
  toMate,
  toMateSummary,
  type MateRow,
  type MateViewer,
} from './mate-rows';
import type { UserTable } from '../db/schema';
import { isAdmin } from '../accounts/user-info';
import { listableMateIds, pageOfMates } from './mate-ids';
import { gender, id, pageFields, tagList } from './query-schemas';
import { searchRoute } from './search';
import { hotWords } from './hot-words';
import { trendingMates } from './trending';
import { socialRoutes } from './social-routes';
import { createCatalogCache, visibilityClass } from './catalog-cache';
import { dayOf } from './hot-words';
import { creatorOf, reviewsOf } from './creators';
import { saveReview } from './reviews';

// Read again for every mate asked about once its cached answer is past its TTL: compiled once.
const mateRowById = preparedQuery((db, v: { id: string }) =>
  matesWithCreators(db).where('mates.id', '=', v.id).where('mates.deleted_at', 'is', null),
);

/** `/mate/*`: recommend, detail, extra info, search, hot words, trending, reviews, reports. */
export function mateRoutes(deps: Deps, shared: SharedCalls): Hono<ApiEnv> {
  const { db } = deps;
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/mate', shared);
  const cache = createCatalogCache(db);

  /**
   * A mate's row, and its detail as everyone but its creator and administrators sees it,
   * from the catalog cache: both are the same for every viewer (who may see the mate is
   * decided per request, see visibleEntry).
   */
  function cachedMate(mateId: string) {
    return cache.get(['mates'], `mate|${mateId}`, async () => {
      const [row] = (await mateRowById(db, { id: mateId })).rows;
      return { row, detail: row && new SharedAnswer(toMate(row)) };
    });
  }

  /**
   * A mate the caller may see, or a clear error. With `asModerator`, administrators also see
   * mates that moderators hid or that someone reported, whatever their visibility.
   */
  async function visibleMate(
    mateId: string,
    viewer: ReturnType<typeof requireUser> | null,
    options: { asModerator?: boolean } = {},
  ) {
    return (await visibleEntry(mateId, viewer, options)).row;
  }

  /** {@link visibleMate}, with the cached detail of the same row. */
  async function visibleEntry(
    mateId: string,
    viewer: ReturnType<typeof requireUser> | null,
    options: { asModerator?: boolean } = {},
  ) {
    const entry = await cachedMate(mateId);
    const { row } = entry;
    const isOwn = Boolean(viewer && row && row.creator_id === viewer.id);
    if (row && !isOwn && options.asModerator && (await moderates(row, viewer)))
      return { row, detail: entry.detail! };
    if (!row || (row.visibility !== 'public' && !isOwn)) throw notFound('Mate');
    // A mate moderators hid is gone for everyone but its creator (#14).
    if (row.hidden_at && !isOwn) throw notFound('Mate');
    if (toBool(row.nsfw) && !isOwn && !(viewer && toBool(viewer.nfsw))) {
      throw new EnvelopeError(
        CODE.forbidden,
        'This mate is for adults. Turn on mature content in your settings to see it.',
      );
    }
    return { row, detail: entry.detail! };
  }

  /** Whether `viewer` is an administrator looking at a mate in the moderation queue. */
  async function moderates(row: MateRow, viewer: UserTable | null): Promise<boolean> {
    if (!isAdmin(viewer, deps.config.adminEmails)) return false;
    if (row.hidden_at) return true;
    const report = await db
      .selectFrom('mate_feedback')
      .select('id')
      .where('mate_id', '=', row.id)
      .limit(1)
      .executeTakeFirst();
    return Boolean(report);
  }

  /** Who looks, for what only a mate's creator and administrators learn. */
  const viewerOf = (viewer: UserTable | null): MateViewer => ({
    userId: viewer?.id ?? null,
    isAdmin: isAdmin(viewer, deps.config.adminEmails),
  });

  const recommendQuery = z.object({ tags: tagList, gender, ...pageFields });
  api.shared('/mate/recommend', recommendQuery, async (input, viewer) => {
    const key = `recommend|${visibilityClass(viewer)}|${JSON.stringify(input)}`;
    return cache.get(['mates'], key, async () => new SharedAnswer(await recommend(input, viewer)));
  });

  /** Mates that share more of the chosen tags come first, then the most chatted with. */
  function recommend(input: z.output<typeof recommendQuery>, viewer: UserTable | null) {
    const pages = paging(input);
    let ids = listableMateIds(db, viewer);
    if (input.gender) ids = ids.where('mates.gender', '=', input.gender);
    const tags = input.tags ?? [];
    const matches = db
      .selectFrom('mate_tags')
      .select(['mate_tags.mate_id', (eb) => eb.fn.countAll<number>().as('matches')])
      .where('mate_tags.tag_key', 'in', tags.length ? tags : [''])
      .groupBy('mate_tags.mate_id')
      .as('tm');
    const filtered = tags.length ? ids.innerJoin(matches, 'tm.mate_id', 'mates.id') : ids;
    const ordered = tags.length ? filtered.orderBy(sql.ref('tm.matches'), 'desc') : filtered;
    return pageOfMates(db, filtered, ordered, pages);
  }

  const mateQuery = z.object({ mateId: id });
  api.shared('/mate/getMateDetail', mateQuery, async ({ mateId }, viewer) => {
    const { row, detail } = await visibleEntry(mateId, viewer, { asModerator: true });
    const who = viewerOf(viewer);
    // Only its creator and administrators are told more than everyone else is.
    return who.isAdmin || row.creator_id === who.userId ? toMate(row, who) : detail;
  });

  api.get('/mate/mateExtraInfo', mateQuery, async (c, read) => {
    const { mateId } = await read();
    const viewer = c.get('user');
    const mate = await visibleMate(mateId, viewer, { asModerator: true });
    const [creator, reviews, favorite, following] = await Promise.all([
      creatorOf(db, mate.creator_id, viewer),
      reviewsOf(db, mateId),
      viewer
        ? db
            .selectFrom('favorites')
            .select('mate_id')
            .where('user_id', '=', viewer.id)
            .where('mate_id', '=', mateId)
            .executeTakeFirst()
        : undefined,
      viewer
        ? db
            .selectFrom('follows')
            .select('creator_id')
            .where('user_id', '=', viewer.id)
            .where('creator_id', '=', mate.creator_id)
            .executeTakeFirst()
        : undefined,
    ]);
    const result: MateExtraInfo = {
      mateId,
      creator: creator!,
      counters: toMateSummary(mate).counters,
      reviewSummary: reviews.summary,
      recentReviews: reviews.recent,
      isFavorite: Boolean(favorite),
      isFollowingCreator: Boolean(following),
    };
    return result;
  });

  // Both count in whole UTC days: the day is part of the key, so a new day computes anew.
  api.shared('/mate/hotWords', () =>
    cache.get(
      ['hot_words'],
      `hotWords|${dayOf(Date.now())}`,
      async () => new SharedAnswer(await hotWords(db)),
    ),
  );

  api.shared('/mate/trendingRank', async (_input, viewer) => {
    const key = `trending|${visibilityClass(viewer)}|${dayOf(Date.now())}`;
    return cache.get(['mates', 'trending'], key, async () => {
      const rows = await trendingMates(db, viewer);
      const result: TrendingEntry[] = rows.map((row, index) => ({
        rank: index + 1,
        mate: toMateSummary(row),
        recentChats: Number(row.recent_chats),
      }));
      return new SharedAnswer(result);
    });
  });

  const reviewPayload = z.object({
    mateId: id,
    rating: z.number().int().min(1).max(5),
    // Absent keeps the words of the caller's earlier review (a change of stars only).
    content: z.string().max(2000).optional(),
  });
  api.post('/mate/review', reviewPayload, async (c, read) => {
    const user = requireUser(c);
    const input = await read();
    const mate = await visibleMate(input.mateId, user);
    // A creator's own stars would only inflate the rating others rely on.
    if (mate.creator_id === user.id)
      throw new EnvelopeError(CODE.forbidden, 'You cannot review your own mate.');
    const at = now();
    const { reviewId, content } = await saveReview(db, deps.dialect, user.id, input, at);
    const result: Review = {
      reviewId,
      mateId: input.mateId,
      author: { creatorId: user.id, name: user.nickname, avatar: user.avatar },
      rating: input.rating,
      content,
      createdAt: at,
    };
    return result;
  });

  const feedbackPayload = z.object({
    mateId: id,
    reason: z.enum(MATE_FEEDBACK_REASONS),
    content: z.string().max(2000).default(''),
  });
  /**
   * A report reaches the moderators' queue. Limited by address (signed in or not) and by user;
   * a creator cannot report their own mate (4003). A signed-in reporter has at most one open
   * report per mate: reporting again while it is open replaces its reason and words with the
   * new ones (their latest say), and adds no row. Once moderators closed it, a new report
   * opens a new one (the mate may have changed since).
   */
  api.post('/mate/feedback', feedbackPayload, async (c, read) => {
    const user = c.get('user');
    await consume(deps.limits.feedbackByIp, clientIp(c));
    if (user) await consume(deps.limits.feedbackByUser, user.id);
    const input = await read();
    // A report names a mate the caller can see; a private id answers like an unknown one.
    const mate = await visibleMate(input.mateId, user);
    if (user && mate.creator_id === user.id)
      throw new EnvelopeError(CODE.forbidden, 'You cannot report your own mate.');
    const report = { reason: input.reason, content: input.content, created_at: now() };
    const insert = (executor: typeof db) =>
      executor
        .insertInto('mate_feedback')
        .values({ ...report, user_id: user?.id ?? null, mate_id: input.mateId })
        .execute();
    if (!user) {
      await insert(db);
      return null;
    }
    // One reporter's calls run one after the other: two at once cannot open two reports.
    await inUserTransaction(db, deps.dialect, user.id, async (trx) => {
      const open = await trx
        .selectFrom('mate_feedback')
        .select('id')
        .where('user_id', '=', user.id)
        .where('mate_id', '=', input.mateId)
        .where('closed_at', 'is', null)
        .executeTakeFirst();
      if (open)
        await trx.updateTable('mate_feedback').set(report).where('id', '=', open.id).execute();
      else await insert(trx);
    });
    return null;
  });

  routes.route('/', searchRoute(deps, cache, shared));
  routes.route('/', socialRoutes(deps));
  return routes;
}
