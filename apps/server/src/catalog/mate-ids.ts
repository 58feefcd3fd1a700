import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { MateSummary, Paged } from '@mates/api-client';
import type { Database, UserTable } from '../db/schema';
import { toBool } from '../db/dialect';
import { matesWithCreators, toMateSummary, toPage, type MateRow, type paging } from './mate-rows';

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
