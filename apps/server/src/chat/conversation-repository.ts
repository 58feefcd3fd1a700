import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database, PersonaTable, RoomTable } from '../db/schema';
import { PROMPT_MATE_COLUMNS, type PromptMate } from '../catalog/mate-rows';
import { preparedQuery } from '../db/prepared-query';
import { roomRecall, type RoomRecall } from './recall';

// Read for every reply: each compiled once (see `preparedQuery`).
const mateById = preparedQuery((db, v: { id: string }) =>
  db.selectFrom('mates').select(PROMPT_MATE_COLUMNS).where('id', '=', v.id),
);
const personaById = preparedQuery((db, v: { id: string }) =>
  db.selectFrom('personas').selectAll().where('id', '=', v.id),
);
/** A mate's card's other fields, read when the prompt has not kept them (see `cardExtrasOf`). */
const cardExtraById = preparedQuery((db, v: { id: string }) =>
  db.selectFrom('mates').select('card_extra').where('id', '=', v.id),
);
/** The newest `recent` messages of a room, newest first. */
const wordsOf = preparedQuery((db, v: { roomId: string; recent: number }) =>
  newestWords(db.selectFrom('messages').where('room_id', '=', v.roomId), v.recent),
);

/**
 * How many of a room's newest messages are read first for a prompt (see `fittingTurns`): what
 * a send may read ahead with its room (see `sendContext`).
 */
export const PROMPT_FIRST_READ = 64;

/**
 * The words of a prompt among `messages` (a room's): its `recent` newest that are not pictures,
 * newest first, with their status (see `sendContext`).
 */
export function newestWords<O>(
  messages: SelectQueryBuilder<Database, 'messages', O>,
  recent: number,
) {
  return (
    messages
      .select(['id', 'position', 'role', 'content', 'speaker_id', 'status'])
      // Picture messages are not words of the conversation.
      .where('image_prompt', 'is', null)
      .orderBy('position', 'desc')
      .limit(recent)
  );
}

/** A room's newest words, as a prompt is built from them (see {@link ConversationRows}). */
export type PromptWords = ConversationRows['words'];

/** What the caller of {@link conversationRows} read already, so that it is not read again. */
export interface KnownRows {
  /** The answering mate's row. */
  mate?: PromptMate;
  /** The room's {@link PROMPT_FIRST_READ} newest words, read with its room. */
  words?: PromptWords;
}

/** What a prompt is built from, as stored: a room's mate, its persona and its newest words. */
export interface ConversationRows {
  /** `undefined` when the mate is gone. */
  mate: PromptMate | undefined;
  persona: PersonaTable | undefined;
  /** The room's `recent` newest messages that are not pictures, newest first. */
  words: {
    id: string;
    position: number;
    role: string;
    content: string;
    speaker_id: string | null;
    status: string;
  }[];
  /** What the mate remembers, or `null` for nothing (see `roomRecall`). */
  recall: RoomRecall | null;
}

/** A room's mate (or a group's speaker), persona, `recent` newest words and memories, at once. */
export async function conversationRows(
  db: Kysely<Database>,
  room: Pick<
    RoomTable,
    'id' | 'user_id' | 'mate_id' | 'persona_id' | 'memory_version' | 'family_id'
  >,
  recent: number,
  /** In a group, the member answering (else the room's mate). */
  speakerId?: string,
  /** What the caller read already (see `sendContext`). */
  known: KnownRows = {},
): Promise<ConversationRows> {
  const [mates, personas, messages, recall] = await Promise.all([
    known.mate ? { rows: [known.mate] } : mateById(db, { id: speakerId ?? room.mate_id }),
    room.persona_id ? personaById(db, { id: room.persona_id }) : undefined,
    known.words && recent === PROMPT_FIRST_READ
      ? { rows: known.words }
      : wordsOf(db, { roomId: room.id, recent }),
    roomRecall(db, room, speakerId),
  ]);
  return { mate: mates.rows[0], persona: personas?.rows[0], words: messages.rows, recall };
}

/** The stored `card_extra` of mate `id` (`'{}'` when it is gone). */
export async function cardExtraOf(db: Kysely<Database>, id: string): Promise<unknown> {
  return (await cardExtraById(db, { id })).rows[0]?.card_extra ?? '{}';
}
