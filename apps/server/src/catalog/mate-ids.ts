import type { Kysely } from 'kysely';
import type { Database, UserTable } from '../db/schema';
import { toBool } from '../db/dialect';
import { matesWithCreators, toMateSummary, type MateRow } from './mate-rows';

/**
 * Ids of the mates `viewer` may list: public, and safe for work unless they opted in.
 * Listing queries filter and sort these narrow rows, then load whole rows for one page
 * only: sorting rows that carry long card text was most of their cost.
 */
export function listableMateIds(db: Kysely<Database>, viewer: UserTable | null) {
  const query = db.selectFrom('mates').select('mates.id').where('mates.visibility', '=', 'public');
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
