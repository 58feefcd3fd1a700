import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Gender, MateSummary, Paged, SearchSort } from '@mates/api-client';
import type { Database, UserTable } from '../db/schema';
import { toBool, type DialectName } from '../db/dialect';
import {
  matesWithCreators,
  paging,
  toMateSummary,
  toPage,
  visibleTo,
  type MateRow,
} from './mate-rows';
import { tagsNamedBy } from './tag-names';

/**
 * Ids of the mates `viewer` may list: public, and safe for work unless they opted in.
 * Listing queries filter and sort these narrow rows, then load whole rows for one page
 * only: sorting rows that carry long card text was most of their cost.
 */
export function listableMateIds(db: Kysely<Database>, viewer: UserTable | null) {
  const query = db
    .selectFrom('mates')
    .select('mates.id')
    .where('mates.visibility', '=', 'public')
    .where('mates.deleted_at', 'is', null)
    .where('mates.hidden_at', 'is', null);
  return viewer && toBool(viewer.nfsw) ? query : query.where('mates.nsfw', '=', false);
}

/** The list form of the mates with `ids`, in the order of `ids`. */
export async function summariesInOrder(db: Kysely<Database>, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await matesWithCreators(db).where('mates.id', 'in', ids).execute();
  const byId = new Map<string, MateRow>(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toMateSummary(row)] : [];
  });
}

/**
 * One page of a mate listing: counts what `filtered` matches, takes the page of `ordered`
 * (ties broken by popularity, then newest, then id, so pages never overlap), and loads
 * just those mates.
 */
export async function pageOfMates<DB, TB extends keyof DB & string>(
  db: Kysely<Database>,
  filtered: SelectQueryBuilder<DB, TB, { id: string }>,
  ordered: SelectQueryBuilder<DB, TB, { id: string }>,
  pages: ReturnType<typeof paging>,
): Promise<Paged<MateSummary>> {
  const [total, pageIds] = await Promise.all([
    filtered
      .clearSelect()
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow(),
    ordered
      .orderBy(sql.ref('mates.chats_count'), 'desc')
      .orderBy(sql.ref('mates.created_at'), 'desc')
      .orderBy(sql.ref('mates.id'))
      .limit(pages.pageSize)
      .offset(pages.offset)
      .execute(),
  ]);
  const list = await summariesInOrder(
    db,
    pageIds.map((row) => row.id),
  );
  return toPage(list, pages, (total as { n: number }).n);
}

/** What a listing may be narrowed to: a gender, and tags (tag keys). */
export interface ListingFilters {
  gender?: Gender;
  tags?: string[];
  page?: number;
  pageSize?: number;
}

/** The mates `viewer` may list that share more of `tags` first, then the most chatted with. */
export function recommendedMates(
  db: Kysely<Database>,
  filters: ListingFilters,
  viewer: UserTable | null,
): Promise<Paged<MateSummary>> {
  let ids = listableMateIds(db, viewer);
  if (filters.gender) ids = ids.where('mates.gender', '=', filters.gender);
  const tags = filters.tags ?? [];
  const matches = db
    .selectFrom('mate_tags')
    .select(['mate_tags.mate_id', (eb) => eb.fn.countAll<number>().as('matches')])
    .where('mate_tags.tag_key', 'in', tags.length ? tags : [''])
    .groupBy('mate_tags.mate_id')
    .as('tm');
  const filtered = tags.length ? ids.innerJoin(matches, 'tm.mate_id', 'mates.id') : ids;
  const ordered = tags.length ? filtered.orderBy(sql.ref('tm.matches'), 'desc') : filtered;
  return pageOfMates(db, filtered, ordered, paging(filters));
}

// Each word matches as a prefix, so results come "as you type", or as the tags it names in
// one of the app's languages ("fantasía": the tag fantasy); words and tag keys contain only
// letters and digits, so nothing in them can be read as search syntax.
function ftsExpression(words: string[]): string {
  return words
    .map((word) => {
      const tags = tagsNamedBy(word).map((key) => `tags : "${key.join(' ')}"`);
      return tags.length ? `("${word}"* OR ${tags.join(' OR ')})` : `"${word}"*`;
    })
    .join(' AND ');
}

// The same for PostgreSQL's tsquery: a tag key's words follow each other ("sci <-> fi").
function tsqueryOf(words: string[]): string {
  return words
    .map((word) => {
      const tags = tagsNamedBy(word).map((key) => `(${key.join(' <-> ')})`);
      return tags.length ? `(${word}:* | ${tags.join(' | ')})` : `${word}:*`;
    })
    .join(' & ');
}

/**
 * One page of the mates `viewer` may list that match every one of `words` (in the name,
 * tagline, description or tags, a tag it names in another language, or the creator's name) and
 * the filters, sorted as asked.
 */
export function matchingMates(
  db: Kysely<Database>,
  dialect: DialectName,
  filters: ListingFilters & { sort: SearchSort },
  words: string[],
  viewer: UserTable | null,
): Promise<Paged<MateSummary>> {
  let ids = listableMateIds(db, viewer);
  if (filters.gender) ids = ids.where('mates.gender', '=', filters.gender);
  for (const tag of filters.tags ?? []) {
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
    const tsquery = tsqueryOf(words);
    const phrase = words.join(' ');
    ids = ids.where(
      sql<boolean>`(mates.search @@ to_tsquery('simple', ${tsquery}) or mates_unaccent(lower(mates.name)) % ${phrase})`,
    );
    rank = sql<number>`(ts_rank(mates.search, to_tsquery('simple', ${tsquery})) + similarity(mates_unaccent(lower(mates.name)), ${phrase}))`;
  }
  let ordered = ids;
  if (filters.sort === 'newest') ordered = ordered.orderBy('mates.created_at', 'desc');
  else if (filters.sort === 'relevance' && rank) ordered = ordered.orderBy(rank, 'desc');
  return pageOfMates(db, ids, ordered, paging(filters));
}

/** One page of the mates of `creatorId` that `viewer` may list, newest first. */
export function creatorMates(
  db: Kysely<Database>,
  creatorId: string,
  viewer: UserTable | null,
  pages: ReturnType<typeof paging>,
): Promise<Paged<MateSummary>> {
  const filtered = listableMateIds(db, viewer).where('mates.creator_id', '=', creatorId);
  return pageOfMates(db, filtered, filtered.orderBy('mates.created_at', 'desc'), pages);
}

/** The mate if `viewer` may see it: public, or their own, and not hidden from them. */
export function mateVisibleTo(
  db: Kysely<Database>,
  mateId: string,
  viewer: UserTable,
): Promise<MateRow | undefined> {
  return visibleTo(matesWithCreators(db), viewer, { includeOwn: true })
    .where('mates.id', '=', mateId)
    .executeTakeFirst();
}

/** `user`'s favorite mates that they may still see, most recently chosen first. */
export async function favoriteMates(db: Kysely<Database>, user: UserTable): Promise<MateSummary[]> {
  const rows = await visibleTo(matesWithCreators(db), user, { includeOwn: true })
    .innerJoin('favorites', 'favorites.mate_id', 'mates.id')
    .where('favorites.user_id', '=', user.id)
    .orderBy('favorites.created_at', 'desc')
    .execute();
  return rows.map(toMateSummary);
}
