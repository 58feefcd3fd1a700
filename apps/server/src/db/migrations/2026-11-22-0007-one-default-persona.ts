import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * At most one default persona per user, held by the database. Parallel creations could mark
 * several as default before; the oldest of them stays the default.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const [yes, no] = dialect === 'sqlite' ? [sql`1`, sql`0`] : [sql`true`, sql`false`];
  await sql`
    update personas set is_default = ${no}
    where is_default = ${yes} and id <> (
      select first.id from personas first
      where first.user_id = personas.user_id and first.is_default = ${yes}
      order by first.created_at, first.id
      limit 1
    )`.execute(db);
  await db.schema
    .createIndex('personas_one_default')
    .on('personas')
    .column('user_id')
    .unique()
    .where(sql.ref('is_default'), '=', yes)
    .execute();
}
