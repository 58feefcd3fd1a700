import { Hono } from 'hono';
import { sql, type RawBuilder } from 'kysely';
import { z } from 'zod';
import { SEARCH_SORTS } from '@mates/api-client';
import { contract } from '../http/contract';
import type { SharedCalls } from '../http/shared-calls';
import { SharedAnswer } from '../http/shared-answer';
import type { ApiEnv, Deps } from '../http/context';
import { logSearch } from './hot-words';
import { paging } from './mate-rows';
import { listableMateIds, pageOfMates } from './mate-ids';
import { gender, pageFields, tagList } from './query-schemas';
import { visibilityClass, type CatalogCache } from './catalog-cache';
import type { UserTable } from '../db/schema';

/** Lowercase words without accents: what both search indexes compare. */
export function searchWords(keyword: string): string[] {
  return keyword
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
}

/**
 * The words of `keyword` as typed, lowercase with accents kept ("séance"), for the hot words to
 * show; `words` (its {@link searchWords}) when the two do not fold to the same words.
 */
export function typedSpelling(keyword: string, words: string[]): string {
  const typed = keyword
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8)
    .join(' ');
  const folded = words.join(' ');
  return searchWords(typed).join(' ') === folded ? typed : folded;
}

// Each word matches as a prefix, so results come "as you type"; words contain only
// letters and digits, so nothing in them can be read as search syntax.
function ftsExpression(words: string[]): string {
  return words.map((word) => `"${word}"*`).join(' ');
}

/** `/mate/search`: name, tagline, description and tags; paged; signed-in searches that find something feed the hot words. */
export function searchRoute(deps: Deps, cache: CatalogCache, shared: SharedCalls): Hono<ApiEnv> {
  const { db, dialect } = deps;
  const routes = new Hono<ApiEnv>();
  const searchQuery = z.object({
    keyword: z.string().max(200).default(''),
    tags: tagList,
    gender,
    sort: z.enum(SEARCH_SORTS).default(SEARCH_SORTS[0]),
    ...pageFields,
  });
  contract(routes, '/mate', shared).shared('/mate/search', searchQuery, async (input, viewer) => {
    const words = searchWords(input.keyword);
    // Answers are shared; the words are the key, so "Café" and "cafe" share one.
    const key = `search|${visibilityClass(viewer)}|${JSON.stringify({ ...input, keyword: words })}`;
    const answer = await cache.get(
      ['mates'],
      key,
      async () => new SharedAnswer(await search(input, words, viewer)),
    );
    if (words.length && (input.page ?? 1) === 1 && viewer && answer.value.total > 0)
      await logSearch(db, viewer.id, words, typedSpelling(input.keyword, words));
    return answer;
  });

  /** One page of the mates that match `words` and the filters of `input`. */
  function search(input: z.output<typeof searchQuery>, words: string[], viewer: UserTable | null) {
    const pages = paging(input);
    let ids = listableMateIds(db, viewer);
    if (input.gender) ids = ids.where('mates.gender', '=', input.gender);
    for (const tag of input.tags ?? []) {
      ids = ids.where((eb) =>
        eb.exists(
          eb
            .selectFrom('mate_tags')
            .select('mate_tags.mate_id')
            .whereRef('mate_tags.mate_id', '=', 'mates.id')
            .where('mate_tags.tag_key', '=', tag),
        ),
      );
    }
    let rank: RawBuilder<number> | null = null;
    if (words.length && dialect === 'sqlite') {
      // One FTS5 match joined in, its rank read from the join (lower bm25 is better).
      const hits = sql<{
        fts_rowid: number;
        fts_rank: number;
      }>`(select rowid as fts_rowid, rank as fts_rank from mates_fts where mates_fts match ${ftsExpression(words)})`;
      ids = ids.innerJoin(hits.as('hits'), (join) =>
        join.on(sql<boolean>`hits.fts_rowid = mates.rowid`),
      ) as unknown as typeof ids;
      rank = sql<number>`-hits.fts_rank`;
    } else if (words.length) {
      const tsquery = words.map((word) => `${word}:*`).join(' & ');
      const phrase = words.join(' ');
      ids = ids.where(
        sql<boolean>`(mates.search @@ to_tsquery('simple', ${tsquery}) or mates_unaccent(lower(mates.name)) % ${phrase})`,
      );
      rank = sql<number>`(ts_rank(mates.search, to_tsquery('simple', ${tsquery})) + similarity(mates_unaccent(lower(mates.name)), ${phrase}))`;
    }
    let ordered = ids;
    if (input.sort === 'newest') ordered = ordered.orderBy('mates.created_at', 'desc');
    else if (input.sort === 'relevance' && rank) ordered = ordered.orderBy(rank, 'desc');
    return pageOfMates(db, ids, ordered, pages);
  }
  return routes;
}
