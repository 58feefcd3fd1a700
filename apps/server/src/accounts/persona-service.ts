import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Persona } from '@mates/api-client';
import type { Database, PersonaTable } from '../db/schema';
import type { DialectName } from '../db/dialect';
import { now, toBool } from '../db/dialect';
import { inUserTransaction } from '../db/user-lock';
import { missing, refused } from '../domain/errors';
import { portraitKey } from '../catalog/portrait-files';
import { publicHttpsAddress } from './avatar-address';
import {
  deletePersonaRow,
  insertPersona,
  makeOldestPersonaDefault,
  ownPersona,
  personaCounts,
  personasOf,
  setDefaultPersona,
  updatePersona,
} from './persona-repository';

/** The API shape of a persona row. */
export function toPersona(row: PersonaTable): Persona {
  return {
    uuid: row.id,
    name: row.name,
    description: row.description,
    avatar: row.avatar,
    isDefault: toBool(row.is_default),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * What is stored for `url` as a persona's avatar, which every viewer's browser loads, or `null`
 * when it may not be one: a picture uploaded here (`/media/avatars/…`, also under `publicUrl`),
 * kept as given, or a public `https:` address, normalised ({@link publicHttpsAddress}). Never
 * `javascript:`, `file:`, `data:`, a plain `http:` address, credentials or a host inside
 * someone's network.
 */
export function personaAvatar(url: string, publicUrl: string): string | null {
  const path = url.startsWith(`${publicUrl}/`) ? url.slice(publicUrl.length) : url;
  if (portraitKey(path) !== null) return url;
  return publicHttpsAddress(url);
}

/** How many personas one user may keep. */
export const MAX_PERSONAS = 20;

/** What the persona services work with. */
export interface PersonaDeps {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The chats a persona's new name (or its deletion) reaches (see {@link GreetingsOf}). */
  greetings?: GreetingsOf;
}

/**
 * The chats a new name reaches (a persona renamed or deleted, the person's nickname changed):
 * called before the change with the person and who they play there (`null`: themself), it
 * answers what readdresses the greetings of those not begun after it, from the old name to the
 * new (`null`: their nickname). The composition root gives `personaGreetings` of chat.
 */
export type GreetingsOf = (
  userId: string,
  personaId: string | null,
) => Promise<(from: string, to: string | null) => Promise<void>>;

/** The fields a user writes on a persona. */
export interface PersonaFields {
  name: string;
  description: string;
  avatar: string | null;
}

/** The user's personas, oldest first. */
export function listPersonas(deps: PersonaDeps, userId: string): Promise<PersonaTable[]> {
  return personasOf(deps.db, userId);
}

/** One of the user's personas, or a refusal as if there were none (4004). */
async function own(deps: PersonaDeps, userId: string, personaId: string): Promise<PersonaTable> {
  const persona = await ownPersona(deps.db, userId, personaId);
  if (!persona) throw missing('notices.notFound.persona');
  return persona;
}

/** Changes one of the user's personas (`personaId`), or adds one ({@link addPersona}). */
export async function savePersona(
  deps: PersonaDeps,
  userId: string,
  personaId: string | undefined,
  fields: PersonaFields,
): Promise<PersonaTable> {
  if (!personaId) return addPersona(deps, userId, fields);
  const before = await own(deps, userId, personaId);
  // A chat where the person has not spoken yet greets them by the persona's new name.
  const readdress = before.name === fields.name ? null : await deps.greetings?.(userId, personaId);
  await updatePersona(deps.db, personaId, fields);
  await readdress?.(before.name, fields.name);
  return own(deps, userId, personaId);
}

/**
 * Adds a persona, the default one when the user has no default (their first); a 5007 notice
 * when the user has {@link MAX_PERSONAS}. Counting and inserting hold the user's lock, so
 * parallel calls cannot pass the limit or make two defaults.
 */
export function addPersona(
  deps: PersonaDeps,
  userId: string,
  fields: PersonaFields,
): Promise<PersonaTable> {
  return inUserTransaction(deps.db, deps.dialect, userId, async (trx) => {
    const { count, hasDefault } = await personaCounts(trx, userId);
    if (count >= MAX_PERSONAS)
      throw refused('notices.account.personaLimit', { count: MAX_PERSONAS });
    const at = now();
    const row: PersonaTable = {
      id: randomUUID(),
      user_id: userId,
      ...fields,
      // The first persona a user makes is the one new chats use (as is the next one made by
      // an account that was left without a default).
      is_default: !hasDefault,
      created_at: at,
      updated_at: at,
    };
    await insertPersona(trx, row);
    return row;
  });
}

/** Makes one of the user's personas their default, and no other. */
export async function makeDefaultPersona(
  deps: PersonaDeps,
  userId: string,
  personaId: string,
): Promise<PersonaTable> {
  await own(deps, userId, personaId);
  await inUserTransaction(deps.db, deps.dialect, userId, (trx) =>
    setDefaultPersona(trx, userId, personaId),
  );
  return own(deps, userId, personaId);
}

/**
 * Deletes one of the user's personas. When it was their default, the oldest one left becomes
 * the default: a user with personas always has exactly one.
 */
export async function deletePersona(
  deps: PersonaDeps,
  userId: string,
  personaId: string,
): Promise<void> {
  const persona = await own(deps, userId, personaId);
  // Its chats go on as the person themself: one not begun greets them by their nickname.
  const readdress = await deps.greetings?.(userId, personaId);
  await inUserTransaction(deps.db, deps.dialect, userId, async (trx) => {
    const deleted = await deletePersonaRow(trx, userId, personaId);
    if (deleted?.wasDefault) await makeOldestPersonaDefault(trx, userId);
  });
  await readdress?.(persona.name, null);
}
