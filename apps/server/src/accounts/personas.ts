import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, PersonaTable } from '../db/schema';
import type { DialectName } from '../db/dialect';
import { now, toBool } from '../db/dialect';
import { inUserTransaction } from '../db/user-lock';
import { notice } from '../http/envelope';

/** How many personas one user may keep. */
export const MAX_PERSONAS = 20;

/** The fields a user writes on a persona. */
export interface PersonaFields {
  name: string;
  description: string;
  avatar: string | null;
}

/**
 * Adds a persona, the default one when the user has no default (their first); a 5007 notice
 * when the user has {@link MAX_PERSONAS}. Counting and inserting hold the user's lock, so
 * parallel calls cannot pass the limit or make two defaults.
 */
export function addPersona(
  db: Kysely<Database>,
  dialect: DialectName,
  userId: string,
  fields: PersonaFields,
): Promise<PersonaTable> {
  return inUserTransaction(db, dialect, userId, async (trx) => {
    const { n, defaults } = await trx
      .selectFrom('personas')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn
          .sum<number | string | null>(
            eb.case().when('is_default', '=', true).then(1).else(0).end(),
          )
          .as('defaults'),
      ])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= MAX_PERSONAS) {
      throw notice(`You can have at most ${MAX_PERSONAS} personas. Delete one to make room.`);
    }
    const at = now();
    const row: PersonaTable = {
      id: randomUUID(),
      user_id: userId,
      ...fields,
      // The first persona a user makes is the one new chats use (as is the next one made by
      // an account that was left without a default).
      is_default: !Number(defaults ?? 0),
      created_at: at,
      updated_at: at,
    };
    await trx.insertInto('personas').values(row).execute();
    return row;
  });
}

/** Makes one of the user's personas their default, and no other. */
export function makeDefaultPersona(
  db: Kysely<Database>,
  dialect: DialectName,
  userId: string,
  personaId: string,
): Promise<void> {
  return inUserTransaction(db, dialect, userId, async (trx) => {
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
  });
}

/**
 * Deletes one of the user's personas. When it was their default, the oldest one left becomes
 * the default: a user with personas always has exactly one.
 */
export function deletePersona(
  db: Kysely<Database>,
  dialect: DialectName,
  userId: string,
  personaId: string,
): Promise<void> {
  return inUserTransaction(db, dialect, userId, async (trx) => {
    const deleted = await trx
      .deleteFrom('personas')
      .where('id', '=', personaId)
      .where('user_id', '=', userId)
      .returning('is_default')
      .executeTakeFirst();
    if (!deleted || !toBool(deleted.is_default)) return;
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
  });
}
