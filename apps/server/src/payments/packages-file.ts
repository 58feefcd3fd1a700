import type { Kysely } from 'kysely';
import type { PackageConfig } from '../config';
import type { Database } from '../db/schema';
import { toJson } from '../db/dialect';
import { savePackage, takeOffSaleExcept } from './package-repository';

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
      await savePackage(trx, entry.id, {
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
      });
    }
    await takeOffSaleExcept(
      trx,
      packages.map((entry) => entry.id),
    );
  });
}
