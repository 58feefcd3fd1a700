import type { Kysely } from 'kysely';
import type { Database, PersonaTable } from '../db/schema';
import { now, toBool } from '../db/dialect';

/** A user's personas, oldest first. */
export function personasOf(db: Kysely<Database>, userId: string): Promise<PersonaTable[]> {
  return db
    .selectFrom('personas')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

/** One of the user's personas, or `undefined` when it is not theirs (or not there). */
export function ownPersona(
  db: Kysely<Database>,
  userId: string,
  personaId: string,
): Promise<PersonaTable | undefined> {
  return db
    .selectFrom('personas')
    .selectAll()
    .where('id', '=', personaId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The user's default persona, or `undefined`. */
export function findDefaultPersona(
  db: Kysely<Database>,
  userId: string,
): Promise<PersonaTable | undefined> {
  return db
    .selectFrom('personas')
    .selectAll()
    .where('user_id', '=', userId)
    .where('is_default', '=', true)
    .executeTakeFirst();
}

/** Writes what the user wrote on a persona. */
export async function updatePersona(
  db: Kysely<Database>,
  personaId: string,
  fields: Pick<PersonaTable, 'name' | 'description' | 'avatar'>,
): Promise<void> {
  await db
    .updateTable('personas')
    .set({ ...fields, updated_at: now() })
    .where('id', '=', personaId)
    .execute();
}

/** How many personas the user has, and whether one of them is their default. */
export async function personaCounts(
  trx: Kysely<Database>,
  userId: string,
): Promise<{ count: number; hasDefault: boolean }> {
  const { n, defaults } = await trx
    .selectFrom('personas')
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn
        .sum<number | string | null>(eb.case().when('is_default', '=', true).then(1).else(0).end())
        .as('defaults'),
    ])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { count: Number(n), hasDefault: Number(defaults ?? 0) > 0 };
}

/** Stores a new persona. */
export async function insertPersona(trx: Kysely<Database>, row: PersonaTable): Promise<void> {
  await trx.insertInto('personas').values(row).execute();
}

/** Makes `personaId` the user's default persona and no other one their default. */
export async function setDefaultPersona(
  trx: Kysely<Database>,
  userId: string,
  personaId: string,
): Promise<void> {
  await trx
    .updateTable('personas')
    .set({ is_default: false })
    .where('user_id', '=', userId)
    .where('is_default', '=', true)
    .execute();
  await trx
    .updateTable('personas')
    .set({ is_default: true, updated_at: now() })
    .where('id', '=', personaId)
    .where('user_id', '=', userId)
    .execute();
}

/** Deletes one of the user's personas: `null` when there was none, else whether it was the default. */
export async function deletePersonaRow(
  trx: Kysely<Database>,
  userId: string,
  personaId: string,
): Promise<{ wasDefault: boolean } | null> {
  const deleted = await trx
    .deleteFrom('personas')
    .where('id', '=', personaId)
    .where('user_id', '=', userId)
    .returning('is_default')
    .executeTakeFirst();
  return deleted ? { wasDefault: toBool(deleted.is_default) } : null;
}

/** Makes the user's oldest persona their default, when they have one left. */
export async function makeOldestPersonaDefault(
  trx: Kysely<Database>,
  userId: string,
): Promise<void> {
  const oldest = await trx
    .selectFrom('personas')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
  if (oldest)
    await trx
      .updateTable('personas')
      .set({ is_default: true, updated_at: now() })
      .where('id', '=', oldest.id)
      .execute();
}
