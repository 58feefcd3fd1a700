import type { Kysely } from 'kysely';
import type { Database, TagGroupTable, TagTable } from '../db/schema';

/** Every tag group and every tag, each in display order. */
export async function tagsInOrder(
  db: Kysely<Database>,
): Promise<{ groups: TagGroupTable[]; tags: TagTable[] }> {
  const [groups, tags] = await Promise.all([
    db.selectFrom('tag_groups').selectAll().orderBy('sort').execute(),
    db.selectFrom('tags').selectAll().orderBy('sort').execute(),
  ]);
  return { groups, tags };
}

/** The keys of every tag there is. */
export async function tagKeys(db: Kysely<Database>): Promise<string[]> {
  return (await db.selectFrom('tags').select('key').execute()).map((row) => row.key);
}

/** Every tag's label, by its key. */
export async function tagLabels(db: Kysely<Database>): Promise<Map<string, string>> {
  const rows = await db.selectFrom('tags').select(['key', 'label']).execute();
  return new Map(rows.map((tag) => [tag.key, tag.label]));
}
