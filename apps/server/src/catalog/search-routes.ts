import { Hono } from 'hono';
import { z } from 'zod';
import { SEARCH_SORTS } from '@mates/api-client';
import { contract } from '../http/contract';
import type { SharedCalls } from '../http/shared-calls';
import type { ApiEnv } from '../http/context';
import type { CatalogDeps } from './catalog-deps';
import { gender, pageFields, tagList } from './query-schemas';
import { searchMates } from './search-service';

const searchQuery = z.object({
  keyword: z.string().max(200).default(''),
  tags: tagList,
  gender,
  sort: z.enum(SEARCH_SORTS).default(SEARCH_SORTS[0]),
  ...pageFields,
});

/**
 * `/mate/search`: name, tagline, description, tags and the creator's name; paged; answered ahead
 * of the middlewares.
 */
export function searchRoutes(catalog: CatalogDeps, shared: SharedCalls): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  contract(routes, '/mate', shared).shared('/mate/search', searchQuery, (input, viewer) =>
    searchMates(catalog, input, viewer),
  );
  return routes;
}
