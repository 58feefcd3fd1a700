import { Hono } from 'hono';
import { z } from 'zod';
import { MATE_FEEDBACK_REASONS } from '@mates/api-client';
import { SharedAnswer } from '../http/shared-answer';
import { contract } from '../http/contract';
import type { SharedCalls } from '../http/shared-calls';
import { clientIp, requireUser, type ApiEnv, type Deps } from '../http/context';
import { consume } from '../accounts/rate-limits';
import { gender, id, pageFields, tagList } from './query-schemas';
import { searchRoutes } from './search-routes';
import { socialRoutes } from './social-routes';
import { createCatalogCache } from './catalog-cache';
import type { CatalogDeps } from './catalog-deps';
import {
  hotWordsToday,
  mateDetail,
  mateExtraInfo,
  recommend,
  reportMate,
  reviewMate,
  trendingToday,
} from './mate-service';

const recommendQuery = z.object({ tags: tagList, gender, ...pageFields });
const mateQuery = z.object({ mateId: id });
const reviewPayload = z.object({
  mateId: id,
  rating: z.number().int().min(1).max(5),
  // Absent keeps the words of the caller's earlier review (a change of stars only).
  content: z.string().max(2000).optional(),
});
const feedbackPayload = z.object({
  mateId: id,
  reason: z.enum(MATE_FEEDBACK_REASONS),
  content: z.string().max(2000).default(''),
});

/** `/mate/*`: recommend, detail, extra info, search, hot words, trending, reviews, reports. */
export function mateRoutes(deps: Deps, shared: SharedCalls): Hono<ApiEnv> {
  const catalog: CatalogDeps = {
    db: deps.db,
    dialect: deps.dialect,
    adminEmails: deps.config.adminEmails,
    cache: createCatalogCache(deps.db),
    ready: (value) => new SharedAnswer(value),
  };
  const routes = new Hono<ApiEnv>();
  const api = contract(routes, '/mate', shared);

  api.shared('/mate/recommend', recommendQuery, (input, viewer) =>
    recommend(catalog, input, viewer),
  );
  api.shared('/mate/getMateDetail', mateQuery, ({ mateId }, viewer) =>
    mateDetail(catalog, mateId, viewer),
  );
  api.get('/mate/mateExtraInfo', mateQuery, async (c, read) =>
    mateExtraInfo(catalog, (await read()).mateId, c.get('user')),
  );
  api.shared('/mate/hotWords', () => hotWordsToday(catalog));
  api.shared('/mate/trendingRank', (_input, viewer) => trendingToday(catalog, viewer));

  api.post('/mate/review', reviewPayload, async (c, read) => {
    const user = requireUser(c);
    return reviewMate(catalog, user, await read());
  });

  // Limited by address (signed in or not) and by user, before the body is read.
  api.post('/mate/feedback', feedbackPayload, async (c, read) => {
    const user = c.get('user');
    await consume(deps.limits.feedbackByIp, clientIp(c));
    if (user) await consume(deps.limits.feedbackByUser, user.id);
    return reportMate(catalog, user, await read());
  });

  routes.route('/', searchRoutes(catalog, shared));
  routes.route('/', socialRoutes(deps));
  return routes;
}
