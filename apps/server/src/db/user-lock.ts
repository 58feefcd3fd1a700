import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema';
import type { DialectName } from './dialect';

/**
 * Runs `work` in a transaction that first locks the user's row, so that one user's
 * read-then-write steps (a toggle, a count before an insert) run one call after the other
 * instead of interleaving into duplicates. On PostgreSQL that is `FOR NO KEY UPDATE`, which
 * still lets other transactions insert rows that reference the user; SQLite needs nothing,
 * as Kysely runs its single connection one transaction at a time.
 */
export function inUserTransaction<T>(
  db: Kysely<Database>,
  dialect: DialectName,
  userId: string,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') {
      await trx
        .selectFrom('users')
        .select('id')
        .where('id', '=', userId)
        .forNoKeyUpdate()
        .execute();
    }
    return await work(trx);
  });
}
