import type { Kysely } from 'kysely';
import type { PackageConfig } from '../config';
import type { Database } from '../db/schema';
import { toJson } from '../db/dialect';

/**
 * Puts the packages of `PACKAGES_FILE` on sale, in the file's order, and takes every other
 * package off sale. A package is never deleted: checkouts and subscriptions keep naming it.
 * Idempotent, so several servers starting at once may all run it.
 */
export async function applyPackages(
  db: Kysely<Database>,
  packages: PackageConfig[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const [sort, entry] of packages.entries()) {
      const row = {
        name: entry.name,
        description: entry.description,
        price_amount: entry.price.amount,
        price_currency: entry.price.currency,
        period: entry.period,
        chats: entry.chats,
        gold_coins: entry.goldCoins,
        features: toJson(entry.features),
        sort,
        on_sale: true,
      };
      await trx
        .insertInto('packages')
        .values({ id: entry.id, ...row })
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .execute();
    }
    await trx
      .updateTable('packages')
      .set({ on_sale: false })
      .where(
        'id',
        'not in',
        packages.map((entry) => entry.id),
      )
      .execute();
  });
}
