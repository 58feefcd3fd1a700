import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, PackageTable } from '../db/schema';

/** A stored package. */
export type PackageRow = Selectable<PackageTable>;

/** A package as `PACKAGES_FILE` describes it: everything but its id. */
export type PackageFields = Omit<Insertable<PackageTable>, 'id'>;

/** A package by its id, on sale or not (what a checkout or a plan bought stays readable). */
export function packageById(db: Kysely<Database>, id: string): Promise<PackageRow | undefined> {
  return db.selectFrom('packages').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A package by its id, only while it is on sale. */
export function packageOnSale(db: Kysely<Database>, id: string): Promise<PackageRow | undefined> {
  return db
    .selectFrom('packages')
    .selectAll()
    .where('id', '=', id)
    .where('on_sale', '=', true)
    .executeTakeFirst();
}

/** The packages on sale, in the order they are shown. */
export function packagesOnSale(db: Kysely<Database>): Promise<PackageRow[]> {
  return db
    .selectFrom('packages')
    .selectAll()
    .where('on_sale', '=', true)
    .orderBy('sort')
    .execute();
}

/** Writes package `id` as `fields` says: a new one, or the stored one changed. */
export async function savePackage(
  db: Kysely<Database>,
  id: string,
  fields: PackageFields,
): Promise<void> {
  await db
    .insertInto('packages')
    .values({ id, ...fields })
    .onConflict((oc) => oc.column('id').doUpdateSet(fields))
    .execute();
}

/** Takes every package off sale but those of `ids` (none is deleted: history names them). */
export async function takeOffSaleExcept(db: Kysely<Database>, ids: string[]): Promise<void> {
  await db.updateTable('packages').set({ on_sale: false }).where('id', 'not in', ids).execute();
}
