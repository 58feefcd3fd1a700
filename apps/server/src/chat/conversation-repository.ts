import type { Kysely } from 'kysely';
import type { Database, MateTable, PersonaTable, RoomTable } from '../db/schema';
import { preparedQuery } from '../db/prepared-query';
import { roomRecall, type RoomRecall } from './recall';

// Read for every reply: each compiled once (see `preparedQuery`).
const mateById = preparedQuery((db, v: { id: string }) =>
  db.selectFrom('mates').selectAll().where('id', '=', v.id),
);
const personaById = preparedQuery((db, v: { id: string }) =>
  db.selectFrom('personas').selectAll().where('id', '=', v.id),
);
/** The newest `recent` messages of a room, newest first. */
const wordsOf = preparedQuery((db, v: { roomId: string; recent: number }) =>
  db
    .selectFrom('messages')
    .select(['id', 'position', 'role', 'content', 'speaker_id'])
    .where('room_id', '=', v.roomId)
    // Picture messages are not words of the conversation.
    .where('image_prompt', 'is', null)
    .orderBy('position', 'desc')
    .limit(v.recent),
);

/** What a prompt is built from, as stored: a room's mate, its persona and its newest words. */
export interface ConversationRows {
  /** `undefined` when the mate is gone. */
  mate: MateTable | undefined;
  persona: PersonaTable | undefined;
  /** The room's `recent` newest messages that are not pictures, newest first. */
  words: {
    id: string;
    position: number;
    role: string;
    content: string;
    speaker_id: string | null;
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
  /** The answering mate's row when the caller read it already (see `sendContext`). */
  known?: MateTable,
): Promise<ConversationRows> {
  const [mates, personas, messages, recall] = await Promise.all([
    known ? { rows: [known] } : mateById(db, { id: speakerId ?? room.mate_id }),
    room.persona_id ? personaById(db, { id: room.persona_id }) : undefined,
    wordsOf(db, { roomId: room.id, recent }),
    roomRecall(db, room, speakerId),
  ]);
  return { mate: mates.rows[0], persona: personas?.rows[0], words: messages.rows, recall };
}
