import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** Every known tag key, in display order: the tags a drafted character may carry. */
export async function knownTagKeys(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('tags').select('key').orderBy('sort').execute();
  return rows.map((tag) => tag.key);
}
