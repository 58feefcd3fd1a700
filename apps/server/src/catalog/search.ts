import { Hono } from 'hono';
import { sql, type RawBuilder } from 'kysely';
import { z } from 'zod';
import type { MateSummary, Paged } from '@mates/api-client';
import { ok } from '../http/envelope';
import { query } from '../http/validate';
import type { ApiEnv, Deps } from '../http/context';
import type { DialectName } from '../db/dialect';
import { now } from '../db/dialect';
import { matesWithCreators, paging, toMateSummary, visibleTo } from './mate-rows';
import { gender, pageFields, tagList } from './query-schemas';

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

// Each word matches as a prefix, so results come "as you type"; words contain only
// letters and digits, so nothing in them can be read as search syntax.
function matchCondition(
  dialect: DialectName,
  words: string[],
): { where: RawBuilder<boolean>; rank: RawBuilder<number> } {
  if (dialect === 'sqlite') {
    const expression = words.map((word) => `"${word}"*`).join(' ');
    return {
      where: sql<boolean>`mates.rowid in (select rowid from mates_fts where mates_fts match ${expression})`,
      rank: sql<number>`-(select rank from mates_fts where mates_fts match ${expression} and mates_fts.rowid = mates.rowid)`,
    };
  }
  const tsquery = words.map((word) => `${word}:*`).join(' & ');
  const phrase = words.join(' ');
  return {
    where: sql<boolean>`(mates.search @@ to_tsquery('simple', ${tsquery}) or mates_unaccent(lower(mates.name)) % ${phrase})`,
    rank: sql<number>`(ts_rank(mates.search, to_tsquery('simple', ${tsquery})) + similarity(mates_unaccent(lower(mates.name)), ${phrase}))`,
  };
}

/** `/mate/search`: name, tagline, description and tags; paged; logs words for hot words. */
export function searchRoute(deps: Deps): Hono<ApiEnv> {
  const { db, dialect } = deps;
  const routes = new Hono<ApiEnv>();
  routes.get('/search', async (c) => {
    const input = query(
      c,
      z.object({
        keyword: z.string().max(200).default(''),
        tags: tagList,
        gender,
        sort: z.enum(['relevance', 'popular', 'newest']).default('relevance'),
        ...pageFields,
      }),
    );
    const { page, pageSize, offset } = paging(input);
    const words = searchWords(input.keyword);
    let base = visibleTo(matesWithCreators(db), c.get('user'));
    if (input.gender) base = base.where('mates.gender', '=', input.gender);
    for (const tag of input.tags ?? []) {
      base = base.where((eb) =>
        eb.exists(
          eb
            .selectFrom('mate_tags')
            .select('mate_tags.mate_id')
            .whereRef('mate_tags.mate_id', '=', 'mates.id')
            .where('mate_tags.tag_key', '=', tag),
        ),
      );
    }
    const match = words.length ? matchCondition(dialect, words) : null;
    if (match) base = base.where(match.where);
    const total = Number(
      (
        await base
          .clearSelect()
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    let ordered = base;
    if (input.sort === 'newest') ordered = ordered.orderBy('mates.created_at', 'desc');
    else if (input.sort === 'relevance' && match) ordered = ordered.orderBy(match.rank, 'desc');
    const rows = await ordered
      .orderBy('mates.chats_count', 'desc')
      .orderBy('mates.id')
      .limit(pageSize)
      .offset(offset)
      .execute();
    if (words.length && page === 1) {
      await db
        .insertInto('search_log')
        .values({ word: words.join(' ').slice(0, 60), created_at: now() })
        .execute();
    }
    const result: Paged<MateSummary> = {
      list: rows.map(toMateSummary),
      page,
      pageSize,
      total,
      hasMore: offset + rows.length < total,
    };
    return ok(c, result);
  });
  return routes;
}
