import type { Kysely, Transaction } from 'kysely';
import type { CardSpec, MateDraft, MateVisibility } from '@mates/api-client';
import type { Database, MateTable } from '../db/schema';
import { now, toJson } from '../db/dialect';

/**
 * What a new mate needs: the editable fields of the contract's `MateDraft` (tags are tag
 * keys, also written to the mate_tags index by {@link insertMates}) and where it belongs;
 * the rest (counters, timestamps, JSON encoding) is filled in.
 */
export interface NewMate extends MateDraft {
  id: string;
  creator_id: string;
  avatar: string;
  visibility: MateVisibility;
  extensions?: Record<string, unknown>;
  card_extra?: Record<string, unknown>;
  card_spec?: CardSpec;
  /** Its voice (an id of `GET /voice/voices`); absent or `null` for the default. */
  voice?: string | null;
  created_at?: string;
}

/** A mate row with zero counters, JSON columns written as both dialects accept them. */
export function newMateRow(mate: NewMate): MateTable {
  const at = mate.created_at ?? now();
  return {
    ...mate,
    alternate_greetings: toJson(mate.alternate_greetings),
    tags: toJson(mate.tags),
    extensions: toJson(mate.extensions ?? {}),
    card_extra: toJson(mate.card_extra ?? {}),
    card_spec: mate.card_spec ?? 'v2',
    voice: mate.voice ?? null,
    chats_count: 0,
    messages_count: 0,
    favorites_count: 0,
    reviews_count: 0,
    rating_sum: 0,
    deleted_at: null,
    hidden_at: null,
    hidden_reason: null,
    hidden_note: '',
    hidden_by: null,
    created_at: at,
    updated_at: at,
  };
}

/** Inserts mates and their tag index rows. */
export async function insertMates(
  db: Kysely<Database> | Transaction<Database>,
  mates: NewMate[],
): Promise<void> {
  if (mates.length === 0) return;
  await db.insertInto('mates').values(mates.map(newMateRow)).execute();
  const tags = mates.flatMap((mate) => mate.tags.map((tag_key) => ({ mate_id: mate.id, tag_key })));
  if (tags.length) await db.insertInto('mate_tags').values(tags).execute();
}
